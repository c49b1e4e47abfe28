"""Lens intrinsics from chessboard photos (OpenCV's own calibration on drawn boards)."""

import cv2
import numpy as np
import pytest

from bgboard.calibration.intrinsics import Undistorter, from_chessboards


def _board_photo(tilt: float, turn: float) -> np.ndarray:
    squares = np.kron((np.indices((7, 10)).sum(0) % 2) * 255, np.ones((40, 40))).astype(np.uint8)
    board = cv2.copyMakeBorder(squares, 40, 40, 40, 40, cv2.BORDER_CONSTANT, value=255)
    h, w = board.shape
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = src * 0.8 + np.float32([60, 40])
    dst[:2, 1] += tilt
    dst[1:3, 0] += turn
    matrix = cv2.getPerspectiveTransform(src, dst)
    photo = cv2.warpPerspective(board, matrix, (640, 480), borderValue=200)
    return cv2.cvtColor(photo, cv2.COLOR_GRAY2BGR)


def test_intrinsics_from_drawn_chessboards_and_undistortion():
    photos = [_board_photo(t, u) for t, u in [(0, 0), (25, -20), (-20, 30), (30, 25), (-25, -25)]]
    found = from_chessboards(photos, (9, 6))
    matrix = np.array(found["camera_matrix"])
    assert matrix.shape == (3, 3) and matrix[2, 2] == 1.0
    assert len(found["dist_coeffs"]) == 5
    none = {"camera_matrix": matrix.tolist(), "dist_coeffs": [0.0] * 5}
    image = photos[0]
    assert np.abs(Undistorter(none, (640, 480))(image).astype(int) - image).mean() < 1.0


def test_too_few_chessboards_are_refused():
    blank = np.full((480, 640, 3), 255, np.uint8)
    with pytest.raises(ValueError, match=r"found in 0 photos; at least 3 are needed"):
        from_chessboards([blank, blank, blank], (9, 6))
