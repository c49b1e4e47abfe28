"""The calibration file, corner finding, colour learning, camera intrinsics."""
