"""Colour changes shared by the training scripts that need no PyTorch to be imported (so their
sample makers can be tested where PyTorch is not installed)."""

from __future__ import annotations

import numpy as np


def recolour(image: np.ndarray, rng) -> np.ndarray:
    """Colours shuffled and scaled, so dice of colours never seen look familiar."""
    gain = rng.uniform(0.75, 1.2) * rng.uniform(0.9, 1.1, 3)
    return np.clip(image[..., rng.permutation(3)] * gain, 0, 255).astype(np.uint8)
