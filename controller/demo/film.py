"""Whole games as a camera would film them: the bundled demo and the recording tests.

A game is played by the engine (a simple greedy policy with some randomness), then filmed as
shots: a hand throws the dice, the dice settle on the roller's right half, a hand moves each
checker, a hand picks up the dice. Opening ties, cocked dice (roll again), hits, the bar,
bear-offs and cube actions (buttons) all occur. Each shot is one rendered picture held for
some frames. Hand frames never count, so all of a turn's hand shots show one picture (a hand
over the board as the turn began): that keeps a game near 200 pictures.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

import cv2
import numpy as np

from ...calibration.geometry import white_right_high
from ...engine.board import START, WHITE, Color, Position
from ...engine.game import Game, Match
from ...engine.moves import Play, apply_step, mover_board, position_from_mover
from ...vision import synthetic as synth


@dataclass(frozen=True)
class Shot:
    """One view of the board held for `frames` frames."""

    points: tuple[int, ...]
    bar: tuple[int, int]
    dice: tuple[synth.Die, ...] = ()
    hand: bool = False
    frames: int = 5

    def observation(self) -> dict:
        """The Observation (DESIGN.md) a reader that never errs gives of this shot: the
        ground truth a recorder is measured against."""
        return {"points": list(self.points), "bar": {"white": self.bar[0], "black": self.bar[1]},
                "off": {"white": 0, "black": 0},
                "dice": [{"value": d.value, "field_xy": list(d.field_xy), "cocked": d.cocked}
                         for d in self.dice],
                "hand": self.hand, "confidence": 1.0}


@dataclass
class Film:
    """A filmed match: its shots, button presses by frame number, and the match itself."""

    look: synth.Look
    shots: list[Shot] = field(default_factory=list)
    buttons: dict[int, str] = field(default_factory=dict)
    match: Match = field(default_factory=Match)

    @property
    def frames(self) -> int:
        return sum(s.frames for s in self.shots)

    def observations(self) -> list[dict]:
        """The film's true Observations, one a frame."""
        return [shot.observation() for shot in self.shots for _ in range(shot.frames)]


def film_calibration(film: Film) -> dict:
    """The calibration file (DESIGN.md) of the film's camera view."""
    corners = dict(zip(("p1", "p12", "p13", "p24"), film.look.corners, strict=True))
    geometry = film.look.geometry
    return {"version": 1, "image_size": list(synth.FRAME_SIZE),
            "corners_px": {k: list(v) for k, v in corners.items()},
            "geometry": {"bar_width": geometry.bar_width, "point_depth": geometry.point_depth}}


def learned_calibration(film: Film, seed: int = 0) -> dict:
    """The film's calibration with the colours `bgboard calibrate` learns from a frame of
    the start position (the film's first held view)."""
    from ...calibration.file import from_dict
    from ...vision.learn import learn

    start = next(s for s in film.shots if not s.hand and not s.dice)
    scene = synth.Scene(start.points, {"white": 0, "black": 0}, (), False, film.look)
    return learn(synth.render(scene, seed).image, from_dict(film_calibration(film))).to_dict()




class _Filmer:
    def __init__(self, look: synth.Look, rng: random.Random, hold: int, hand: int) -> None:
        self.film = Film(look)
        self.rng = rng
        self.hold, self.hand = hold, hand
        self.right_high = white_right_high(look.corners)

    def shot(self, pos: Position, dice=(), hand=False, frames=None) -> None:
        frames = frames or (self.hand if hand else self.hold)
        self.film.shots.append(Shot(pos.points, (pos.bar_white, pos.bar_black), tuple(dice),
                                    hand, frames))

    def press(self, button: str) -> None:
        self.film.buttons[self.film.frames] = button

    def dice(self, pos: Position, values: list[tuple[Color, int]], cocked=False):
        """Dice lying flat (one may lean) on each roller's right half, clear of checkers."""
        placed: list[synth.Die] = []
        for color, value in values:
            high = self.right_high if color is WHITE else not self.right_high
            for _ in range(500):
                x = self.rng.uniform(0.62, 0.92) if high else self.rng.uniform(0.08, 0.38)
                y = self.rng.uniform(0.3, 0.7)
                die = synth.Die(value, (x, y), self.rng.uniform(0, 360), False)
                if synth.free(self.film.look, pos.points, _bar(pos), (x, y), placed):
                    placed.append(die)
                    break
            else:
                raise RuntimeError("no free place for a die")
        if cocked:
            placed[0] = synth.Die(placed[0].value, placed[0].field_xy, placed[0].angle, True)
        return placed


def _bar(pos: Position) -> dict:
    return {"white": pos.bar_white, "black": pos.bar_black}


def _choose(game: Game, rng: random.Random) -> Play | None:
    """A plausible play: progress, hits and safety, with some randomness (games of about
    50 turns, with a few hits)."""
    plays = game.legal_plays()
    if not plays:
        return None
    mover = game.turn

    def cost(play: Play) -> float:
        after = play.position
        blots = sum(1 for p in range(1, 25) if after.count(mover, p) == 1)
        return after.pips(mover) - 3 * after.bar(mover.other) + 4 * blots + rng.random() * 4

    return min(plays, key=cost)


def film_match(seed: int, *, games: int = 1, length: int = 0, look: synth.Look | None = None,
               hold: int = 5, hand: int = 2, cube: bool = True) -> Film:
    """Play and film `games` games (a match to `length`, or money games) from the start."""
    rng = random.Random(seed)
    look = look or synth.random_look(np.random.default_rng(seed))
    filmer = _Filmer(look, rng, hold, hand)
    match = Match(length=length)
    filmer.film.match = match
    for number in range(games):
        if match.winner() is not None:
            break
        game = match.new_game()
        if number:
            filmer.shot(START, hand=True)
            filmer.shot(START)
        _film_game(filmer, game, rng, cube)
    return filmer.film


