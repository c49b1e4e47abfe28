"""The gpio backend on gpiozero's MockFactory: the bits a 74HC595 chain latches, the servo's
pulse widths and the buttons, rebuilt from the mock pins and compared with the frames."""

import json
import os
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest
from gpiozero import Device

from bgboard.engine.board import BLACK, WHITE, Position
from bgboard.hardware import signals as s
from bgboard.hardware.backends import open_backend
from bgboard.hardware.config import DEFAULT, parse_config
from bgboard.hardware.display import Display
from bgboard.hardware.gpio_backend import GpioBackend
from bgboard.hardware.led_pattern import TICK
from hardware_helpers import latched, mock_factory, pulses_ms

ALL_OFF = ()


def config(**sections):
    """The default config with some keys of some sections replaced."""
    data = tomllib.loads(DEFAULT.read_text())
    for section, values in sections.items():
        data[section].update(values)
    return parse_config(data)


@pytest.fixture
def factory():
    factory = mock_factory()
    yield factory
    factory.reset()
    Device.pin_factory = None


class Clock:
    """A clock the test moves by hand."""

    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def lit_indices(frame, tick=0):
    return tuple(i for i, c in enumerate(frame.at(tick)) if c != (0, 0, 0))


def test_start_shifts_all_off_then_frames_latch_the_lit_leds(factory):
    cfg = config()
    start = Position()
    frame = s.turn(WHITE) | s.legal_sources(start, (6, 5))
    with Display(GpioBackend(cfg), cfg.servo) as display:
        display.show(frame)
        assert latched(factory.log, cfg) == [ALL_OFF, (7, 12, 23, 28)]
        assert lit_indices(frame) == (7, 12, 23, 28)


def test_wiring_table_moves_leds_to_other_chain_outputs(factory):
    outputs = list(range(31, 1, -1))  # LED 0 on output 31 ... LED 29 on output 2
    cfg = config(leds={"outputs": outputs})
    with GpioBackend(cfg) as backend:
        backend.show(s.turn(BLACK).at(0))
    shift = [False] * 32
    data = False
    for pin, value in factory.log:  # the raw chain outputs, without the wiring table
        if pin == cfg.leds.data:
            data = bool(value)
        elif pin == cfg.leds.clock and value:
            shift = [data] + shift[:-1]
        elif pin == cfg.leds.latch and value:
            raw = [i for i, bit in enumerate(shift) if bit]
            if raw:
                assert raw == [outputs[29]] == [2]
    assert latched(factory.log, cfg)[1] == (29,)


def test_only_changes_are_shifted_and_blinking_follows_the_ticks(factory):
    cfg = config()
    clock = Clock()
    with Display(GpioBackend(cfg), cfg.servo, clock=clock) as display:
        frame = s.illegal_move([24, 20])
        display.show(frame)
        for tick in range(1, 5):
            clock.now = 100.0 + tick * TICK
            display.update()
            display.update()  # nothing new within the same tick
        assert latched(factory.log, cfg) == [ALL_OFF, (19, 23), (), (19, 23), (), (19, 23)]
        display.show(s.illegal_move([24, 20]) | s.cube(1))  # same lights: nothing shifted
        assert len(latched(factory.log, cfg)) == 6


def test_single_colour_leds_light_for_any_colour(factory):
    cfg = config()
    with GpioBackend(cfg) as backend:
        backend.show([(0, 0, 1)] + [(0, 0, 0)] * 28 + [(255, 0, 0)])
        backend.show([(9, 9, 9)] + [(0, 0, 0)] * 28 + [(0, 255, 0)])  # same bits: not sent
    assert latched(factory.log, cfg) == [ALL_OFF, (0, 29), ALL_OFF]


def angle_ms(angle):
    """The default servo: 0.5 ms at 0 degrees to 2.5 ms at 180."""
    return round(0.5 + angle / 180 * 2.0, 3)


def test_cube_turns_slowly_to_the_face_then_the_pulse_stops(factory):
    cfg = config(servo={"speed": 500})  # 10 degrees per 20 ms servo frame
    clock = Clock()
    with Display(GpioBackend(cfg), cfg.servo, clock=clock) as display:
        display.show(s.cube(2))  # first turn: position unknown, straight to 36
        assert display.backend.confirmed(5.0)
        assert pulses_ms(factory.log, cfg) == [angle_ms(36), 0.0]
        factory.log.clear()
        display.show(s.cube(8))  # 36 -> 108 in steps of 10 degrees
        assert display.backend.confirmed(5.0)
        steps = [46, 56, 66, 76, 86, 96, 106, 108]
        assert pulses_ms(factory.log, cfg) == [angle_ms(a) for a in steps] + [0.0]
        assert factory.pin(cfg.servo.pin).frequency is None
        factory.log.clear()
        display.show(s.cube(8, WHITE))  # same face: the servo is not touched
        assert pulses_ms(factory.log, cfg) == []


