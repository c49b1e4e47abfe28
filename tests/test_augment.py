"""The training scripts' degradations (benchmarks/augment.py): a real die photographed from
above, cut as a die appears in a rectified board frame; a picture under a lamp."""

import cv2
import numpy as np

from bgboard.benchmarks.augment import as_in_frame, lamp, lit

SIDE = 60  # the die's side in the photo, pixels
SIZE, SPAN = 36, 2.0  # the field-dice reader's patch: 36 pixels, two die sides across


def die_photo() -> np.ndarray:
    """A white die with one black pip, 60 px a side, at (200, 150) on a grey table."""
    photo = np.full((300, 400, 3), 90, np.uint8)
    cv2.rectangle(photo, (170, 120), (229, 179), (255, 255, 255), -1)
    cv2.circle(photo, (200, 150), 8, (0, 0, 0), -1)
    return photo


def test_the_die_keeps_its_size_and_place_in_the_patch_whatever_the_draw():
    photo = die_photo()
    rng = np.random.default_rng(3)
    side = SIZE / SPAN  # a die's side in the patch, pixels
    for _ in range(40):
        patch = as_in_frame(photo, 200, 150, SIDE, rng, SIZE, SPAN)
        assert patch.shape == (SIZE, SIZE, 3) and patch.dtype == np.uint8
        bright = patch.mean(-1) > 170
        ys, xs = np.nonzero(bright)
        # the die's face (less its pip) covers about side^2, softened
        assert 0.45 * side ** 2 < bright.sum() < 1.3 * side ** 2
        # its middle within half a side of the patch's middle (turned about it, seen with
        # fewer pixels one way than the other), and its pip dark there
        assert np.hypot(xs.mean() - SIZE / 2, ys.mean() - SIZE / 2) < side / 2
        y, x = round(ys.mean()), round(xs.mean())
        assert patch[y - 1:y + 2, x - 1:x + 2].mean() < 150


def test_the_same_draws_make_the_same_patch():
    photo = die_photo()
    one = as_in_frame(photo, 200, 150, SIDE, np.random.default_rng(7), SIZE, SPAN)
    two = as_in_frame(photo, 200, 150, SIDE, np.random.default_rng(7), SIZE, SPAN)
    other = as_in_frame(photo, 200, 150, SIDE, np.random.default_rng(8), SIZE, SPAN)
    assert np.array_equal(one, two)
    assert not np.array_equal(one, other)


def test_a_lamp_brightens_evenly_from_one_side_to_the_other_and_washes_whites_out():
    grey = np.full((2, 4, 3), 100, np.uint8)
    assert lamp(grey, 1.2, 1.5)[0, :, 0].tolist() == [120, 130, 140, 150]
    assert lamp(grey, 1.2, 1.5, np.pi / 2)[:, 0, 0].tolist() == [120, 150]  # top to bottom
    assert lamp(grey, 1.2, 1.5, np.pi)[0, :, 0].tolist() == [150, 140, 130, 120]
    white = np.full((2, 4, 3), 200, np.uint8)
    assert lamp(white, 1.2, 1.5)[0, :, 0].tolist() == [240, 255, 255, 255]


def test_a_lamp_drawn_at_random_lights_every_pixel_within_its_ranges():
    grey = np.full((20, 20, 3), 100, np.uint8)
    rng = np.random.default_rng(5)
    for _ in range(30):
        out = lit(grey, rng).astype(int)
        assert 100 <= out.min() <= 130 and 120 <= out.max() <= 160
    one, other = (lit(grey, np.random.default_rng(seed)) for seed in (1, 2))
    assert not np.array_equal(one, other)
