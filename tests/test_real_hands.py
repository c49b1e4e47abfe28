"""Hands over a real board (benchmarks/real_hands.py): a film made of a real photo whose frame
band is no one colour, read as a camera's frames are, arms drawn into some frames."""

import cv2
import pytest

from bgboard.benchmarks import real_hands

needs_photos = pytest.mark.skipif(not real_hands.PHOTOS.is_dir(),
                                  reason=f"no photos at {real_hands.PHOTOS}")


def _img_2602_film():
    entry = real_hands.load_labels()[0]
    assert entry["name"] == "IMG_2602_jpg"  # a hinge across the band, a tray beside it
    assert entry["fold"] == 0  # never seen by the installed hand net
    image = cv2.imread(str(real_hands.PHOTOS / "images" / entry["copy"]))
    frames = real_hands.film(image, entry["corners_px"], arms=3, seed=0)
    assert [arm for _, arm in frames] == [False] * 6 + [True, False] * 3
    return real_hands.calibration(entry), frames


@needs_photos
def test_the_hand_net_sees_a_real_board_alone_as_no_hand_and_the_drawn_arms():
    film, alone = real_hands.judged(*_img_2602_film())
    assert film == alone == [False] * 6 + [True, False] * 3


@needs_photos
def test_without_the_net_a_film_of_a_real_board_flags_its_arms_and_no_clear_frame():
    """The band judged alone, by a film's Reader and by a Reader a frame: with the corners
    at the walls' feet, the band around the field lies on the box's walls."""
    film, alone = real_hands.judged(*_img_2602_film(), net=None)
    assert film == [False] * 6 + [True, False] * 3
    # each frame alone: every arm seen, and the clear frames after the first two arms too
    assert alone == [False] * 6 + [True] * 5 + [False]


@needs_photos
def test_the_benchmark_prints_its_table(capsys):
    assert real_hands.main(["--fold", "0", "--arms", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("7 films (0 calibrated from the photo, the rest corners only), "
                          "42 first frames, then 7 clear frames and 7 with an arm\n")
    assert "| one Reader a film (play, record) | 10/42 | 0/7 | 6/7 |" in out
    assert "| each frame alone (a photo) | 12/42 | 2/7 | 7/7 |" in out
