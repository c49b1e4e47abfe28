"""How the controller follows whole filmed games when the camera and the reading go wrong.

The films (benchmarks/films.py: the five classic films of the bar test, and films in looks
held out of all training: logo, marble, a plain board, a turned camera) are rendered, a
frame fault is put on the frames, and every frame is read as `bgboard record` reads a video
(vision.steady.SteadyReader: the checker reader through corners the field watch keeps).
The Observations and the watch's changes are kept in a git-ignored cache folder
(benchmarks/cache/faults/net/FILM-FRAMEFAULT.jsonl, one `bgboard record --observations`
file each, and .changes.json). The frame faults:

    none   the film as rendered (sensor noise, hands in every turn)
    arm    every 5 s an arm reaching in over the board's edge for 0.6 s
    light  a lamp switched on at the film's middle frame: a third brighter, more on one side
    noise  strong sensor noise (6 grey levels) and JPEG at quality 50 on every frame
    bump   the camera turned 1.5 degrees and shifted (20, -10) px at the middle frame

Each Observation fault kind is then injected into the Observations (of the frame fault
`none`) and every film recorded again through the session, frame by frame:

    a  every stack of six or more read one short, in every frame
    b  one point (drawn per film among the start's points) one checker more, in every frame
       of the first ten turns
    c  one die read as another value in 30% of the frames with dice
    d  one occupied point's colour flipped in 20% of the frames
    e  all four at once at half those rates (a and b in half the frames)
    f  (harder than a to e) each turn a checker, drawn anew, read on the neighbouring
       point in every frame
    noise5, noise15, noise30 (and noise50, noise70, beyond the issue's levels): one random
       point one off in 5%, 15%, 30% (50%, 70%) of the frames

When the session says it is unsure, the film pauses while the players answer (Table): a
second later they press confirm when the first reading is the film's, otherwise they touch up
the stacks in doubt (every stack when neither reading is theirs) and the faults spare them
until the turn is recorded. With `--nobody` nobody answers, as in `bgboard record`: the
session settles its doubts itself. Per film and fault it prints the actions (dice and play,
cube) recorded right without help, right after an unsure, wrong, and not recorded, the
"moved" events the field watch said (false ones: any but the bump's own), whether the bump
was followed within a second, the last turn recorded against the game's last, and the median
(and longest) delay from the dice pickup to the commit, pauses included. `--weighings` adds
how the likelihood ratios of right and wrong best readings spread: what the ratio is chosen
from.

`--truth` records the films' true Observations instead (`Film.observations()`: no vision,
every checker and die read right before the fault), the Observation faults alone.

`--checkers colour` reads the films with the older colour reader instead of the learned one
(each reader's Observations kept in its own folder, benchmarks/cache/faults/net/ and
faults/colour/).

    python benchmarks/faults.py [--films NAME ...] [--frames FAULT ...] [--kinds KIND ...]
                                [--nobody] [--ratio R] [--weighings] [--cache DIR]
                                [--checkers net|colour] [--truth]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from bgboard.benchmarks.augment import lamp
from bgboard.benchmarks.bumps import FOLLOW, bumped
from bgboard.benchmarks.films import CLASSIC, NAMES, film, seed_of
from bgboard.calibration.file import from_dict
from bgboard.calibration.geometry import white_right_high
from bgboard.controller.demo.film import Film, learned_calibration, render_frames
from bgboard.controller.recorder import follow
from bgboard.controller.turns.events import EventBus
from bgboard.controller.turns.session import RATIO, Session, Settings
from bgboard.engine.game import Match
from bgboard.vision import dice
from bgboard.vision.read import CHECKER_READERS
from bgboard.vision.steady import SteadyReader
from bgboard.vision.synthetic import draw_arm

FPS = 10.0
CACHE = Path(__file__).parent / "cache" / "faults"
REACTION = 10  # frames (1 s) before the players answer an unsure
PATIENCE = 30  # frames (3 s) they wait for the touched-up stack to be read
BUMP = (1.5, 20, -10)  # the frame fault bump: degrees, dx, dy
ARM_EVERY, ARM_FRAMES = 50, 6  # an arm over the board's edge every 5 s, for 0.6 s


def lamp_on(image: np.ndarray) -> np.ndarray:
    """The picture with a lamp switched on: a third brighter, more so towards one side."""
    return lamp(image, 1.2, 1.5)


def arm_over_edge(image: np.ndarray, rng: np.random.Generator, corners) -> np.ndarray:
    """The picture with an arm reaching in over a random place of the field's edge (its
    wrist 90-140 px outside, the fingers over the points nearest the edge)."""
    corners = np.float64(corners)
    side = int(rng.integers(4))
    a, b = corners[side], corners[(side + 1) % 4]
    edge = a + (b - a) * rng.uniform(0.1, 0.9)
    out = (edge - corners.mean(0)) / np.linalg.norm(edge - corners.mean(0))
    target = edge + out * rng.uniform(90, 140)
    rgb = image[..., ::-1].astype(np.float32)
    draw_arm(rgb, rng, [target] * 4)
    return np.clip(rgb, 0, 255).astype(np.uint8)[..., ::-1].copy()


def noisy(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Strong sensor noise, then JPEG at quality 50."""
    grain = rng.normal(0, 6, image.shape)
    out = np.clip(image + grain, 0, 255).astype(np.uint8)
    return cv2.imdecode(cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, 50])[1],
                        cv2.IMREAD_COLOR)


