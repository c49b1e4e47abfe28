"""The learned checker reader (Reader(cal, "net")): boards read from the corners alone, with
each point's likely readings."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from bgboard.calibration.file import from_dict
from bgboard.vision import column_reader
from bgboard.vision.column_reader import (
    at_most_fifteen,
    group_by_contrast,
    over_fifteen,
    pair_input,
    row_options,
    row_tables,
    softmax,
)
from bgboard.vision.columns import references
from bgboard.vision.read import Reader
from bgboard.vision.synthetic import START_POINTS, Scene, random_look, render
from cli_helpers import bgboard


def minimal(calibration: dict) -> dict:
    """Only what users give: version, image size, corners and geometry."""
    return {k: calibration[k] for k in ("version", "image_size", "corners_px", "geometry")}


def test_the_start_position_is_read_from_the_corners_alone() -> None:
    rendered = render(Scene(START_POINTS, look=random_look(np.random.default_rng(11))), 11)
    obs = Reader(from_dict(minimal(rendered.calibration)), "net").read(rendered.image)
    assert obs["points"] == list(START_POINTS)
    assert obs["bar"] == {"white": 0, "black": 0}
    options = obs["point_options"]
    assert len(options) == 24
    assert [row[0][0] for row in options] == list(START_POINTS)
    assert all(sum(p for _, p in row) <= 1.0 + 1e-6 for row in options)


def test_an_unknown_checker_reader_is_refused() -> None:
    rendered = render(Scene(START_POINTS), 0)
    with pytest.raises(ValueError, match="unknown checker reader 'shape'"):
        Reader(from_dict(rendered.calibration), "shape")


def test_bgboard_read_with_the_net_prints_point_options(tmp_path) -> None:
    rendered = render(Scene(START_POINTS, look=random_look(np.random.default_rng(12))), 12)
    photo, cal = tmp_path / "start.png", tmp_path / "cal.json"
    cv2.imwrite(str(photo), rendered.image)
    cal.write_text(json.dumps(minimal(rendered.calibration)))
    result = bgboard("read", str(photo), "--calibration", str(cal), "--checkers", "net", "--json")
    assert result.returncode == 0, result.stderr
    obs = json.loads(result.stdout)
    assert obs["points"] == list(START_POINTS)
    assert [row[0][0] for row in obs["point_options"]] == list(START_POINTS)


def test_rows_are_grouped_by_their_checkers_colours() -> None:
    cream, brown, board = (230.0, 128.0, 140.0), (90.0, 140.0, 150.0), (200.0, 128.0, 128.0)
    lab = np.array([cream, cream, brown, brown, cream, board], np.float32)
    dark = np.array([0.1, 0.6, 0.9, 0.8, 0.2, 0.5], np.float32)  # row 1 misjudged
    occupied = np.array([True, True, True, True, True, False])
    grouped = group_by_contrast(lab, dark, occupied)
    assert (grouped[:5] > 0.5).tolist() == [False, False, True, True, False]
    assert grouped[5] == 0.5  # an empty row keeps the net's judgement
    assert grouped[2] == pytest.approx(blended(0.5 + (0.85 - 0.3) / 2, 0.9))


def test_a_board_of_one_colour_keeps_the_nets_judgement() -> None:
    lab = np.array([(230.0, 128.0, 140.0), (226.0, 129.0, 138.0), (232.0, 127.0, 141.0)],
                   np.float32)
    dark = np.array([0.1, 0.7, 0.2], np.float32)
    assert group_by_contrast(lab, dark, np.ones(3, bool)).tolist() == dark.tolist()


def test_the_colours_learned_at_calibration_fix_which_group_is_white() -> None:
    cream, brown = (230.0, 128.0, 140.0), (90.0, 140.0, 150.0)
    lab = np.array([cream, cream, brown, brown], np.float32)
    dark = np.array([0.7, 0.9, 0.2, 0.1], np.float32)  # the net finds the cream set darker
    occupied = np.ones(4, bool)
    assert (group_by_contrast(lab, dark, occupied) > 0.5).tolist() == [True, True, False, False]
    sets = np.array([(225.0, 128.0, 138.0), (95.0, 141.0, 148.0)], np.float32)  # White cream
    grouped = group_by_contrast(lab, dark, occupied, sets)
    assert (grouped > 0.5).tolist() == [False, False, True, True]
    assert grouped[2] == pytest.approx(blended(0.95, 0.2))  # the learned colours are sure


def test_a_net_that_finds_every_row_dark_still_gives_two_groups() -> None:
    cream, brown = (230.0, 128.0, 140.0), (90.0, 140.0, 150.0)
    lab = np.array([cream, brown, cream, brown, brown], np.float32)
    dark = np.array([0.8, 0.9, 0.85, 0.95, 0.9], np.float32)
    occupied = np.ones(5, bool)
    grouped = group_by_contrast(lab, dark, occupied)  # the darker group is Black
    assert grouped.tolist() == pytest.approx(
        [blended(g, d) for g, d in zip([0.25, 0.75, 0.25, 0.75, 0.75], dark, strict=True)])
    sets = np.array([(95.0, 141.0, 148.0), (225.0, 128.0, 138.0)], np.float32)  # White brown
    grouped = group_by_contrast(lab, dark, occupied, sets)
    assert grouped.tolist() == pytest.approx(
        [blended(g, d) for g, d in zip([0.95, 0.05, 0.95, 0.05, 0.05], dark, strict=True)])


def test_with_the_sets_colours_known_two_groups_of_one_set_stay_that_set() -> None:
    # one set alone on the field, half of it in a shade: two clear colour groups, both White's
    lit, shaded = (241.0, 117.0, 186.0), (200.0, 121.0, 178.0)
    lab = np.array([lit, lit, shaded, shaded, shaded], np.float32)
    dark = np.array([0.2, 0.02, 0.08, 0.47, 0.69], np.float32)
    occupied = np.ones(5, bool)
    grouped = group_by_contrast(lab, dark, occupied)  # the darker group taken for Black
    assert (grouped > 0.5).tolist() == [False, False, True, True, True]
    sets = np.array([(220.0, 119.0, 182.0), (26.0, 124.0, 137.0)], np.float32)  # the start's
    grouped = group_by_contrast(lab, dark, occupied, sets)
    assert grouped.tolist() == pytest.approx([blended(0.05, d) for d in dark])


def test_both_sets_seen_darker_than_at_calibration_are_still_told_apart() -> None:
    # the lamp dimmed since calibration: White's rows now lie about as near Black's colour as
    # their own, so they are not taken for one set: the closer pairing decides
    white, black = (120.0, 128.0, 128.0), (15.0, 128.0, 128.0)
    lab = np.array([white, black, white, black], np.float32)
    dark = np.array([0.4, 0.6, 0.45, 0.55], np.float32)
    sets = np.array([(220.0, 128.0, 128.0), (26.0, 128.0, 128.0)], np.float32)
    grouped = group_by_contrast(lab, dark, np.ones(4, bool), sets)
    assert grouped.tolist() == pytest.approx(
        [blended(g, d) for g, d in zip([0.05, 0.95, 0.05, 0.95], dark, strict=True)])


def test_a_lone_false_dark_row_makes_no_group_of_its_own() -> None:
    # image016 as one net read it: the 1-, 17- and 19-points hold Black's checkers lit pale
    # (the 12-point's lit paler still), the 23-point is bare but read as one dark checker.
    # Started by the net's judgement the groups end as the 19- and 23-points against 27
    # checkers; started by lightness they hold 15 and 11, and that grouping is kept.
    lab = np.array([(143, 142, 151), (236, 129, 148), (234, 128, 151), (200, 137, 147),
                    (224, 131, 150), (145, 143, 153), (138, 140, 153), (30, 136, 132),
                    (206, 135, 150)], np.float32)  # points 1, 6, 8, 12, 13, 17, 19, 23, 24
    dark = np.array([0.79, 0.01, 0.0, 0.33, 0.0, 0.04, 0.47, 0.67, 0.0], np.float32)
    counts = np.array([2, 5, 3, 5, 5, 3, 5, 1, 2])
    occupied = np.ones(9, bool)
    by_net = [False] * 6 + [True, True, False]
    assert (group_by_contrast(lab, dark, occupied) > 0.5).tolist() == by_net
    grouped = group_by_contrast(lab, dark, occupied, counts=counts)
    black = [True, False, False, False, False, True, True, True, False]
    assert (grouped > 0.5).tolist() == black
    apart = float(dark[black].mean() - dark[~np.array(black)].mean())
    assert grouped[5] == pytest.approx(blended(0.5 + apart / 2, 0.04))


def test_a_set_over_fifteen_gives_up_the_row_the_net_doubts_of_rows_grouped_alike() -> None:
    # image036: White's 6-point cream, Black's 19-point pale mauve taken into White's group;
    # both rows of five equally sure by their group, the net's own judgement breaks the tie
    cream, mauve, brown = (236.0, 129.0, 142.0), (180.0, 136.0, 132.0), (80.0, 141.0, 136.0)
    lab = np.array([cream, cream, cream, mauve, brown, brown, brown], np.float32)
    dark = np.array([0.0, 0.0, 0.0, 0.24, 1.0, 1.0, 0.4], np.float32)
    grouped = group_by_contrast(lab, dark, np.ones(7, bool))
    assert grouped[3] > grouped[0] and (grouped[:4] < 0.5).all()
    counts = np.zeros((7, 16), np.float32)
    counts[np.arange(7), [5, 5, 5, 5, 5, 3, 2]] = 1.0  # 20 light read, 10 dark
    table = row_tables(counts, grouped)
    assert over_fifteen(table)
    assert at_most_fifteen(table)[1] == [5, 5, 5, -5, -5, -3, -2]


def blended(group: float, own: float) -> float:
    """A row's dark probability from its group's and, a thousandth, the net's own."""
    return (1 - column_reader.OWN_SAY) * group + column_reader.OWN_SAY * own