def _film_game(f: _Filmer, game: Game, rng: random.Random, cube: bool) -> None:
    while True:
        white, black = rng.randint(1, 6), rng.randint(1, 6)
        if rng.random() < 0.15:
            black = white
        f.shot(game.board, hand=True)
        f.shot(game.board, f.dice(game.board, [(WHITE, white), (WHITE.other, black)]))
        f.shot(game.board, hand=True)
        if game.opening(white, black) is not None:
            break
        f.shot(game.board)
    _film_moves(f, game, rng, opening=True)
    while game.result is None:
        if cube and game.may_double() is None and rng.random() < 0.05:
            f.press("double")
            f.shot(game.board, frames=2)
            if rng.random() < 0.75:
                f.press("take")
                game.double()
                game.take()
            else:
                f.press("pass")
                game.double()
                game.drop()
                f.shot(game.board)
                return
            f.shot(game.board, frames=2)
        d1, d2 = sorted((rng.randint(1, 6), rng.randint(1, 6)), reverse=True)
        if rng.random() < 0.04:
            f.shot(game.board, hand=True)
            f.shot(game.board, f.dice(game.board, [(game.turn, d2), (game.turn, d1)], True))
            f.shot(game.board, hand=True)
            f.shot(game.board)
        game.roll(d1, d2)
        f.shot(game.board, hand=True)
        _film_moves(f, game, rng, opening=False)


def _film_moves(f: _Filmer, game: Game, rng: random.Random, opening: bool) -> None:
    """The dice lying, each checker moved under a hand, the dice picked up."""
    mover, (d1, d2) = game.turn, game.dice
    if opening:
        lying = f.film.shots[-2].dice
    else:
        lying = f.dice(game.board, [(mover, d1), (mover, d2)])
    before = game.board
    f.shot(before, lying)
    play = _choose(game, rng)
    b = mover_board(before)
    for step in play.steps if play else ():
        b = apply_step(b, step.start, step.end)[0]
        f.shot(before, hand=True)
        f.shot(position_from_mover(b, before), lying)
    game.move(play)
    f.shot(before, hand=True)
    f.shot(game.board)


def _render(job: tuple[synth.Scene, int]):
    return synth.render(*job).image


def _grains(noise: float, seed: int, planes: int = 6) -> list[tuple[np.ndarray, np.ndarray]]:
    """Sensor noise planes, each as (what to add, what to subtract) for saturating adds."""
    if not noise:
        return []
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(planes):
        grain = np.rint(rng.normal(0, noise, (*synth.FRAME_SIZE[::-1], 3))).astype(np.int16)
        out.append((np.clip(grain, 0, 255).astype(np.uint8),
                    np.clip(-grain, 0, 255).astype(np.uint8)))
    return out


def render_frames(film: Film, seed: int = 0, workers: int = 1,
                  noise: float = 2.0) -> Iterator[np.ndarray]:
    """Every frame of the film in order. Each distinct shot is rendered once (by `workers`
    processes when more than one, ahead of the caller) and held for its frames; each held
    frame gets its own sensor noise (`noise`, standard deviation in grey levels), as a
    camera's frames do. All shots share one render seed, so the board's texture and the
    room's light stay put from frame to frame, as in a real video."""
    keys = [(s.points, s.bar, s.dice, s.hand) for s in film.shots]
    first = {key: i for i, key in reversed(list(enumerate(keys)))}
    jobs = [(synth.Scene(s.points, {"white": s.bar[0], "black": s.bar[1]}, s.dice, s.hand,
                         film.look), seed)
            for i, s in enumerate(film.shots) if first[keys[i]] == i]
    if workers > 1:
        pool = ProcessPoolExecutor(workers)
        images = pool.map(_render, jobs, chunksize=4)
    else:
        pool, images = None, map(_render, jobs)
    grains = _grains(noise, seed)
    try:
        cache: dict = {}
        count = 0
        for i, shot in enumerate(film.shots):
            if first[keys[i]] == i:
                cache[keys[i]] = next(images)
            for _ in range(shot.frames):
                image = cache[keys[i]]
                if grains:
                    up, down = grains[count % len(grains)]
                    image = cv2.subtract(cv2.add(image, up), down)
                count += 1
                yield image
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)


def write_video(film: Film, path, seed: int = 0, workers: int = 1):
    """The film as an MJPG video file (10 frames a second), as a camera would record it."""
    import cv2

    writer = None
    for frame in render_frames(film, seed, workers):
        if writer is None:
            h, w = frame.shape[:2]
            writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (w, h))
            writer.set(cv2.VIDEOWRITER_PROP_QUALITY, 95)
        writer.write(frame)
    writer.release()
    return path


def write_folder(film: Film, folder, seed: int = 0, workers: int = 1):
    """The film as a folder of JPEG frames in name order (repeated pictures hard-linked)."""
    import os
    from pathlib import Path

    import cv2

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    last = last_path = None
    for index, frame in enumerate(render_frames(film, seed, workers)):
        path = folder / f"frame{index:06d}.jpg"
        if frame is last:
            os.link(last_path, path)
        else:
            cv2.imwrite(str(path), frame, [cv2.IMWRITE_JPEG_QUALITY, 92])
            last, last_path = frame, path
    return folder
