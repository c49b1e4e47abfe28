"""A game played turn by turn, and a match of games to N points with the Crawford rule.

Every illegal action raises IllegalAction with a reason a player understands.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from .board import BLACK, START, WHITE, Color, Position
from .ids import MatchState
from .moves import Play, Step, legal_plays
from .referee import resolve


class IllegalAction(ValueError):
    """An action the rules do not allow now (rolling twice, doubling after rolling, ...)."""


@dataclass(frozen=True, slots=True)
class Rules:
    """Settings of one game. Jacoby and beavers apply to money play only."""

    cube_limit: int = 64
    match_length: int = 0
    crawford_game: bool = False
    jacoby: bool = False
    beavers: bool = False


@dataclass(frozen=True, slots=True)
class Action:
    """One entry of a game record. `kind`: move (play None = no legal move), double, take,
    drop, beaver or resign; `cube` is the cube value the action leaves (or offers)."""

    color: Color
    kind: str
    dice: tuple[int, int] | None = None
    play: Play | None = None
    cube: int | None = None


@dataclass(frozen=True, slots=True)
class Result:
    """How a game ended: the winner, 1/2/3 for single/gammon/backgammon, and the points."""

    winner: Color
    multiplier: int
    cube: int
    how: str

    @property
    def points(self) -> int:
        return self.multiplier * self.cube


@dataclass(frozen=True, slots=True)
class _State:
    position: Position
    dice: tuple[int, int] | None = None
    doubled_by: Color | None = None
    result: Result | None = None
    started: bool = False
    record: tuple[Action, ...] = ()


@dataclass
class Game:
    """One game. Without a position it starts from the opening roll; with one, its turn rolls."""

    rules: Rules = field(default_factory=Rules)
    start: Position | None = None
    _states: list[_State] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._states = [_State(self.start or START, started=self.start is not None)]

    # --- state -------------------------------------------------------------------------
    @property
    def state(self) -> _State:
        return self._states[-1]

    @property
    def board(self) -> Position:
        return self.state.position

    @property
    def turn(self) -> Color:
        return self.board.turn

    @property
    def dice(self) -> tuple[int, int] | None:
        return self.state.dice

    @property
    def result(self) -> Result | None:
        return self.state.result

    @property
    def record(self) -> tuple[Action, ...]:
        return self.state.record

    @property
    def doubled_by(self) -> Color | None:
        return self.state.doubled_by

    @property
    def before_last(self) -> Position | None:
        """The position before the last action (the one `undo` returns to); None when
        nothing has happened yet."""
        return self._states[-2].position if len(self._states) > 1 else None

    def legal_plays(self) -> list[Play]:
        """Legal plays for the dice on the board (empty when they cannot be played)."""
        self._need_dice()
        return legal_plays(self.board, self.dice)

    def _push(self, record: Action | None = None, **changes) -> None:
        state = self.state
        if record is not None:
            changes["record"] = state.record + (record,)
        self._states.append(replace(state, **changes))

    def undo(self) -> None:
        """Take back the last action (roll, move or cube action)."""
        if len(self._states) == 1:
            raise IllegalAction("there is nothing to take back")
        self._states.pop()

    # --- rolling -----------------------------------------------------------------------
    def opening(self, white_die: int, black_die: int) -> Color | None:
        """The opening roll, one die each: the higher die's side plays both (dice stored high
        first); a tie rolls again (returns None)."""
        self._need_playing()
        if self.state.started:
            raise IllegalAction("the opening roll is over")
        _check_die(white_die)
        _check_die(black_die)
        if white_die == black_die:
            return None
        first = WHITE if white_die > black_die else BLACK
        dice = (max(white_die, black_die), min(white_die, black_die))
        self._push(position=replace(self.board, turn=first), dice=dice, started=True)
        return first

    def roll(self, d1: int, d2: int) -> None:
        """The player on roll rolled d1 and d2."""
        self._need_playing()
        if not self.state.started:
            raise IllegalAction("the game starts with the opening roll, one die each")
        if self.dice is not None:
            raise IllegalAction(f"{self.turn.key} has rolled already: play the {_roll(self.dice)}")
        self._need_no_double()
        _check_die(d1)
        _check_die(d2)
        self._push(dice=(d1, d2))

    # --- moving ------------------------------------------------------------------------
    def move(self, move: str | Play | list[Step] | None) -> Play | None:
        """Play the dice: notation, a Play or checker movements; None or "" when the roll
        cannot be played. Returns the play made."""
        self._need_dice()
        mover, dice = self.turn, self.dice
        if move is None or move == "" or move == []:
            if legal_plays(self.board, dice):
                raise IllegalAction(f"the {_roll(dice)} can be played: a move must be made")
            play = None
            after = self.board.swap_turn()
        elif isinstance(move, Play):
            if move not in legal_plays(self.board, dice):
                raise IllegalAction(f"{move.move} is not a legal play of the {_roll(dice)}")
            play, after = move, move.position
        else:
            play = resolve(self.board, dice, move)
            after = play.position
        result = None
        winner = after.winner()
        if winner is not None:
            result = Result(winner, self._multiplier(after, winner), after.cube, "bear-off")
        self._push(Action(mover, "move", dice, play), position=after, dice=None, result=result)
        return play

    def _multiplier(self, pos: Position, winner: Color) -> int:
        jacoby_single = self.rules.jacoby and not self.rules.match_length
        if jacoby_single and pos.cube_owner is None:
            return 1
        return pos.result_multiplier(winner)

    # --- the cube ----------------------------------------------------------------------
    def may_double(self) -> str | None:
        """None when the player on roll may double now, else the reason they may not."""
        if self.result is not None:
            return "the game is over"
        if self.doubled_by is not None:
            return "a double is waiting for an answer"
        if self.dice is not None:
            return "you may double only before rolling"
        if not self.state.started:
            return "nobody may double before the opening roll"
        if self.rules.crawford_game:
            return "no doubling in the Crawford game"
        owner = self.board.cube_owner
        if owner is not None and owner is not self.turn:
            return f"the cube belongs to {owner.key}"
        if self.board.cube * 2 > self.rules.cube_limit:
            return f"the cube is at its limit ({self.rules.cube_limit})"
        return None

    def double(self) -> None:
        """The player on roll offers to double the stake."""
        reason = self.may_double()
        if reason:
            raise IllegalAction(reason)
        self._push(Action(self.turn, "double", cube=self.board.cube * 2), doubled_by=self.turn)

    def take(self) -> None:
        """The doubled player takes: the cube doubles and is theirs."""
        doubler = self._need_double()
        cube = self.board.cube * 2
        self._push(Action(doubler.other, "take", cube=cube), doubled_by=None,
                   position=self.board.with_cube(cube, doubler.other))

    def beaver(self) -> None:
        """Money play with beavers: the doubled player takes and redoubles at once, keeping
        the cube at four times its value."""
        doubler = self._need_double()
        if not self.rules.beavers or self.rules.match_length:
            raise IllegalAction("beavers are not allowed")
        if self.board.cube * 4 > self.rules.cube_limit:
            raise IllegalAction(f"the cube is at its limit ({self.rules.cube_limit})")
        cube = self.board.cube * 4
        self._push(Action(doubler.other, "beaver", cube=cube), doubled_by=None,
                   position=self.board.with_cube(cube, doubler.other))

    def drop(self) -> None:
        """The doubled player passes and loses the game at the cube value before the double."""
        doubler = self._need_double()
        result = Result(doubler, 1, self.board.cube, "drop")
        self._push(Action(doubler.other, "drop", cube=self.board.cube), doubled_by=None,
                   result=result)

    def resign(self, color: Color, multiplier: int = 1) -> None:
        """`color` gives up the game as a single (1), gammon (2) or backgammon (3)."""
        self._need_playing()
        if multiplier not in (1, 2, 3):
            raise IllegalAction("a resignation is a single, a gammon or a backgammon (1, 2, 3)")
        result = Result(color.other, multiplier, self.board.cube, "resign")
        self._push(Action(color, "resign", cube=multiplier * self.board.cube), result=result)

    # --- checks ------------------------------------------------------------------------
    def _need_playing(self) -> None:
        if self.result is not None:
            raise IllegalAction("the game is over")

    def _need_no_double(self) -> None:
        if self.doubled_by is not None:
            raise IllegalAction(f"{self.doubled_by.other.key} must take or pass the double first")

    def _need_dice(self) -> None:
        self._need_playing()
        self._need_no_double()
        if self.dice is None:
            raise IllegalAction(f"{self.turn.key} must roll first")

    def _need_double(self) -> Color:
        self._need_playing()
        if self.doubled_by is None:
            raise IllegalAction("there is no double to answer")
        return self.doubled_by


@dataclass
class Match:
    """Games to `length` points (0 = a money session) with the Crawford rule."""

    length: int = 0
    cube_limit: int = 64
    jacoby: bool = False
    beavers: bool = False
    games: list[Game] = field(default_factory=list)

    @property
    def score(self) -> tuple[int, int]:
        """Points won so far by White and Black, counting finished games."""
        return _points(self.games)

    def winner(self) -> Color | None:
        """The side that has reached the match length, if any (never in money play)."""
        if self.length:
            for color in Color:
                if self.score[color] >= self.length:
                    return color
        return None

    def _crawford_next(self) -> bool:
        if self.length < 2 or any(g.rules.crawford_game for g in self.games):
            return False
        return self.length - 1 in self.score

    def new_game(self, position: Position | None = None) -> Game:
        """Start the next game (the last one must be over and the match not decided)."""
        if self.games and self.games[-1].result is None:
            raise IllegalAction("the current game is not over")
        if self.winner() is not None:
            raise IllegalAction(f"the match is over: {self.winner().key} won")
        rules = Rules(self.cube_limit, self.length, self._crawford_next(), self.jacoby,
                      self.beavers)
        game = Game(rules, position)
        self.games.append(game)
        return game

    def state(self) -> MatchState:
        """The Match ID fields for the current game as it stands."""
        game = self.games[-1]
        board, dice = game.board, game.dice or (0, 0)
        turn = board.turn if game.doubled_by is None else game.doubled_by.other
        score = _points(self.games[:-1])
        game_state = 1 if game.result is None else (4 if game.result.how == "drop" else 2)
        return MatchState(
            cube=board.cube, cube_owner=board.cube_owner, dice_owner=board.turn,
            crawford=game.rules.crawford_game, game_state=game_state, turn=turn,
            double_offered=game.doubled_by is not None, dice=dice, length=self.length,
            score=score, jacoby=self.jacoby and not self.length,
        )


def _points(games: list[Game]) -> tuple[int, int]:
    won = [0, 0]
    for game in games:
        if game.result is not None:
            won[game.result.winner] += game.result.points
    return won[0], won[1]


def _check_die(d: int) -> None:
    if not isinstance(d, int) or not 1 <= d <= 6:
        raise IllegalAction(f"a die shows 1 to 6, not {d!r}")


def _roll(dice: tuple[int, int]) -> str:
    return f"{dice[0]}-{dice[1]}"