class CountingNet:
    """The real net, counting the patches it is given."""

    def __init__(self, net) -> None:
        self.net, self.patches = net, []

    def setInput(self, blob) -> None:  # noqa: N802 (OpenCV's name)
        self.patches.append(len(blob))
        self.net.setInput(blob)

    def forward(self, names):
        return self.net.forward(names)


def test_a_still_board_is_not_read_again_and_a_moved_checker_is() -> None:
    look = random_look(np.random.default_rng(11))
    start = render(Scene(START_POINTS, look=look), 11)
    moved = list(START_POINTS)
    moved[5], moved[4] = 4, 1  # one checker from the 6-point to the 5-point
    after = render(Scene(tuple(moved), look=look), 11)
    reader = Reader(from_dict(minimal(start.calibration)))
    counting = reader.columns.net = CountingNet(reader.columns.net)
    first, again = reader.read(start.image), reader.read(start.image)
    assert again == first
    read = reader.read(after.image)
    # all 26 rows, the 2 points it was less than OWN_ROW sure of again beside their own row's
    # bare points, then none, then the 4-, 5- and 6-point (a patch shows some of its
    # neighbours' width, for checkers off the middle), the low bar half (the checkers' shadows
    # reach it) and the high one, whose bare reference is the low one
    assert counting.patches == [26, 2, 5]
    assert read["points"] == moved
    fresh = Reader(from_dict(minimal(start.calibration))).read(after.image)
    assert (read["points"], read["bar"]) == (fresh["points"], fresh["bar"])
    for kept, new in zip(read["point_options"], fresh["point_options"], strict=True):
        # rows kept from the first frame saw bare references a few levels off the new ones
        assert kept[0][0] == new[0][0] and abs(kept[0][1] - new[0][1]) < 0.01


