"""The tutor: hints, mistake warnings and cube advice from an engine, never blocking the caller.

Modes per player (a "+"-joined set, e.g. "warn+cube"): `off` (tournament: nothing is ever
computed for that player), `warn` (judge each play once it settles; a verdict at or above
the `warn_at` threshold should flash the mistake and show the better play), `hint` (the best
play as soon as the dice are read, at most `hints_per_game` per player and game) and `cube`
(advice before rolling). Use from the controller:

    tutor = Tutor(TutorSettings(), {"white": "warn", "black": "hint+cube"}, on_result=callback)
    tutor.dice_read(position, (3, 1))       # hint mode  -> later a Hint
    tutor.play_settled(position, (3, 1), play)   # warn mode -> later a Verdict
    tutor.before_roll(position)             # cube mode  -> later a CubeHint
    tutor.new_game(); tutor.close()

Each call only queues work and returns at once; one worker thread runs the engine and hands
each result to `on_result` (called in the worker thread) or keeps it for `poll()`. A result
names the position it is about; drop it if the game has moved on. Each evaluation runs at 0-ply,
then at the deepest ply (up to `ply`) that recent timings say fits in the time budget, so a
slow machine gets a shallower answer, not a late one. Results are frozen dataclasses: keep
`Verdict.to_dict()` in the game record; light the LEDs with `result.frame()`
(hardware.signals.suggestion: each source, then its destination, in order).
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ..engine.analysis import Analyzer, CubeAdvice, RankedPlay, open_analyzer
from ..engine.board import BLACK, WHITE, Color, Position
from ..engine.ids import position_id
from ..engine.moves import Play, legal_plays

MODES = ("warn", "hint", "cube")
WORDS = ("good", "doubtful", "bad", "very bad")
GROWTH = 20.0
"""How much longer one more ply is guessed to take, until it has been measured."""


@dataclass(frozen=True)
class TutorSettings:
    """Tutor settings. Thresholds are equity lost by a play (cubeless money equity)."""

    doubtful: float = 0.03
    bad: float = 0.06
    very_bad: float = 0.12
    warn_at: str = "doubtful"
    hints_per_game: int | None = 3
    ply: int = 2
    budget: float = 1.5
    engine: str | None = None

    def __post_init__(self) -> None:
        if self.warn_at not in WORDS[1:]:
            raise ValueError(f"warn_at {self.warn_at!r}: use doubtful, bad or very bad")
        if not 0 <= self.doubtful <= self.bad <= self.very_bad:
            raise ValueError("thresholds must grow: 0 <= doubtful <= bad <= very bad")

    def word(self, loss: float) -> str:
        """The verdict word for an equity loss."""
        for word, limit in (("very bad", self.very_bad), ("bad", self.bad),
                            ("doubtful", self.doubtful)):
            if loss >= limit:
                return word
        return "good"


def parse_mode(text: str) -> frozenset[str]:
    """'off' -> no help; 'warn', 'hint', 'cube' or a '+'-joined set of them."""
    parts = {p.strip().lower() for p in text.split("+") if p.strip()}
    if parts == {"off"}:
        return frozenset()
    bad = parts - set(MODES)
    if bad or not parts:
        raise ValueError(f"tutor mode {text!r}: use off, or {', '.join(MODES)} joined by +")
    return frozenset(parts)


@dataclass(frozen=True)
class Suggestion:
    """Shared by results that show a play on the board."""

    def frame(self):
        """The LED frame of the suggested play (hardware.signals.suggestion)."""
        from ..hardware import signals

        return signals.suggestion(self.best_play, self.color)


@dataclass(frozen=True)
class Hint(Suggestion):
    """The best play for a roll, shown before the player moves."""

    color: Color
    position: Position
    dice: tuple[int, int]
    best_play: Play
    equity: float
    engine: str
    ply: int
    hints_left: int | None

    @property
    def best(self) -> str:
        return self.best_play.move


@dataclass(frozen=True)
class Verdict(Suggestion):
    """The tutor's judgement of a play made: its equity loss against the best play."""

    color: Color
    position: Position
    dice: tuple[int, int]
    move: str
    best_play: Play
    equity_loss: float
    word: str
    warn: bool
    engine: str
    ply: int

    @property
    def best(self) -> str:
        return self.best_play.move

    def to_dict(self) -> dict:
        """Plain data for the game record."""
        return {"player": self.color.key, "position_id": position_id(self.position),
                "dice": list(self.dice), "move": self.move, "best": self.best,
                "equity_loss": round(self.equity_loss, 4), "verdict": self.word,
                "engine": self.engine, "ply": self.ply}


