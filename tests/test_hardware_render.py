"""The sim backend's pictures: the terminal board and the diagram with the LEDs on it."""

import cv2

from bgboard.controller.cli import main
from bgboard.engine.board import WHITE
from bgboard.hardware import signals as s
from bgboard.hardware.config import load_config
from bgboard.hardware.render import led_centres, led_image, led_text
from bgboard.hardware.sheet import PANEL, situations
from bgboard.hardware.sim_backend import SimBackend

OFF = (0, 0, 0)


def test_terminal_board_puts_each_led_in_its_place():
    leds = [OFF] * 30
    leds[0] = (255, 0, 0)  # point 1: bottom right
    leds[12] = (0, 255, 0)  # point 13: top left
    leds[24] = (1, 2, 3)  # bar white: top row, between 18 and 19
    leds[29] = (0, 0, 255)  # to-play black: top row, last
    dot = "\u25cf"
    assert led_text(leds, "2 (36\u00b0)").splitlines() == [
        "13 14 15 16 17 18  B 19 20 21 22 23 24  T  P",
        f" \x1b[38;2;0;255;0m{dot}\x1b[0m" + "  \u00b7" * 5 + f"  \x1b[38;2;1;2;3m{dot}\x1b[0m"
        + "  \u00b7" * 7 + f"  \x1b[38;2;0;0;255m{dot}\x1b[0m",
        " \u00b7" + "  \u00b7" * 11 + f"  \x1b[38;2;255;0;0m{dot}\x1b[0m" + "  \u00b7" * 2,
        "12 11 10  9  8  7  B  6  5  4  3  2  1  T  P  cube 2 (36\u00b0)",
    ]


def test_diagram_shows_every_led_in_its_colour_where_it_sits():
    leds = [((7 * i) % 256, 200, (255 - 5 * i) % 256) for i in range(30)]
    img = led_image(leds, width=960, height=600)
    centres = led_centres(960, 600)
    assert len(set(centres)) == 30
    for (x, y), (r, g, b) in zip(centres, leds, strict=True):
        assert tuple(int(v) for v in img[y, x]) == (b, g, r)


def test_sim_backend_keeps_state_and_draws_the_cube_face():
    cfg = load_config()
    sim = SimBackend(servo=cfg.servo)
    sim.show(s.turn(WHITE).at(0))
    sim.turn_cube(72)
    assert (sim.leds[28], sim.angle, sim.face) == ((255, 255, 255), 72, 4)
    x, y = led_centres(480, 300)[28]
    assert tuple(sim.image(width=480, height=300)[y, x]) == (255, 255, 255)
    sim.close()
    assert sim.leds == [OFF] * 30 and sim.closed


def test_leds_picture_draws_every_meaning(tmp_path):
    out = tmp_path / "meanings.png"
    assert main(["leds", "picture", str(out)]) == 0
    img = cv2.imread(str(out))
    w, h = PANEL
    rows = (len(situations()) + 1) // 2
    assert img.shape[1] == 2 * w and img.shape[0] % rows == 0
    panel_h = img.shape[0] // rows
    x, y = led_centres(w, h)[23]  # point 24 in the "illegal move 24/20" panel (row 1, col 1)
    titles = [title for title, *_ in situations()]
    k = titles.index("Illegal move 24/20 on a 3-1")
    assert tuple(img[(k // 2) * panel_h + y, (k % 2) * w + x]) == (0, 0, 255)
    assert main(["leds", "picture", str(tmp_path / "m.jpg")]) == 2
