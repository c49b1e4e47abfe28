"""The webcam dice yardstick (benchmarks/webcam_dice.py): the fixed split, the mended labels,
the die sizes it reads at, and the figures it prints."""

import pytest

from bgboard.benchmarks import webcam_dice as wd

needs_photos = pytest.mark.skipif(not wd.FOLDER.is_dir(), reason=f"no photos at {wd.FOLDER}")


@needs_photos
def test_the_split_is_the_source_repositorys_and_the_mended_label_counts():
    dice = wd.load()
    assert len(dice) == 1206
    assert sum(wd.split_of(d.photo) == "train" for d in dice) == 951
    [mended] = [d for d in dice if (d.photo, d.index) == ("valid_valid_56", 2)]
    assert mended.value == 1
    assert [d.value for d in wd.load(fixes=wd.FOLDER / "none.json")
            if (d.photo, d.index) == ("valid_valid_56", 2)] == [4]


@needs_photos
def test_a_die_is_read_at_its_face_and_a_pip_only_box_at_the_photos_other_dice():
    by_place = {(d.photo, d.index): d for d in wd.load()}
    four = by_place[("valid_valid_56", 0)]   # box 0.076563 x 0.114583 of 640 x 480
    assert four.side == pytest.approx(wd.FACE * (0.076563 * 640 * 0.114583 * 480) ** 0.5)
    one = by_place[("valid_valid_56", 2)]    # its box 13 x 9 px holds the pip only
    others = sorted(by_place[("valid_valid_56", i)].side for i in (0, 1, 3))
    assert one.side == pytest.approx(others[1])


def test_the_report_counts_right_wrong_and_not_read_per_split(capsys):
    dice = [wd.Die("train_dice_1", 0, 0, 0, 40, 3), wd.Die("train_dice_1", 1, 0, 0, 40, 5),
            wd.Die("valid_valid_1", 0, 0, 0, 40, 1), wd.Die("valid_valid_2", 0, 0, 0, 40, 6)]
    wd.report(dice, [3, None, 2, 6], listing=True)
    assert capsys.readouterr().out.splitlines() == [
        " split  photos  dice  right  wrong  not read",
        " train       1     2      1      0         1   50.0% right",
        " valid       2     2      1      1         0   50.0% right",
        "train_dice_1:1 labelled 5, read - (side 40 px)",
        "valid_valid_1:0 labelled 1, read 2 (side 40 px)",
    ]