def test_cube_value_1_shows_the_64_face(factory):
    cfg = config()
    with Display(GpioBackend(cfg), cfg.servo) as display:
        display.show(s.cube(1))
        assert display.backend.confirmed(5.0)
    assert pulses_ms(factory.log, cfg) == [angle_ms(0), 0.0]


def test_an_unknown_cube_face_is_refused_before_anything_changes(factory):
    cfg = config()
    with Display(GpioBackend(cfg), cfg.servo) as display:
        with pytest.raises(ValueError, match="no cube face 3"):
            display.show(s.turn(WHITE) | s.cube(3))
        assert latched(factory.log, cfg) == [ALL_OFF]


def test_buttons_report_presses_and_long_confirm_is_menu(factory):
    cfg = config(buttons={"hold_s": 0.1})
    pressed = []
    with GpioBackend(cfg) as backend:
        backend.on_button(pressed.append)
        for name in ("double", "take", "pass", "undo", "confirm"):
            pin = factory.pin(cfg.buttons.pins[name])
            pin.drive_low()
            pin.drive_high()
        confirm = factory.pin(cfg.buttons.pins["confirm"])
        confirm.drive_low()
        deadline = time.monotonic() + 5
        while "menu" not in pressed and time.monotonic() < deadline:
            time.sleep(0.01)
        confirm.drive_high()
        assert factory.pin(cfg.buttons.pins["take"]).bounce == 0.05
    assert pressed == ["double", "take", "pass", "undo", "confirm", "menu"]


@pytest.mark.parametrize("error", [KeyboardInterrupt, RuntimeError])
def test_everything_is_off_after_ctrl_c_or_an_exception(factory, error):
    cfg = config(servo={"speed": 1e6})
    with pytest.raises(error):
        with Display(GpioBackend(cfg), cfg.servo) as display:
            display.show(s.turn(WHITE) | s.illegal_move([3, 9]) | s.cube(4))
            display.start()
            raise error
    assert latched(factory.log, cfg)[-1] == ALL_OFF
    assert pulses_ms(factory.log, cfg)[-1] == 0.0
    assert factory.pin(cfg.servo.pin).frequency is None
    assert all(factory.pin(p).function == "input" for p in (17, 27, 22, 18))


def test_open_backend_gpio_and_a_busy_pin(factory):
    cfg = config()
    with open_backend("gpio", cfg) as backend:
        backend.show(s.turn(BLACK).at(0))
        with pytest.raises(OSError, match="gpio: "):
            GpioBackend(cfg)  # the same pins again
    assert latched(factory.log, cfg) == [ALL_OFF, (29,), ALL_OFF]


def test_everything_is_off_when_a_program_dies_without_closing():
    script = """
import atexit
from hardware_helpers import latched, mock_factory, pulses_ms
from bgboard.hardware import signals as s
from bgboard.hardware.config import load_config
from bgboard.hardware.gpio_backend import GpioBackend
factory, cfg = mock_factory(), load_config()
atexit.register(lambda: print(latched(factory.log, cfg), pulses_ms(factory.log, cfg)))
backend = GpioBackend(cfg)
backend.show(s.turn("white").at(0))
backend.turn_cube(72)
backend.confirmed(0.1)
raise RuntimeError("boom")
"""
    tests = Path(__file__).parent
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60, env=dict(os.environ, PYTHONPATH=os.pathsep.join(
                              [str(tests), os.environ.get("PYTHONPATH", "")])))
    assert proc.returncode == 1 and "RuntimeError: boom" in proc.stderr
    assert proc.stdout == f"[(), (28,), ()] [{angle_ms(72)}, 0.0]\n"


def test_leds_play_on_gpio_latches_every_frame_and_turns_the_cube(factory, tmp_path):
    from bgboard.controller.cli import main

    lit = [(0,), (5, 24), (29,)]
    frames = [{"leds": [[9, 9, 9] if i in on else [0, 0, 0] for i in range(30)]} for on in lit]
    frames[-1]["cube"] = 16
    path = tmp_path / "frames.jsonl"
    path.write_text("".join(json.dumps(f) + "\n" for f in frames))
    assert main(["leds", "play", str(path), "--backend", "gpio"]) == 0
    cfg = config()
    assert latched(factory.log, cfg) == [ALL_OFF, *lit, ALL_OFF]
    assert pulses_ms(factory.log, cfg) == [angle_ms(144), 0.0]
