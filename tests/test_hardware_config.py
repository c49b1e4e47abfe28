"""The hardware config file: the default loads; a wrong file is refused with the reason,
before any pin is touched."""

import pytest
from gpiozero import Device

from bgboard.controller.cli import main
from bgboard.hardware.config import DEFAULT, load_config
from hardware_helpers import mock_factory


def test_default_config():
    cfg = load_config()
    assert (cfg.leds.data, cfg.leds.clock, cfg.leds.latch) == (17, 27, 22)
    assert cfg.leds.outputs == tuple(range(30))
    assert cfg.servo.pin == 18
    assert (cfg.servo.min_pulse, cfg.servo.max_pulse) == (0.0005, 0.0025)
    assert cfg.servo.faces == {64: 0, 2: 36, 4: 72, 8: 108, 16: 144, 32: 180}
    assert [cfg.servo.angle(v) for v in (1, 2, 64)] == [0, 36, 0]
    assert cfg.buttons.pins == {"double": 5, "take": 6, "pass": 13, "undo": 19, "confirm": 26}
    assert (cfg.buttons.bounce, cfg.buttons.hold) == (0.05, 1.0)


BAD = [
    ("data = 17", "data = 40", r"\[leds\] data = 40 is not a GPIO pin \(BCM 0..27\)"),
    ("take = 6", "take = 17", r"GPIO17 is used twice: \[leds\] data and \[buttons\] take"),
    ("pin = 18", "pin = 26", r"GPIO26 is used twice: \[servo\] pin and \[buttons\] confirm"),
    ("[servo.faces]", "[servo.angles]", r"\[servo\] is missing faces"),
    ("16 = 144\n", "", r"\[servo.faces\] is missing 16"),
    ("32 = 180", "32 = 200", r"\[servo.faces\] 32 = 200 is outside 0..180"),
    ("bounce_ms = 50", "bounce = 50", r"\[buttons\] has unknown key bounce"),
    ("registers = 4", "registers = 3", r"\[leds\] registers = 3 has fewer than 30 outputs"),
    ("registers = 4", "registers = 4\noutputs = [0, 0]",
     r"\[leds\] outputs must be 30 different integers 0..31"),
    ("speed = 120", "speed = -1", r"\[servo\] needs .* speed > 0"),
    ("[buttons]", "[buttons", r"not valid TOML"),
]


@pytest.mark.parametrize(("old", "new", "reason"), BAD)
def test_a_wrong_config_is_refused_with_the_reason(tmp_path, old, new, reason):
    text = DEFAULT.read_text()
    assert old in text
    path = tmp_path / "wiring.toml"
    path.write_text(text.replace(old, new, 1))
    with pytest.raises(ValueError, match=f"^{path}: {reason}"):
        load_config(path)


def test_the_cli_refuses_a_wrong_config_before_any_pin_moves(tmp_path, capsys):
    path = tmp_path / "wiring.toml"
    path.write_text(DEFAULT.read_text().replace("take = 6", "take = 22"))
    factory = mock_factory()
    try:
        assert main(["leds", "test", "--backend", "gpio", "--config", str(path)]) == 2
        assert factory.pins == {}
    finally:
        factory.reset()
        Device.pin_factory = None
    err = capsys.readouterr().err
    assert err == (f"bgboard leds: error: {path}: GPIO22 is used twice: [leds] latch and "
                   "[buttons] take\n")