def in_a_walls_shade(rendered, band: float = 0.08, factor: float = 0.45) -> np.ndarray:
    """The rendered frame with the far row's bases (points 13-24) shaded as a box's far wall
    shades them: the field's first `band` of its height from that edge at `factor` light."""
    corners = rendered.calibration["corners_px"]
    far_first = np.float32([corners[k] for k in ("p13", "p24", "p1", "p12")])
    unit = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
    to_image = cv2.getPerspectiveTransform(unit, far_first) @ np.diag([0.01, 0.01, 1])
    shade = np.zeros((100, 100), np.float32)
    shade[:round(100 * band)] = 1 - factor
    h, w = rendered.image.shape[:2]
    light = 1 - cv2.warpPerspective(shade, to_image, (w, h))[..., None]
    return (rendered.image * light).astype(np.uint8)


def test_a_row_in_a_walls_shade_is_read_beside_its_own_bare_points(monkeypatch) -> None:
    rendered = render(Scene(START_POINTS, look=random_look(np.random.default_rng(25))), 25)
    image = in_a_walls_shade(rendered)
    reader = Reader(from_dict(minimal(rendered.calibration)))
    counting = reader.columns.net = CountingNet(reader.columns.net)
    assert reader.read(image)["points"] == list(START_POINTS)
    # 26 rows beside the frame's references, the 2 it was unsure of mirrored, then the 6 it
    # was less than OWN_ROW sure of beside their own row's bare points
    assert counting.patches == [26, 2, 6]
    monkeypatch.setattr(column_reader, "OWN_ROW", 0.0)  # the frame's references alone
    pooled = Reader(from_dict(minimal(rendered.calibration))).read(image)["points"]
    wrong = [i + 1 for i, (a, b) in enumerate(zip(pooled, START_POINTS, strict=True)) if a != b]
    assert wrong == [1, 12, 13, 24] and [pooled[i - 1] for i in wrong] == [2, 5, -5, -2]