FRAME_FAULTS = ("none", "arm", "light", "noise", "bump")


def faulty_frames(name: str, fault: str) -> Iterator[np.ndarray]:
    """The named film's frames with the frame fault on them."""
    shot = film(name)
    middle, rng = shot.frames // 2, np.random.default_rng(seed_of(name))
    m = bumped(BUMP)
    for index, frame in enumerate(render_frames(shot, seed_of(name))):
        if fault == "arm" and index % ARM_EVERY < ARM_FRAMES:
            frame = arm_over_edge(frame, np.random.default_rng([seed_of(name), index
                                                                // ARM_EVERY]),
                                  shot.look.corners)
        elif fault == "light" and index >= middle:
            frame = lamp_on(frame)
        elif fault == "noise":
            frame = noisy(frame, rng)
        elif fault == "bump" and index >= middle:
            frame = cv2.warpAffine(frame, m, (1280, 720), borderMode=cv2.BORDER_REPLICATE)
        yield frame


def stamped(obs: dict, index: int) -> dict:
    """The Observation of the film's frame `index` with its time on the film ("t", s)."""
    return {**obs, "t": round(index / FPS, 3)}


def cached_observations(name: str, fault: str, cache: Path, checkers: str = "net"
                        ) -> tuple[list[dict], list[dict]]:
    """The film's Observations under the frame fault as `bgboard record` reads them (a frame
    it refuses to read: {"error": why}), and the field watch's changes ({"frame", "moved",
    "shift"}); read the first time and kept in `cache`."""
    path, said = cache / f"{name}-{fault}.jsonl", cache / f"{name}-{fault}.changes.json"
    if not path.exists():
        shot = film(name)
        changes: list[dict] = []
        index = 0
        reader = SteadyReader(from_dict(learned_calibration(shot, seed_of(name))),
                              lambda c: changes.append({"frame": index,
                                                        "moved": c.calibration is not None,
                                                        "shift": round(c.shift, 1)}),
                              checkers)
        cache.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".part")
        with partial.open("w") as out:
            for index, frame in enumerate(faulty_frames(name, fault)):
                try:
                    obs = reader.read(frame)
                except ValueError as exc:
                    obs = {"error": str(exc)}
                out.write(json.dumps(stamped(obs, index)) + "\n")
        said.write_text(json.dumps(changes))
        partial.rename(path)
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    return lines, json.loads(said.read_text())


Fault = Callable[[dict, random.Random, "Turns"], dict]


@dataclass
class Turns:
    """Where the recording stands: turns recorded, the points the player touched up."""

    recorded: int = 0
    touched: set = field(default_factory=set)
    point: int = 0  # fault b's point (index into points)


def _points(obs: dict) -> dict:
    return {**obs, "points": list(obs["points"])}


def short_stacks(obs: dict, rng: random.Random, turns: Turns, rate: float = 1.0) -> dict:
    if rng.random() >= rate:
        return obs
    obs = _points(obs)
    for i, n in enumerate(obs["points"]):
        if abs(n) >= 6 and i + 1 not in turns.touched:
            obs["points"][i] = n - (1 if n > 0 else -1)
    return obs


def one_point(obs: dict, rng: random.Random, turns: Turns, rate: float = 1.0) -> dict:
    i = turns.point
    if turns.recorded >= 10 or i + 1 in turns.touched or rng.random() >= rate:
        return obs
    obs = _points(obs)
    n = obs["points"][i]
    obs["points"][i] = n + (1 if n > 0 else -1 if n < 0 else 0)
    return obs


def wrong_die(obs: dict, rng: random.Random, turns: Turns, rate: float = 0.3) -> dict:
    if not obs.get("dice") or rng.random() >= rate:
        return obs
    dice = [dict(d) for d in obs["dice"]]
    k = rng.randrange(len(dice))
    dice[k]["value"] = rng.choice([v for v in range(1, 7) if v != dice[k]["value"]])
    return {**obs, "dice": dice}


def flipped(obs: dict, rng: random.Random, turns: Turns, rate: float = 0.2) -> dict:
    if rng.random() >= rate:
        return obs
    occupied = [i for i, n in enumerate(obs["points"]) if n and i + 1 not in turns.touched]
    if not occupied:
        return obs
    obs = _points(obs)
    i = rng.choice(occupied)
    obs["points"][i] = -obs["points"][i]
    return obs


def noise(rate: float) -> Fault:
    def inject(obs: dict, rng: random.Random, turns: Turns) -> dict:
        if rng.random() >= rate:
            return obs
        obs = _points(obs)
        i = rng.randrange(24)
        if i + 1 not in turns.touched:
            obs["points"][i] += rng.choice((-1, 1))
        return obs
    return inject


def each_turn(obs: dict, rng: random.Random, turns: Turns) -> dict:
    """Each turn a checker (drawn anew) read on the neighbouring point, in every frame."""
    turn = random.Random(turns.point * 1000 + turns.recorded)
    i, j = turn.randrange(24), turn.choice((-1, 1))
    j = i + j if 0 <= i + j < 24 else i - j
    n, m = obs["points"][i], obs["points"][j]
    if {i + 1, j + 1} & turns.touched or n == 0 or m * n < 0:
        return obs
    obs = _points(obs)
    sign = 1 if n > 0 else -1
    obs["points"][i] -= sign
    obs["points"][j] += sign
    return obs


def everything(obs: dict, rng: random.Random, turns: Turns) -> dict:
    obs = short_stacks(obs, rng, turns, 0.5)
    obs = one_point(obs, rng, turns, 0.5)
    obs = wrong_die(obs, rng, turns, 0.15)
    return flipped(obs, rng, turns, 0.1)


KINDS: dict[str, Fault] = {
    "none": lambda obs, rng, turns: obs, "a": short_stacks, "b": one_point, "c": wrong_die,
    "d": flipped, "e": everything, "f": each_turn, "noise5": noise(0.05), "noise15": noise(0.15),
    "noise30": noise(0.30), "noise50": noise(0.50), "noise70": noise(0.70)}


@dataclass
class Outcome:
    """One film under one fault: actions right, right after an unsure, wrong, not recorded,
    and the delays (s) from each dice pickup to its commit."""

    right: int = 0
    unsure: int = 0
    wrong: int = 0
    missing: int = 0
    delays: list[float] = field(default_factory=list)
    followed: bool = True  # every action recorded right, to the game's last

    def add(self, other: Outcome) -> None:
        """Count another film's outcome in."""
        self.right += other.right
        self.unsure += other.unsure
        self.wrong += other.wrong
        self.missing += other.missing
        self.delays += other.delays
        self.followed &= other.followed

    @property
    def actions(self) -> int:
        return self.right + self.unsure + self.wrong + self.missing


def pickups(film: Film) -> list[int]:
    """The frames where the dice are picked up: a hand shot between a shot with dice and a
    shot of the board without dice."""
    out, frame, dice_before = [], 0, False
    shots = film.shots
    for i, shot in enumerate(shots):
        if shot.hand and dice_before and i + 1 < len(shots) and not shots[i + 1].dice and \
                not shots[i + 1].hand:
            out.append(frame)
        if not shot.hand:
            dice_before = bool(shot.dice)
        frame += shot.frames
    return out


class Table:
    """The film's players, who stop when the session says it is unsure: after REACTION
    frames they press confirm when the first reading is their play, or else lift and put back
    the checkers in doubt (a hand frame, then the faults spare those points; every point
    when neither reading is their play) and wait up to PATIENCE frames for the turn to be
    recorded; then the film goes on."""

    def __init__(self, seed: int, film: Film, lines: list[dict], fault: Fault,
                 nobody: bool = False) -> None:
        self.rng = random.Random(seed)
        self.nobody = nobody
        start = film.shots[0].points
        self.turns = Turns(point=self.rng.choice([i for i, n in enumerate(start) if n]))
        self.film, self.lines, self.fault = film, lines, fault
        self.truth = film.match.games[0].record
        self.match = Match()
        self.bus = EventBus()
        self.bus.subscribe(self.listen)
        self.buttons: dict[int, str] = {}
        self.index = 0
        self.question: dict | None = None  # the open unsure event's data
        self.unsure: set[int] = set()  # turns (counted from 0) the session was unsure of
        self.commits: list[int] = []  # the stream index of each commit
        self.at: list[int] = []  # the stream index of each film frame

    def listen(self, event) -> None:
        if event.kind == "committed":
            self.turns.recorded += 1
            self.turns.touched = set()
            self.question = None
            self.commits.append(self.index - 1)
        elif event.kind in ("unsure", "settled"):
            self.unsure.add(self.turns.recorded)
            self.question = None if self.nobody else event.data

    def stream(self) -> Iterator[tuple[float, dict]]:
        """The film's Observations with the fault injected, paused while a question is open."""
        offset = 0.0
        for k, obs in enumerate(self.lines):
            if self.question is not None and k:
                for extra in self._pause(self.lines[k - 1]):
                    offset += 1 / FPS
                    yield self._next(self.lines[k - 1]["t"] + offset, extra)
            self.at.append(self.index)
            if k in self.film.buttons:
                self.buttons[self.index] = self.film.buttons[k]
            yield self._next(obs["t"] + offset, self._faulty(obs))

    def _faulty(self, obs: dict) -> dict:
        """The frame with the fault injected (a frame not read stays so)."""
        return obs if "error" in obs else self.fault(obs, self.rng, self.turns)

    def _next(self, t: float, obs: dict) -> tuple[float, dict | ValueError]:
        """The next frame of the stream; a frame not read as `follow` takes it."""
        self.index += 1
        return round(t, 3), ValueError(obs["error"]) if "error" in obs else obs

    def _pause(self, obs: dict) -> Iterator[dict]:
        """The frames while the players answer the question: the board as it stands."""
        for _ in range(REACTION):
            yield self._faulty(obs)
        if self.question is None:
            return
        expected = self.truth[len(self.match.games[0].record)] \
            if len(self.match.games[0].record) < len(self.truth) else None
        if _reading(expected) == self.question["readings"][0]:
            self.buttons[self.index] = "confirm"
            yield self._faulty(obs)
            return
        yield {**obs, "hand": True}
        if _reading(expected) in self.question["readings"]:
            self.turns.touched |= {p for p in self.question["points"] if isinstance(p, int)}
        else:  # neither reading is theirs: every misread stack (ringed on the web view)
            self.turns.touched |= set(range(1, 25))
        for _ in range(PATIENCE):
            if self.question is None:
                return
            yield self._faulty(obs)


def run_film(seed: int, film: Film, lines: list[dict], fault: Fault, ratio: float,
             nobody: bool = False) -> Outcome:
    """Record one film with the fault injected, the players answering the session's doubts
    (unless `nobody`)."""
    table = Table(seed, film, lines, fault, nobody)
    settings = Settings(white_right_high=white_right_high(film.look.corners), ratio=ratio)
    follow(table.stream(), settings, match=table.match, buttons=table.buttons, bus=table.bus)
    return _outcome(table, pickups(film))


class Weighings:
    """Every weighing the sessions make, as (log ratio, whether the best is the film's
    action): how far apart right and wrong readings are is what the ratio is chosen from."""

    def __init__(self) -> None:
        self.seen: list[tuple[float, bool]] = []
        self.truth: list = []
        self.match = None

    def __enter__(self) -> Weighings:
        weigh = Session._weigh

        def watched(session, rolls=None):
            weighing = weigh(session, rolls)
            done = len(session.game.record)
            expected = self.truth[done] if done < len(self.truth) else None
            in_step = tuple(session.game.record) == tuple(self.truth[:done])
            if in_step and weighing.runner_up is not None and weighing.best.kind == "complete":
                self.seen.append((weighing.log_ratio,
                                  _reading(expected) == weighing.best.reading))
            return weighing

        self._weigh, Session._weigh = weigh, watched
        return self

    def __exit__(self, *exc) -> None:
        Session._weigh = self._weigh


def _reading(action) -> str | None:
    """An action as the session writes a complete reading ("64: 24/18 13/9")."""
    if action is None or action.kind != "move":
        return None
    move = action.play.move if action.play else "(no move)"
    return f"{action.dice[0]}{action.dice[1]}: {move}"


def _outcome(table: Table, picked: list[int]) -> Outcome:
    """Each of the film's actions: right (unsure first or not), wrong or not recorded; and
    the delay from each dice pickup to the commit after it, pauses included."""
    out = Outcome()
    got, moves = table.match.games[0].record, 0
    for i, action in enumerate(table.truth):
        if i >= len(got):
            out.missing += 1
            continue
        if got[i] != action:
            out.wrong += 1
        elif action.kind == "move" and moves in table.unsure:
            out.unsure += 1
        else:
            out.right += 1
        moves += action.kind == "move"
    out.followed = not (out.wrong or out.missing)
    pickups_at = [table.at[p] for p in picked]
    for commit in table.commits:
        before = [p for p in pickups_at if p <= commit]
        if before:
            out.delays.append((commit - before[-1]) / FPS)
    return out


@dataclass
class Watched:
    """What the field watch said over a film's frames: "moved" events that no bump made, and
    whether the bump (if any) was followed within a second."""

    false: int = 0
    bumps: int = 0
    followed: int = 0

    @classmethod
    def of(cls, changes: list[dict], fault: str, frames: int) -> Watched:
        middle = frames // 2
        ours = [c for c in changes if c["moved"] and middle <= c["frame"] < middle + FOLLOW]
        moved = [c for c in changes if c["moved"]]
        bump = fault == "bump"
        return cls(len(moved) - (len(ours[:1]) if bump else 0), int(bump), int(bump and bool(ours)))

    def add(self, other: Watched) -> None:
        self.false += other.false
        self.bumps += other.bumps
        self.followed += other.followed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, help="where the Observations are kept (default "
                        "benchmarks/cache/faults/ and the checker reader's name)")
    parser.add_argument("--checkers", choices=CHECKER_READERS, default="net",
                        help="the checker reader that reads the films (default net)")
    parser.add_argument("--dice-nets", type=Path, metavar="DIR",
                        help="the field-dice nets from DIR (field_find.onnx, field_read.onnx) "
                             "instead of the shipped ones (give --cache too: Observations "
                             "kept are not read again)")
    parser.add_argument("--ratio", type=float, default=RATIO,
                        help=f"likelihood ratio needed to record (default {RATIO:g})")
    parser.add_argument("--films", nargs="+", choices=NAMES, default=list(CLASSIC),
                        help="the films (default: the five classic ones)")
    parser.add_argument("--frames", nargs="+", choices=FRAME_FAULTS, default=["none"],
                        help="frame faults, each recorded with the Observation fault none")
    parser.add_argument("--kinds", nargs="+", choices=list(KINDS), default=list(KINDS),
                        help="Observation faults, on the frames of the frame fault none")
    parser.add_argument("--truth", action="store_true",
                        help="the films' true Observations (no vision: every checker and die "
                             "read right) with the Observation faults alone")
    parser.add_argument("--nobody", action="store_true",
                        help="nobody answers the session's doubts (as in bgboard record)")
    parser.add_argument("--weighings", action="store_true",
                        help="also print how the log ratios of right and wrong best readings "
                             "spread (what the ratio is chosen from)")
    args = parser.parse_args()
    if args.truth and args.frames != ["none"]:
        parser.error("--truth: the true Observations have no frames to fault (--frames none)")
    if args.dice_nets:
        if not args.cache:
            parser.error("--dice-nets: give --cache too (the shipped nets' Observations are "
                         "kept in the default one)")
        try:
            dice.use_nets(args.dice_nets)
        except ValueError as exc:
            parser.error(f"--dice-nets: {exc}")
    cv2.setNumThreads(1)
    cache = args.cache or CACHE / args.checkers
    films = {name: film(name) for name in args.films}
    runs = [("none", kind) for kind in args.kinds] if "none" in args.frames else []
    runs += [(frames, "none") for frames in args.frames if frames != "none"]
    print(f"ratio {args.ratio:g}{', nobody answers' if args.nobody else ''}")
    print(f"{'frames':<6} {'fault':<8} {'film':<7} {'actions':>7} {'right':>6} {'unsure':>6} "
          f"{'wrong':>6} {'missing':>7} {'to last':>7} {'moved':>5} {'bump':>5} "
          f"{'median delay s':>14} {'longest s':>9} {'cpu s':>6}", flush=True)
    weighings = Weighings()
    for frames, kind in runs:
        total, watched, took = Outcome(), Watched(), time.process_time()
        for name, shot in films.items():
            lines, changes = ([stamped(o, i) for i, o in enumerate(shot.observations())],
                              []) if args.truth \
                else cached_observations(name, frames, cache, args.checkers)
            weighings.truth = shot.match.games[0].record
            with weighings if args.weighings else _nothing():
                got = run_film(seed_of(name), shot, lines, KINDS[kind], args.ratio,
                               args.nobody)
            seen = Watched.of(changes, frames, len(lines))
            total.add(got)
            watched.add(seen)
            _row(frames, kind, name, got, seen)
        _row(frames, kind, "all", total, watched, time.process_time() - took)

    if args.weighings:
        _print_weighings(weighings.seen)


