"""The pile counter's training rows: only tall rows, each at twice the pixels beside its
reference at the checker net's size."""

import numpy as np

from bgboard.benchmarks import train_piles as tp
from bgboard.vision.columns import HEIGHT, WIDTH
from bgboard.vision.piles import SCALE


def test_a_shard_keeps_the_tall_rows_of_its_frames_with_their_counts() -> None:
    seeds = range(tp.FIRST, tp.FIRST + 8)  # two looks: tall stacks, then random positions
    assert [tp.kind(s) for s in seeds[::4]] == [{"tall": True}, {}]
    rows = tp.shard_rows(seeds)
    expected = np.concatenate([c[np.abs(c) >= tp.LEAST] for c in
                               (tp.frame_view(s, tp.TRAINED, **tp.kind(s))[2] for s in seeds)])
    assert np.array_equal(rows["counts"], expected)
    assert np.abs(expected).max() >= 8  # the first look's tall stacks
    n = len(expected)
    assert rows["patches"].shape == (n, HEIGHT * SCALE, WIDTH * SCALE, 3)
    assert rows["refs"].shape == (n, HEIGHT, WIDTH, 3)


def test_real_rows_are_the_labelled_tall_rows_then_rows_with_real_checkers_pasted_on() -> None:
    import cv2

    from bgboard.benchmarks import pasted
    from bgboard.benchmarks.label_real_boards import PHOTOS, calibration, load_labels
    from bgboard.calibration.rectify import FieldView
    from bgboard.vision.columns import Columns

    entries = [e for e in load_labels() if e["fold"] == 0 and not e["partial"]]
    seen = [e for e in entries for _ in range(1 + len(e.get("copy_corners", {})))]  # copies
    labelled = np.concatenate([np.abs(e["points"]) for e in seen])
    plain = tp.real_rows({0}, cuts=1)
    assert list(plain["counts"]) == [c for e in seen for c in e["points"] if abs(c) >= 3]
    first = entries[0]
    tall = [i for i, c in enumerate(first["points"]) if abs(c) >= tp.LEAST]
    cut = Columns(FieldView(calibration(first)), SCALE).cut(
        cv2.imread(str(PHOTOS / "images" / first["copy"])), tall)
    assert np.array_equal(plain["patches"][:len(tall)], cut)

    both = tp.real_rows({0}, cuts=1, pasted=1)
    more = np.abs(both["counts"][len(plain["counts"]):])
    assert len(more) > (labelled >= tp.LEAST).sum()  # the labelled rows and pasted ones
    assert set(more) <= set(pasted.COUNTS) and more.max() >= 6
    assert both["patches"].shape[1:] == (HEIGHT * SCALE, WIDTH * SCALE, 3)
    assert both["refs"].shape == (len(both["counts"]), HEIGHT, WIDTH, 3)


def test_drawn_shards_keep_the_tall_rows_of_boards_drawn_at_random_beside_their_own() -> None:
    from bgboard.benchmarks.train_checkers import DRAWN, with_references

    seeds = range(760_000, 760_004)  # tall stacks, each frame a board of its own
    rows = tp.shard_rows(seeds, drawn=True)
    views = [tp.frame_view(s, (DRAWN,), **tp.kind(s)) for s in seeds]
    expected = np.concatenate([c[np.abs(c) >= tp.LEAST] for _, _, c in views])
    assert np.array_equal(rows["counts"], expected)
    first = views[0]
    tall = np.flatnonzero(np.abs(first[2]) >= tp.LEAST)
    small = tp.Columns(tp.FieldView(first[1])).cut(first[0])
    own = with_references(small[None])[tall][..., 3:]
    assert np.array_equal(rows["refs"][:len(tall)], own)  # beside its own board's, not another