def test_a_row_along_the_pictures_edge_has_every_point_read_beside_its_own_row() -> None:
    """A frame cut off 6 px below the lowest of the near row's bases (the board turned a
    little): the 1- and 2-point, on the picture's edge, are cut from further out (the picture
    mirrored beyond it), the others as always, so the frame's references mix two cuts and
    every point is read again beside its own row's bare points."""
    rendered = render(Scene(START_POINTS, look=random_look(np.random.default_rng(15))), 15)
    cal = minimal(rendered.calibration)
    corners = cal["corners_px"]
    height = round(max(corners["p1"][1], corners["p12"][1])) + 6
    image = np.ascontiguousarray(rendered.image[:height])
    reader = Reader(from_dict({**cal, "image_size": [image.shape[1], height]}))
    assert reader.columns.columns.outside.tolist() == [True] * 2 + [False] * 24
    counting = reader.columns.net = CountingNet(reader.columns.net)
    assert reader.read(image)["points"] == list(START_POINTS)
    assert counting.patches == [26, 24]  # every point again, the sure ones too
    whole = Reader(from_dict(cal))  # the same board framed with room: only the unsure points
    counting = whole.columns.net = CountingNet(whole.columns.net)
    assert whole.read(rendered.image)["points"] == list(START_POINTS)
    assert counting.patches[0] == 26 and all(n < 24 for n in counting.patches[1:])


