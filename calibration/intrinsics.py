"""Camera intrinsics from chessboard photos, to undistort wide-angle lenses.

Stored in the calibration file as the optional key `intrinsics`:
`{"camera_matrix": 3x3, "dist_coeffs": [k1, k2, p1, p2, k3]}`.
"""

from __future__ import annotations

import cv2
import numpy as np


def from_chessboards(images: list[np.ndarray], pattern: tuple[int, int]) -> dict:
    """Intrinsics from photos of a chessboard with `pattern` inner corners (columns, rows)."""
    grid = np.zeros((pattern[0] * pattern[1], 3), np.float32)
    grid[:, :2] = np.mgrid[0:pattern[0], 0:pattern[1]].T.reshape(-1, 2)
    object_points, image_points, size = [], [], None
    for image in images:
        grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        ok, found = cv2.findChessboardCorners(grey, pattern)
        if ok:
            crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.01)
            object_points.append(grid)
            image_points.append(cv2.cornerSubPix(grey, found, (11, 11), (-1, -1), crit))
            size = grey.shape[::-1]
    if len(object_points) < 3:
        raise ValueError(f"the chessboard ({pattern[0]}x{pattern[1]} inner corners) was found "
                         f"in {len(object_points)} photos; at least 3 are needed")
    _, matrix, dist, _, _ = cv2.calibrateCamera(object_points, image_points, size, None, None)
    return {"camera_matrix": matrix.round(4).tolist(),
            "dist_coeffs": dist.ravel().round(6).tolist()}


class Undistorter:
    """Removes lens distortion from frames of one size (maps computed once)."""

    def __init__(self, intrinsics: dict, size: tuple[int, int]):
        matrix = np.array(intrinsics["camera_matrix"], np.float64)
        dist = np.array(intrinsics["dist_coeffs"], np.float64)
        if matrix.shape != (3, 3):
            raise ValueError("intrinsics.camera_matrix is not 3x3")
        self.maps = cv2.initUndistortRectifyMap(matrix, dist, None, matrix, size, cv2.CV_16SC2)

    def __call__(self, image: np.ndarray) -> np.ndarray:
        return cv2.remap(image, *self.maps, cv2.INTER_LINEAR)
