"""The filmed games the robustness benchmarks follow (faults.py, bumps.py, record.py).

The five films of the bar test (classic looks, seeds 2, 3, 4, 7, 8), and films in looks held
out of all training: the two held-out families (`logo`, `marble`: vision.looks.HELD_OUT), a
`plain` board (one colour of wood, no grain, no pattern: little texture of its own for the
field watch to follow), and a `turned` camera (looking at the board from any side, turned
and tilted a little, as a camera clamped beside a table is). Every film is a whole game:
hits, the bar, dances, doubles, cube actions and bear-offs as the game brings them.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from bgboard.controller.demo.film import Film, film_match
from bgboard.vision import synthetic as synth
from bgboard.vision.synthetic import looks

CLASSIC = {f"game{seed}": seed for seed in (2, 3, 4, 7, 8)}
HELD_OUT = {"logo": 21, "marble": 22, "plain": 23, "turned": 24}
NAMES = (*CLASSIC, *HELD_OUT)


def look_of(name: str) -> synth.Look | None:
    """The look a named film is shot in (None: the classic look its seed draws)."""
    if name in CLASSIC:
        return None
    rng = np.random.default_rng([HELD_OUT[name], 68])
    if name in looks.HELD_OUT:
        return looks.family_look(rng, name)
    look = synth.random_look(rng)
    if name == "plain":
        return replace(look, texture="plain", grain=0.0, pattern="none", blob_shadow=0.0)
    return replace(look, corners=looks.tilted_corners(rng, look.aspect, rng.uniform(5, 12)))


def seed_of(name: str) -> int:
    """The seed a named film is played, filmed and rendered with."""
    return CLASSIC.get(name) or HELD_OUT[name]


def film(name: str) -> Film:
    """The named film: one whole game."""
    if name not in NAMES:
        raise ValueError(f"unknown film {name!r}: choose from {', '.join(NAMES)}")
    return film_match(seed_of(name), games=1, look=look_of(name))