def test_rows_the_net_is_unsure_of_are_read_again_mirrored_and_averaged(monkeypatch) -> None:
    monkeypatch.setattr(column_reader, "SECOND_LOOK", 0.995)  # the few rows read 0.93-0.99
    rendered = render(Scene(START_POINTS, look=random_look(np.random.default_rng(11))), 11)
    reader = Reader(from_dict(minimal(rendered.calibration)))
    columns = reader.columns
    patches = columns.columns.cut(rendered.image)
    x = pair_input(patches, references(patches))
    columns.net.setInput(x)
    alone = [a.copy() for a in columns.net.forward(["count", "colour"])]
    unsure = softmax(alone[0]).max(1) < column_reader.SECOND_LOOK
    assert 2 <= unsure.sum() < 26
    # the unsure rows as a mirror shows them, each patch and its reference flipped alike
    flipped = pair_input(patches[unsure, :, ::-1], references(patches)[unsure, :, ::-1])
    columns.net.setInput(flipped)
    mirrored = [a.copy() for a in columns.net.forward(["count", "colour"])]
    counting = columns.net = CountingNet(columns.net)
    count, colour = columns.logits(x)
    assert counting.patches == [26, unsure.sum()]
    assert np.array_equal(count[~unsure], alone[0][~unsure])  # sure rows: the net's own
    assert np.array_equal(colour[~unsure], alone[1][~unsure])
    assert np.allclose(count[unsure], (alone[0][unsure] + mirrored[0]) / 2, atol=1e-5)
    assert np.allclose(colour[unsure], (alone[1][unsure] + mirrored[1]) / 2, atol=1e-5)
    assert not np.allclose(mirrored[0], alone[0][unsure], atol=1e-3)  # a second look indeed


def sixteen_dark_rows(unsure: float):
    """26 rows: 15 sure of one dark checker, one that thinks so with `unsure`, the rest bare."""
    counts = np.zeros((26, 16), np.float32)
    counts[:, 0] = 1.0
    counts[:15, 0], counts[:15, 1] = 0.0, 1.0
    counts[15, 0], counts[15, 1] = 1 - unsure, unsure
    dark = np.ones(26, np.float32)
    return counts, dark


def test_a_board_never_reads_more_than_fifteen_checkers_of_a_set() -> None:
    table = row_tables(*sixteen_dark_rows(0.75))
    assert over_fifteen(table)
    fitted, board = at_most_fifteen(table)
    assert board == [-1] * 15 + [0] * 11
    assert row_options(fitted[14:17], board[14:17]) == [
        [[-1, 0.648], [0, 0.259], [1, 0.051]],
        [[0, 0.6], [-1, 0.24], [1, 0.12]],
        [[0, 0.774], [1, 0.154], [2, 0.03]]]
    fitted, board = at_most_fifteen(row_tables(*sixteen_dark_rows(1.0)))
    assert board == [-1] * 15 + [0] * 11  # all as sure: the last of them drops
    assert row_options(fitted[14:16], board[14:16]) == [
        [[-1, 0.436], [0, 0.436], [1, 0.087]], [[0, 0.436], [-1, 0.436], [1, 0.087]]]


def test_a_board_one_over_drops_the_likeliest_checker_not_a_pile() -> None:
    """Sixteen light checkers: a pile of five the net gives 0.1 of being bare, and a pile of
    three it gives 0.05 of holding two. Read as the rows alone say, dropping the pile of five
    is likelier (0.1 against 0.05), but a net is seldom wrong by a whole pile it sees: the
    board reads the three as two."""
    counts = np.zeros((26, 16), np.float32)
    counts[:, 0] = 1.0
    counts[0, [0, 5]] = 0.1, 0.9
    counts[1, [0, 5]] = 0.0, 1.0
    counts[2, [0, 3]] = 0.0, 1.0
    counts[3, [0, 2, 3]] = 0.05, 0.05, 0.9
    assert at_most_fifteen(row_tables(counts, np.zeros(26, np.float32)))[1] == \
        [5, 5, 3, 2] + [0] * 22


def test_a_board_within_fifteen_keeps_each_rows_reading() -> None:
    table = row_tables(*sixteen_dark_rows(0.25))
    assert not over_fifteen(table)
    assert row_options(table[15:16])[0][:2] == [[0, 0.75], [-1, 0.25]]
