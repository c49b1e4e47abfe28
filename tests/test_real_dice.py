"""The real dice labels (benchmarks/data/real_dice.json) hold together with the photos' own
boxes, and the dice yardstick matches reads to labelled dice and scores as it says."""

from pathlib import Path

import pytest

from bgboard.benchmarks import real_dice

ROOT = Path(__file__).resolve().parents[1]

PHOTOS = ROOT.parent / "shared" / "data" / "real-boards"
LABELLED = real_dice.load()
needs_photos = pytest.mark.skipif(not PHOTOS.is_dir(), reason=f"no photos at {PHOTOS}")


def test_labels_cover_75_boxes_of_27_photos_34_with_a_value_6_cubes():
    dice = [d for p in LABELLED for d in p["dice"]]
    assert len(LABELLED) == 27 and len(dice) == 75
    assert sum(d["value"] is not None for d in dice) == 34
    assert sum(d["kind"] == "cube" for d in dice) == 6
    assert all(d["value"] is None for d in dice if d["kind"] == "cube")
    assert {d["value"] for d in dice} == {None, 1, 2, 3, 4, 5, 6}


@needs_photos
def test_every_dice_box_of_the_chosen_copies_is_labelled_once():
    for photo in LABELLED:
        lines = (PHOTOS / "labels" / (Path(photo["copy"]).stem + ".txt")).read_text().split("\n")
        boxes = [[float(v) * 640 for v in line.split()[1:]] for line in lines
                 if line.split()[:1] == ["3"]]
        assert [[round(x), round(y)] for x, y, _, _ in boxes] == [d["xy"] for d in photo["dice"]]
        assert [[round(w), round(h)] for _, _, w, h in boxes] == [d["size"] for d in photo["dice"]]


BOXES = [{"xy": [100, 100], "size": [20, 20]}, {"xy": [115, 100], "size": [20, 20]}]


def test_a_read_belongs_to_the_box_holding_it_the_nearest_when_boxes_overlap():
    assert real_dice.owner(BOXES, (92, 95)) == 0
    assert real_dice.owner(BOXES, (109, 100)) == 1
    assert real_dice.owner(BOXES, (130, 100)) is None


def test_matching_keeps_the_first_read_of_a_die_and_counts_reads_on_nothing_as_false():
    reads = [((101, 99), 4), ((99, 102), 6), ((300, 300), 2), ((10, 10), 1)]
    assert real_dice.matched(BOXES, reads) == ([4, None], 2)


def test_tally_scores_each_kind_of_label_apart():
    photo = {"dice": [{"kind": "die", "value": 3, "scored": {"field": True}},
                      {"kind": "die", "value": 5, "scored": {"field": True}},
                      {"kind": "die", "value": None, "scored": {"field": True}},
                      {"kind": "cube", "value": None, "scored": {"field": True}},
                      {"kind": "die", "value": 2, "scored": {"field": False}}],
             "field": [3, 6, None, 4, 2], "field_false": 2}
    assert real_dice.tally([photo], "field") == {
        "dice": 2, "found": 2, "right": 1, "unlabelled": 1, "unlabelled_found": 0,
        "cubes": 1, "cubes_read": 1, "false": 2, "read": 6}


def test_a_bad_option_is_one_line_and_exit_2(capsys):
    with pytest.raises(SystemExit) as exc:
        real_dice.main(["--fold", "7"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--fold" in err


def test_nets_from_a_folder_without_them_is_one_line_and_exit_2(tmp_path, capsys):
    with pytest.raises(SystemExit) as exc:
        real_dice.main(["--nets", str(tmp_path)])
    assert exc.value.code == 2
    assert capsys.readouterr().err == (f"real_dice.py: error: --nets: {tmp_path} lacks "
                                       "field_find.onnx or field_read.onnx (see --help)\n")


@needs_photos
def test_the_shipped_nets_given_as_a_folder_read_as_the_shipped_ones(capsys):
    assert real_dice.main(["--fold", "2"]) == 0
    shipped = capsys.readouterr().out
    assert real_dice.main(["--fold", "2", "--nets", str(ROOT / "vision" / "models")]) == 0
    assert capsys.readouterr().out == shipped
    assert "| field dice (`read`, corners given; dice on the field) |" in shipped


def test_cv_needs_nets_for_each_fold_read(tmp_path, capsys):
    with pytest.raises(SystemExit) as exc:
        real_dice.main(["--fold", "3", "--cv", str(tmp_path)])
    assert exc.value.code == 2
    assert capsys.readouterr().err == (f"real_dice.py: error: --cv: {tmp_path / '3'} lacks "
                                       "field_find.onnx or field_read.onnx (see --help)\n")


@needs_photos
def test_cv_reads_each_fold_with_its_own_nets(tmp_path, capsys):
    models = ROOT / "vision" / "models"
    for fold in ("1", "2"):
        (tmp_path / fold).mkdir()
        for name in ("field_find.onnx", "field_read.onnx"):
            (tmp_path / fold / name).write_bytes((models / name).read_bytes())
    assert real_dice.main(["--fold", "1", "--fold", "2"]) == 0
    shipped = capsys.readouterr().out
    assert real_dice.main(["--fold", "1", "--fold", "2", "--cv", str(tmp_path)]) == 0
    assert capsys.readouterr().out == shipped
