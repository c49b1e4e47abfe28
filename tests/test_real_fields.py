"""The field-finding yardstick: a found field's corner error in point widths, whatever the
corners' naming, and the script's refusals."""

import numpy as np
import pytest

from bgboard.benchmarks import real_fields
from bgboard.vision.corners import labellings
from bgboard.vision.field_finder import Field

ENTRY = {"name": "square", "fold": 0, "copy": "-", "image_size": [640, 640],
         "corners_px": {"p1": [600, 500], "p12": [40, 500], "p13": [40, 100],
                        "p24": [600, 100]},
         "geometry": {"bar_width": 0.04, "point_depth": 0.4}}
POINT = 560 * 0.96 / 12  # the field's width times the share of one point column: 44.8 px


def test_the_labelled_corners_found_in_any_naming_are_no_error():
    turned = np.array([[40, 100], [600, 100], [600, 500], [40, 500]])
    assert real_fields.corner_error(labellings(turned), ENTRY) == 0.0


def test_the_error_is_the_farthest_corner_in_point_widths():
    found = np.array([[600, 500], [40, 500], [40, 100], [600 + 0.5 * POINT, 100]])
    assert real_fields.corner_error(labellings(found), ENTRY) == pytest.approx(0.5)
    moved = found + [[3, 4], [0, 0], [0, 0], [0, 0]]  # one more corner off, by 5 px
    assert real_fields.corner_error(labellings(moved[[2, 3, 0, 1]]), ENTRY) == pytest.approx(0.5)


def test_a_naming_the_bar_rules_out_does_not_count():
    wrong_bar = Field(np.array([[40.0, 100], [600, 100], [600, 500], [40, 500]]), (1, 3), 1.0)
    # every naming it allows turns the field a quarter: a corner lands a field's width away
    assert real_fields.corner_error(wrong_bar.namings(), ENTRY) == pytest.approx(560 / POINT)


def test_the_table_counts_found_and_right_by_fold():
    results = [{"fold": 0, "error": None}, {"fold": 0, "error": 0.2}, {"fold": 0, "error": 0.9}]
    assert real_fields.row("0", results) == "| 0 | 3 | 2 | 33.3% (1/3) | 0.55 |"


def test_a_missing_net_is_one_line_and_exit_2(tmp_path, capsys):
    with pytest.raises(SystemExit) as exc:
        real_fields.main(["--finder", "net", "--net", str(tmp_path / "none.onnx")])
    assert exc.value.code == 2
    assert capsys.readouterr().err == f"real_fields.py: model {tmp_path / 'none.onnx'} is missing\n"


def test_a_missing_refiner_twin_is_one_line_and_exit_2(tmp_path, capsys):
    (tmp_path / "r0.onnx").write_bytes(b"")
    with pytest.raises(SystemExit) as exc:
        real_fields.main(["--finder", "net", "--refiner", str(tmp_path / "r{fold}.onnx")])
    assert exc.value.code == 2
    assert capsys.readouterr().err == f"real_fields.py: no refiner {tmp_path / 'r1.onnx'}\n"


def test_a_bad_option_is_one_line_and_exit_2(capsys):
    with pytest.raises(SystemExit) as exc:
        real_fields.main(["--fold", "1"])
    assert exc.value.code == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_renders_of_the_held_out_looks_are_measured_alike():
    from bgboard.vision import field_finder

    results = real_fields.measure_renders(4, "classic", field_finder.MODEL)
    assert [(r["name"], r["fold"]) for r in results] == [
        ("700000", "logo"), ("700001", "marble"), ("700002", "logo"), ("700003", "marble")]
    assert [r["error"] is None for r in results] == [True, True, True, False]
    assert results[3]["error"] == pytest.approx(0.111, abs=0.001)


def test_renders_with_walls_are_the_same_boards_as_boxes():
    from bgboard.vision import field_finder

    results = real_fields.measure_renders(4, "classic", field_finder.MODEL, walls=True)
    assert [(r["name"], r["fold"]) for r in results] == [
        ("700000", "logo"), ("700001", "marble"), ("700002", "logo"), ("700003", "marble")]
    assert [r["error"] is None for r in results] == [True, True, True, False]
    assert results[3]["error"] == pytest.approx(0.228, abs=0.001)  # 0.111 without walls


