"""A taught example: one die's canonical crop and its side in pixels, as the teach store keeps it."""
from __future__ import annotations

import dataclasses

import numpy as np


@dataclasses.dataclass
class Example:
    crop: np.ndarray  # CROP_PX square BGR uint8, the top face turned square to the axes
    side: float  # the die's side in frame pixels when it was taught
