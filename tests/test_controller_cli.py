"""`bgboard record` refuses bad input with one line and exit code 2."""

from __future__ import annotations

from cli_helpers import bgboard


def test_record_a_missing_video(tmp_path, cal):
    run = bgboard("record", str(tmp_path / "none.mp4"), "--calibration", str(cal),
                  "--out", str(tmp_path / "x.mat"))
    assert (run.returncode, run.stderr) == (
        2, f"bgboard record: error: {tmp_path}/none.mp4 does not exist\n")


def test_record_a_file_that_is_not_a_video(tmp_path, cal):
    junk = tmp_path / "junk.mp4"
    junk.write_bytes(b"not a video at all")
    run = bgboard("record", str(junk), "--calibration", str(cal), "--out",
                  str(tmp_path / "x.mat"))
    assert (run.returncode, run.stderr) == (
        2, f"bgboard record: error: cannot open video source '{junk}'\n")
    assert not (tmp_path / "x.mat").exists()


def test_record_an_empty_folder(tmp_path, cal):
    (tmp_path / "frames").mkdir()
    run = bgboard("record", str(tmp_path / "frames"), "--calibration", str(cal), "--out",
                  str(tmp_path / "x.mat"))
    assert (run.returncode, run.stderr) == (
        2, f"bgboard record: error: {tmp_path}/frames: no image files\n")


def test_record_a_bad_calibration(tmp_path):
    bad = tmp_path / "cal.json"
    bad.write_text('{"version": 1}')
    run = bgboard("record", str(tmp_path), "--calibration", str(bad), "--out",
                  str(tmp_path / "x.mat"))
    assert run.returncode == 2
    assert run.stderr.startswith("bgboard record: error: ") and run.stderr.count("\n") == 1


def test_record_a_bad_events_file(tmp_path, cal):
    import cv2
    import numpy as np

    (tmp_path / "frames").mkdir()
    cv2.imwrite(str(tmp_path / "frames" / "a.png"), np.zeros((720, 1280, 3), np.uint8))
    events = tmp_path / "events.jsonl"
    events.write_text('{"frame": 3}\n')
    run = bgboard("record", str(tmp_path / "frames"), "--calibration", str(cal), "--out",
                  str(tmp_path / "x.mat"), "--events", str(events))
    assert (run.returncode, run.stderr) == (
        2, f'bgboard record: error: {events}: line 1: expected {{"frame": N, '
           f'"button": NAME}}\n')


def test_record_refuses_an_unknown_match_file_kind(tmp_path, cal):
    (tmp_path / "frames").mkdir()
    run = bgboard("record", str(tmp_path / "frames"), "--calibration", str(cal), "--out",
                  str(tmp_path / "x.txt"))
    assert run.returncode == 2


def test_record_a_live_camera_is_refused(tmp_path, cal):
    run = bgboard("record", "0", "--calibration", str(cal), "--out", str(tmp_path / "x.mat"))
    assert (run.returncode, run.stderr) == (
        2, "bgboard record: error: 0 is a live camera: record a video file or a folder of "
           "frames\n")