@dataclass(frozen=True)
class CubeHint:
    """Cube advice for the player about to roll."""

    color: Color
    position: Position
    advice: CubeAdvice
    engine: str


@dataclass(frozen=True)
class Failed:
    """The engine could not answer (not installed, crashed): `reason` says why."""

    kind: str
    color: Color
    reason: str


@dataclass
class _Job:
    kind: str
    color: Color
    position: Position
    dice: tuple[int, int] | None = None
    play: Play | None = None
    hints_left: int | None = None
    queued: float = field(default_factory=time.monotonic)


class Tutor:
    """The tutor component; see the module docstring. `analyzer` (default: open the engine
    of `settings.engine`, or the best installed, on first use) is closed with the tutor."""

    def __init__(self, settings: TutorSettings | None = None,
                 modes: dict[Color | str, str] | None = None,
                 on_result: Callable[[object], None] | None = None,
                 analyzer: Analyzer | None = None) -> None:
        self.settings = settings or TutorSettings()
        self.modes = {WHITE: frozenset(), BLACK: frozenset()}
        for who, text in (modes or {}).items():
            self.set_mode(who, text)
        self.on_result = on_result
        self._analyzer = analyzer
        self._hints = {WHITE: 0, BLACK: 0}
        self._jobs: queue.Queue[_Job | None] = queue.Queue()
        self._results: queue.Queue[object] = queue.Queue()
        self._seconds: dict[int, float] = {}
        self._worker = threading.Thread(target=self._work, name="tutor", daemon=True)
        self._worker.start()

    # --- settings -------------------------------------------------------------------------
    def set_mode(self, who: Color | str, text: str) -> None:
        """Set a player's mode ("off", "warn", "hint+cube", ...); `who` is a Color or
        "white"/"black"."""
        if not isinstance(who, Color):
            if who.lower() not in ("white", "black"):
                raise ValueError(f"tutor mode for {who!r}: the players are white and black")
            who = Color[who.upper()]
        self.modes[who] = parse_mode(text)

    def hints_left(self, color: Color) -> int | None:
        limit = self.settings.hints_per_game
        return None if limit is None else max(limit - self._hints[color], 0)

    def new_game(self) -> None:
        """A new game: the hint allowance starts again."""
        self._hints = {WHITE: 0, BLACK: 0}

    # --- events from the controller (all return at once) -------------------------------
    def dice_read(self, position: Position, dice: tuple[int, int]) -> bool:
        """The dice of the player on roll were read. Queues a Hint if that player has hint
        mode and hints left and has a choice (a forced play or a dance costs no hint);
        returns whether it did."""
        color = position.turn
        if "hint" not in self.modes[color] or self.hints_left(color) == 0:
            return False
        if len(legal_plays(position, dice)) < 2:
            return False
        self._hints[color] += 1
        self._jobs.put(_Job("hint", color, position, dice, hints_left=self.hints_left(color)))
        return True

    def play_settled(self, position: Position, dice: tuple[int, int], play: Play) -> bool:
        """`play` was made from `position` with `dice`. Queues a Verdict in warn mode (not
        for a forced play)."""
        if "warn" not in self.modes[position.turn] or len(legal_plays(position, dice)) < 2:
            return False
        self._jobs.put(_Job("verdict", position.turn, position, dice, play))
        return True

    def before_roll(self, position: Position) -> bool:
        """The player on roll is about to roll. Queues a CubeHint in cube mode when that
        player holds the cube or it is centred (the caller knows about the Crawford game and
        the cube limit: do not call then)."""
        owner = position.cube_owner
        if "cube" not in self.modes[position.turn] or owner not in (None, position.turn):
            return False
        self._jobs.put(_Job("cube", position.turn, position))
        return True

    def poll(self) -> list[object]:
        """Results finished since the last poll (when no on_result callback is set)."""
        out = []
        while True:
            try:
                out.append(self._results.get_nowait())
            except queue.Empty:
                return out

    def wait(self, timeout: float = 10.0) -> object | None:
        """Block until the next result (for tests and command-line tools), or None."""
        try:
            return self._results.get(timeout=timeout)
        except queue.Empty:
            return None

    def cancel(self) -> None:
        """Drop queued jobs (the one running finishes, its result is still delivered)."""
        while True:
            try:
                self._jobs.get_nowait()
            except queue.Empty:
                return

    def close(self) -> None:
        """Stop the worker and the engine."""
        self.cancel()
        self._jobs.put(None)
        self._worker.join(timeout=30)

    def __enter__(self) -> Tutor:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # --- the worker ---------------------------------------------------------------------
    def _work(self) -> None:
        try:
            while (job := self._jobs.get()) is not None:
                self._deliver(self._run(job))
        finally:
            if self._analyzer is not None:
                self._analyzer.close()

    def _deliver(self, result: object) -> None:
        if self.on_result is None:
            self._results.put(result)
        else:
            self.on_result(result)

    def _run(self, job: _Job) -> object:
        try:
            if self._analyzer is None:
                self._analyzer = open_analyzer(self.settings.engine)
            return getattr(self, f"_{job.kind}")(job, self._analyzer)
        except (ValueError, OSError) as exc:
            return Failed(job.kind, job.color, str(exc))

    def _hint(self, job: _Job, engine: Analyzer) -> Hint | Failed:
        ranked, ply = self._deepest(job, lambda p: engine.rank(job.position, job.dice, p))
        if not ranked:
            return Failed("hint", job.color, "no legal play: the turn passes")
        return Hint(job.color, job.position, job.dice, ranked[0].play, ranked[0].equity,
                    engine.name, ply, job.hints_left)

    def _verdict(self, job: _Job, engine: Analyzer) -> Verdict:
        ranked, ply = self._deepest(job, lambda p: engine.rank(job.position, job.dice, p))
        return judge(engine, self.settings, job.position, job.dice, job.play, ranked, ply)

    def _cube(self, job: _Job, engine: Analyzer) -> CubeHint:
        advice, _ = self._deepest(job, lambda p: engine.cube(job.position, p))
        return CubeHint(job.color, job.position, advice, engine.name)

    def _deepest(self, job: _Job, evaluate: Callable[[int], object]) -> tuple[object, int]:
        """Evaluate at 0-ply (always fast), then once more at the deepest ply (up to the
        setting) expected to finish within the time budget, counted from when the job was
        queued. Returns the deepest answer and its ply."""
        result, ply = self._timed(evaluate, 0), 0
        left = self.settings.budget - (time.monotonic() - job.queued)
        top = min(self.settings.ply, self._analyzer.max_ply)
        deeper = next((p for p in range(top, 0, -1) if self._expected(p) <= left), 0)
        if deeper:
            result, ply = self._timed(evaluate, deeper), deeper
        return result, ply

    def _timed(self, evaluate: Callable[[int], object], ply: int) -> object:
        start = time.monotonic()
        result = evaluate(ply)
        self._learn(ply, time.monotonic() - start)
        return result

    def _expected(self, ply: int) -> float:
        """Seconds one evaluation at `ply` took lately; never measured: GROWTH times the
        ply below."""
        if ply in self._seconds:
            return self._seconds[ply]
        return GROWTH * self._expected(ply - 1) if ply else 0.0

    def _learn(self, ply: int, seconds: float) -> None:
        old = self._seconds.get(ply)
        self._seconds[ply] = seconds if old is None else 0.7 * old + 0.3 * seconds


def judge(engine: Analyzer, settings: TutorSettings, position: Position, dice: tuple[int, int],
          play: Play, ranked: list[RankedPlay], ply: int) -> Verdict:
    """The Verdict on `play`, given the engine's ranking of all plays at `ply`."""
    best = ranked[0]
    played = next(r for r in ranked if r.play.position == play.position)
    loss = 0.0 if played is best else max(
        _at(engine, best, ply).equity - _at(engine, played, ply).equity, 0.0)
    word = settings.word(loss)
    warn = WORDS.index(word) >= WORDS.index(settings.warn_at)
    return Verdict(position.turn, position, dice, play.move, best.play, loss, word, warn,
                   engine.name, ply)


def _at(engine: Analyzer, ranked: RankedPlay, ply: int) -> RankedPlay:
    """`ranked` evaluated at `ply` (a move filter may have left it at a lower one)."""
    return ranked if ranked.ply == ply else engine.judge(ranked.play, ply)