def _row(frames: str, kind: str, name: str, got: Outcome, seen: Watched,
         cpu: float | None = None) -> None:
    """One printed line: a film (or all) under a frame fault and an Observation fault."""
    bump = f"{seen.followed}/{seen.bumps}" if seen.bumps else "-"
    print(f"{frames:<6} {kind:<8} {name:<7} {got.actions:>7} {got.right:>6} {got.unsure:>6} "
          f"{got.wrong:>6} {got.missing:>7} {'yes' if got.followed else 'NO':>7} "
          f"{seen.false:>5} {bump:>5} {_median(got.delays):>14} "
          f"{max(got.delays, default=0):>9.1f} {'' if cpu is None else f'{cpu:.1f}':>6}",
          flush=True)


def _median(delays: list[float]) -> str:
    return f"{statistics.median(delays):.1f}" if delays else "-"


def _print_weighings(seen: list[tuple[float, bool]]) -> None:
    right = sorted(r for r, ok in seen if ok)
    wrong = sorted(r for r, ok in seen if not ok)
    print(f"weighings with a complete best: {len(seen)}; best wrong: {len(wrong)}, "
          f"largest ratio of a wrong best: {math.exp(wrong[-1]) if wrong else 0:.3g}")
    for ratio in (1.5, 3, 5, 10, 20, 50, 100, 1000):
        above = sum(r >= math.log(ratio) for r in right)
        print(f"  ratio {ratio:>6g}: right bests at or above it {above}/{len(right)}, "
              f"wrong {sum(r >= math.log(ratio) for r in wrong)}/{len(wrong)}")


class _nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc) -> None:
        return None


if __name__ == "__main__":
    main()
