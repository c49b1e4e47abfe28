"""Frame sources: a real video file through cv2.VideoCapture, an image folder, bad input."""

import cv2
import numpy as np
import pytest

from bgboard.vision.sources import FolderSource, VideoSource, open_source


def _frame(i: int) -> np.ndarray:
    img = np.zeros((120, 160, 3), np.uint8)
    img[:, : 10 * (i + 1)] = 255
    return img


def test_a_video_file_gives_its_frames_in_order(tmp_path):
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (160, 120))
    for i in range(5):
        writer.write(_frame(i))
    writer.release()
    source = open_source(str(path))
    assert isinstance(source, VideoSource)
    frames = list(source.frames())
    assert [f.index for f in frames] == [0, 1, 2, 3, 4]
    widths = [int((f.image[60, :, 0] > 128).sum()) for f in frames]
    assert [round(w, -1) for w in widths] == [10, 20, 30, 40, 50]


def test_a_folder_is_read_in_name_order_and_a_bad_file_is_reported(tmp_path):
    for i, name in enumerate(["b.png", "a.png", "c.png"]):
        cv2.imwrite(str(tmp_path / name), _frame(i))
    (tmp_path / "bb.png").write_bytes(b"broken")
    (tmp_path / "notes.txt").write_text("not an image")
    source = open_source(str(tmp_path))
    assert isinstance(source, FolderSource)
    frames = list(source.frames())
    assert [f.name for f in frames] == ["a.png", "b.png", "bb.png", "c.png"]
    assert frames[2].image is None and "cannot read the image" in frames[2].problem
    assert frames[0].image.shape == (120, 160, 3)


def test_missing_sources_and_empty_folders_are_refused(tmp_path):
    with pytest.raises(OSError, match="does not exist"):
        open_source(str(tmp_path / "none.mp4"))
    with pytest.raises(ValueError, match="no image files"):
        open_source(str(tmp_path))