@pytest.mark.skipif(not real_fields.PHOTOS.is_dir(), reason="no real photos")
def test_calibrate_on_the_real_start_photos_is_measured_in_its_own_naming():
    entries = [e for e in real_fields.load_labels() if not e["partial"]]
    results = real_fields.calibrate_starts(entries)
    assert len(results) == 20
    errors = [r["error"] for r in results if r["error"] is not None]
    # image032 is found and named, its corners 0.41 points off: not right (calibrate says
    # which start points it reads wrong through them); IMG_2602 right since its labelled
    # corners were put at the walls' feet
    assert (len(errors), sum(e <= real_fields.RIGHT for e in errors)) == (20, 17)


def test_renders_with_trays_are_the_same_boards_with_trays_beside_them():
    from bgboard.vision import field_finder

    results = real_fields.measure_renders(4, "net", field_finder.MODEL, trays=True)
    assert [(r["name"], r["fold"]) for r in results] == [
        ("700000", "logo"), ("700001", "marble"), ("700002", "logo"), ("700003", "marble")]
    # trays on both sides of the first three, none on the fourth (train_field_corners.trayed)
    assert [r["error"] for r in results] == pytest.approx([0.547, 0.261, 0.177, 0.500],
                                                          abs=0.001)


def test_low_box_renders_are_the_same_boards_with_tall_walls_and_standing_checkers():
    from bgboard.vision import field_finder

    results = real_fields.measure_renders(4, "net", field_finder.MODEL, walls=True, low=True)
    assert [(r["name"], r["fold"]) for r in results] == [
        ("700000", "logo"), ("700001", "marble"), ("700002", "logo"), ("700003", "marble")]
    # the finder alone: 0.372, 0.380, 0.195 and 0.406 points off on the boxes seen from above;
    # 0.453, 0.728, 0.186 and 0.396 seen from low with the checkers drawn flat
    assert [r["error"] for r in results] == pytest.approx([1.150, 0.977, 0.193, 0.634],
                                                          abs=0.001)


def test_agree_is_half_the_least_second_look_of_a_wrong_photo_the_start_does_not_vouch_for():
    from bgboard.controller.corners_sure import Evidence

    def photo(fold, error, look, start=False):
        return {"fold": fold, "error": error, "evidence": Evidence(look, start, True)}

    results = [photo(0, 0.5, 0.2), photo(1, 0.4, 0.1), photo(1, 0.9, 0.05, start=True),
               photo(2, 0.1, 0.01), {"fold": 2, "error": None, "evidence": None}]
    assert real_fields.agree_without(results) == pytest.approx(0.05)
    assert real_fields.agree_without(results, 1) == pytest.approx(0.1)
    assert real_fields.agree_without(results, 0) == pytest.approx(0.05)
    # fold 1 doubted with AGREE 0.1: its start photo is sure though 0.9 points off
    assert real_fields.sure_row("1", results[1:3], 0.1) == "| 1 | 2 | 0.100 | 2 | 2 | 0 |"
    assert real_fields.sure_row("2", results[3:], 0.05) == "| 2 | 2 | 0.050 | 1 | 0 | 1 |"


def test_sure_weighs_the_corners_bgboard_read_finds_in_a_render():
    from bgboard.controller.corners_sure import Evidence

    results = [(entry["name"], real_fields.sure(image, entry))
               for _, image, entry in real_fields.held_out_renders(2)]
    assert [name for name, _ in results] == ["700000", "700001"]
    assert [r["error"] for _, r in results] == pytest.approx([0.046, 0.058], abs=0.001)
    assert [r["evidence"] for _, r in results] == [
        Evidence(pytest.approx(0.0326, abs=1e-4), False, True),
        Evidence(pytest.approx(0.0214, abs=1e-4), False, True)]
    assert all(r["evidence"].sure() for _, r in results)
