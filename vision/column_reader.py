"""The learned checker reader: each point column (and half of the bar) read by a small net
that counts the checkers by their shape and says which set they belong to.

It needs nothing learned at calibration: only the field corners and geometry. It is trained
by benchmarks/train_checkers.py on the named looks of `synthetic.looks` and runs with OpenCV's
DNN module (`vision/models/checkers.onnx`). Each row is read beside what its place looks
like bare: first the frame's medians, then, for the points that reading is unsure of, its own
row's bare points (light seldom falls alike on both rows). A row it is unsure of is read again
mirrored left to right (the net was trained on both) and the two judgements averaged, and a
tall pile is counted again with more pixels (`vision.piles`, when installed).
Besides the board it gives each point's likely readings with their probabilities (the
Observation's `point_options`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from ..calibration.rectify import FieldView
from . import models, piles
from .columns import (
    HEIGHT,
    ROW_COLOURS,
    WIDTH,
    Columns,
    base_colours,
    board_references,
    references,
    row_references,
    softmax,
)

MODEL = models.FOLDER / models.CHECKERS
OPTIONS = 3  # readings kept per point
LAB_WEIGHTS = np.array([0.5, 1.0, 1.0], np.float32)  # lightness counts less than hue
CLEAR = 20.0  # Lab distance between two sets' colours that makes them two clear groups
SURE = 0.51  # a row the net judges this far from 0.5 keeps the net's judgement (0.51: none)
NET_APART = 0.2  # the groups' average judgements differ this much: the net says which is Black
BY_CALIBRATION = 0.95  # how sure a group is Black when the learned colours say so
BY_LIGHTNESS = 0.75  # ... when it is only the darker group (players may have swapped sets)
ONE_SET = 0.5  # two groups each this much nearer one set's colour than the other's are one set
OWN_SAY = 0.001  # the net's own judgement of a row blended into its group's: it breaks ties
CELL = 4  # patches are compared in CELL x CELL pixel averages (sensor noise averages out)
TINY = 1e-12  # a probability too small to divide by
MISCOUNT = 0.2  # over 15 of a set: a count one off is this likely as read, two off its square
STILL = 12.0  # a patch none of whose cells moved this far since the net read it keeps its reading
SECOND_LOOK = 0.8  # a row the net is less sure of its count than this is read again, mirrored
OWN_ROW = 0.99  # a point read less sure than this is read again beside its own row's bare points


def net(model: Path = MODEL) -> cv2.dnn.Net:
    # OpenCV 5's classic engine runs this net a little faster than its new one, with the same
    # outputs (26 patches on one core: 10.6 ms against 11.5; docs/vision-log.md)
    return models.load(model, cv2.dnn.ENGINE_CLASSIC)


@dataclass(frozen=True)
class Reading:
    """The board as the columns read it."""

    points: list[int]
    bar: dict
    options: list[list[list]]  # per point: [signed count, probability], likeliest first
    margin: float  # the least sure row's probability of its reading


class ColumnReader:
    """Reads the checkers of frames seen through one calibration."""

    def __init__(self, view: FieldView, model: Path = MODEL, sets: tuple | None = None,
                 board: np.ndarray | None = None, pile_net: Path = piles.MODEL):
        """`sets`: the Lab colours of White's and Black's checkers seen at calibration (learned
        colours, or the start frame's sets kept with the board's look), which say which set
        each colour group is; without them White is the set the net finds lighter. `board`:
        what each row looks like bare on this board (`columns.adapted`, kept with the
        calibration): the net compares each row with it rather than with the frame's medians.
        `pile_net`: the pile counter's ONNX file (none there: no counter)."""
        self.columns = Columns(view)
        counter = piles.counter(pile_net)
        self.piles = piles.PileCounter(view, counter) if counter else None
        self.board = board if board is not None and board.shape == (26, HEIGHT, WIDTH, 3) \
            else None
        self.net = net(model)
        outside = self.columns.outside[:24]
        # points cut two ways (some from further out, at the picture's edge) make pooled
        # references that match neither cut: every point is then read again beside its own
        # row's bare points (own_rows)
        self.own_always = bool(outside.any() and not outside.all())
        self.sets = None if sets is None else np.array(sets, np.float32)
        self.first, self.second = Judgements(), Judgements()  # beside the frame's, the rows'
        self.last = self.first.counts, self.first.dark  # the last reading (a first is whole)

    def read(self, image: np.ndarray) -> Reading:
        patches = self.columns.cut(image)
        counts, dark, refs = self.judge(patches)
        if self.piles:
            counts = self.piles.recount(image, counts, refs)
        likeliest = counts.argmax(1)
        dark = group_by_contrast(base_colours(patches), dark, likeliest > 0, self.sets, likeliest)
        table, board = row_tables(counts, dark), None
        if over_fifteen(table):
            table, board = at_most_fifteen(table)
        options = row_options(table, board)
        signed = [row[0][0] for row in options]  # the likeliest signed count of each row
        bar = {"white": 0, "black": 0}
        for n in signed[24:]:
            bar["white" if n > 0 else "black"] += abs(n)
        sure = [row[0][1] for row in options]
        return Reading(signed[:24], bar, options[:24], float(min(sure)))

    def learn(self, image: np.ndarray, counts, dice_xys=()) -> np.ndarray:
        """A frame whose 26 rows' signed counts the player confirmed: each row bare there and
        under no die (`dice_xys`, field coordinates) becomes this board's look; the others keep
        theirs (or, before any, take the frame's medians: `columns.board_references`). Returns
        the board's look, which the reader compares each row with from now on."""
        patches = self.columns.cut(image)
        taken = (np.asarray(counts) != 0) | self.columns.holding(dice_xys)
        if self.board is None:
            self.board = board_references(patches, np.where(taken, 1, 0))
        else:
            self.board = np.where(taken[:, None, None, None], self.board, patches)
        return self.board

    def judge(self, patches: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The net's count probabilities and dark-set probability per patch, each patch seen
        beside what its place looks like bare: the board's look when adapted; else the frame's
        `columns.references`, and then, for the points that reading is unsure of, its own
        row's (`own_rows`). Third, the references the rows were first read beside."""
        if self.board is not None:
            return *self.first.judge(patches, self.board, self.logits)[:2], self.board
        refs = references(patches)
        counts, dark, changed = self.first.judge(patches, refs, self.logits)
        if changed.any():  # else the reading stands: nothing moved, so neither did the rows
            self.last = self.own_rows(patches, refs, counts, dark)
        return self.last[0].copy(), self.last[1].copy(), refs

    def own_rows(self, patches: np.ndarray, refs: np.ndarray, counts: np.ndarray,
                 dark: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """`counts` and `dark`, read beside the frame's references `refs`, with the points
        they are less than OWN_ROW sure of read again beside their own row's bare points of
        their colour, bare as `counts` read them (`columns.row_references`). When some points
        are cut from further out than others (`columns.near_edge`: one row runs along the
        picture's edge), the frame's references mix patches cut two ways and show neither, so
        every point is read again (real photos: docs/vision-log.md)."""
        unsure = counts.max(1) < (np.inf if self.own_always else OWN_ROW)
        unsure[24:] = False  # the bar halves' references are each other
        if unsure.any():
            colours = [group for group in ROW_COLOURS if unsure[group].any()]
            own = row_references(patches, counts.argmax(1) == 0, refs, colours)
            again, dark_again, _ = self.second.judge(patches, own, self.logits, unsure)
            counts[unsure], dark[unsure] = again[unsure], dark_again[unsure]
        return counts, dark

    def logits(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The count and colour logits of the net's inputs `x`. The rows the net is less than
        SECOND_LOOK sure of their count are read again mirrored left to right (patch and
        reference alike) and the two logits averaged: the mirrored row is as true a view of
        it, and the net slips on the two differently (real photos: docs/vision-log.md)."""
        self.net.setInput(x)
        count, colour = (a.copy() for a in self.net.forward(["count", "colour"]))
        unsure = softmax(count).max(1) < SECOND_LOOK
        if unsure.any():
            self.net.setInput(np.ascontiguousarray(x[unsure][..., ::-1]))
            more_count, more_colour = self.net.forward(["count", "colour"])
            count[unsure] = (count[unsure] + more_count) / 2
            colour[unsure] = (colour[unsure] + more_colour) / 2
        return count, colour


class Judgements:
    """The net's last judgement of each of the 26 rows, kept while its input stays still: a
    patch whose input (patch and reference) has not changed since the net last read it (a
    video of a still board) keeps that reading, so the net runs only on the inputs that
    changed."""

    def __init__(self):
        # each input's cells when the net last read it (infinitely far: not read yet)
        self.seen = np.full((26, HEIGHT // CELL, WIDTH // CELL, 6), np.inf, np.float32)
        self.counts = np.zeros((26, 16), np.float32)
        self.dark = np.zeros(26, np.float32)

    def judge(self, patches: np.ndarray, refs: np.ndarray, logits,
              rows: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Count probabilities (26, 16) and dark-set probabilities (26,) of `patches` each
        beside its reference in `refs`, read by `logits` where the input changed (of `rows`,
        a bool mask, when given; the others keep what was read last), and which were read."""
        cells = np.concatenate([cell_means(patches), cell_means(refs)], axis=-1)
        changed = np.abs(cells - self.seen).max((1, 2, 3)) > STILL
        if rows is not None:
            changed &= rows
        if changed.any():
            count_logits, colour_logits = logits(pair_input(patches[changed], refs[changed]))
            self.counts[changed] = softmax(count_logits)
            self.dark[changed] = softmax(colour_logits)[:, 1]
            self.seen[changed] = cells[changed]
        return self.counts.copy(), self.dark.copy(), changed


def cell_means(patches: np.ndarray) -> np.ndarray:
    """Each patch in CELL x CELL pixel averages: (N, HEIGHT / CELL, WIDTH / CELL, 3) float."""
    small = cv2.resize(patches.reshape(-1, WIDTH, 3), None, fx=1 / CELL, fy=1 / CELL,
                       interpolation=cv2.INTER_AREA)
    return small.reshape(len(patches), HEIGHT // CELL, WIDTH // CELL, 3).astype(np.float32)


def pair_input(patches: np.ndarray, refs: np.ndarray) -> np.ndarray:
    """The net's input (NCHW float centred on zero): each patch's three channels, then its
    reference's (`columns.beside_references`), built straight into one array."""
    x = np.empty((len(patches), 6, HEIGHT, WIDTH), np.float32)
    x[:, :3] = patches.transpose(0, 3, 1, 2)
    x[:, 3:] = refs.transpose(0, 3, 1, 2)
    x *= np.float32(1 / 255)
    x -= np.float32(0.5)
    return x


def group_by_contrast(lab: np.ndarray, dark: np.ndarray, occupied: np.ndarray,
                      sets: np.ndarray | None = None,
                      counts: np.ndarray | None = None) -> np.ndarray:
    """Each occupied row's probability of the dark set (Black), after grouping the rows by
    their checkers' colours: the net's per-patch judgement starts two groups (lightness does
    when the net puts every row in one), rows move to the group whose colour is nearer
    (k-means). When that puts more than 15 checkers (`counts`: each row's likeliest count) in
    a group, lightness starts the groups too and the grouping with fewer over 15 is kept: one
    row the net takes for dark checkers (a shadow, a knob) makes no group of its own. Which
    group is which set: each group the set whose colour in `sets` (White's and Black's Lab
    colours seen at calibration) is nearer, when given (both groups may be one set, lit and
    shaded); else Black is the one the net finds darker on average, as sure
    as the groups' average judgements differ; else, when the net hardly tells them apart, the
    darker one. The rows the net itself is unsure of take their group's side, with a
    thousandth of their own judgement blended in (OWN_SAY): a board read with more than 15 of
    a set then gives up the row the net doubts most, not the first of rows its group makes
    equally sure (real photos: docs/vision-log.md). A board whose checkers do not split into two
    clear colours keeps the net's judgement."""
    rows = np.flatnonzero(occupied)
    if len(rows) < 2:
        return dark
    held = np.zeros(len(rows)) if counts is None else counts[rows]
    best = None
    for start in (dark[rows] > 0.5, lab[rows, 0] < lab[rows, 0].mean()):
        if start.all() or not start.any():
            continue
        group, centres = _k_means(lab[rows], start)
        over = sum(max(0, held[group == g].sum() - 15) for g in (False, True))
        if best is None or over < best[0]:
            best = over, group, centres
        if over == 0:
            break
    if best is None:
        return dark
    _, group, centres = best
    if np.linalg.norm((centres[0] - centres[1]) * LAB_WEIGHTS) < CLEAR:
        return dark
    means = [float(dark[rows][group == g].mean()) for g in (False, True)]
    blacks, sure = _black_groups(centres, means, sets)
    grouped = np.where(group, *(sure if b else 1 - sure for b in blacks[::-1]))
    grouped = (1 - OWN_SAY) * grouped + OWN_SAY * dark[rows]
    out = dark.copy()
    unsure = np.abs(dark[rows] - 0.5) < SURE
    out[rows[unsure]] = grouped[unsure]
    return out


def _k_means(lab: np.ndarray, group: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Two groups of Lab colours from the split `group` (bool): each colour moved to the group
    whose centre is nearer, a few rounds; the groups and their two centres."""
    for _ in range(5):
        centres = np.stack([lab[group == g].mean(0) for g in (False, True)])
        distance = np.linalg.norm((lab[:, None] - centres[None]) * LAB_WEIGHTS, axis=2)
        new = distance[:, 1] < distance[:, 0]
        if new.all() or not new.any() or (new == group).all():
            break
        group = new
    return group, centres


def _black_groups(centres: np.ndarray, means: list[float], sets: np.ndarray | None
                  ) -> tuple[tuple[bool, bool], float]:
    """Whether each of two colour groups is Black, and how sure that is. With the sets'
    colours known (`sets`: White's, Black's), the pairing of groups and sets that lies closer;
    but two groups each clearly nearer one set (ONE_SET) are both that set: one set alone on
    the field, lit and shaded. Else one group is Black: the one the net finds darker, or
    failing that the darker."""
    if sets is not None:
        d = np.linalg.norm((centres[:, None] - sets[None]) * LAB_WEIGHTS, axis=2)
        near = d.argmin(1)
        if near[0] == near[1] and (d.min(1) < ONE_SET * d.max(1)).all():
            return (bool(near[0]),) * 2, BY_CALIBRATION
        second = bool(d[0, 0] + d[1, 1] < d[0, 1] + d[1, 0])
        return (not second, second), BY_CALIBRATION
    if abs(means[1] - means[0]) >= NET_APART:
        second = means[1] > means[0]
        return (not second, second), 0.5 + abs(means[1] - means[0]) / 2
    second = bool(centres[1, 0] < centres[0, 0])
    return (not second, second), BY_LIGHTNESS


def row_tables(counts: np.ndarray, dark: np.ndarray) -> np.ndarray:
    """Each row's probabilities of holding l light and d dark checkers: (rows, 16, 16), where
    only l = 0 or d = 0 can be likely."""
    table = np.zeros((len(counts), 16, 16), np.float64)
    table[:, 0, 0] = counts[:, 0]
    table[:, 1:, 0] = counts[:, 1:] * (1 - dark)[:, None]
    table[:, 0, 1:] = counts[:, 1:] * dark[:, None]
    return table


def over_fifteen(table: np.ndarray) -> bool:
    """Whether the rows' likeliest readings put more than 15 checkers of a set on the board."""
    light, dark = np.unravel_index(table.reshape(len(table), -1).argmax(1), (16, 16))
    return light.sum() > 15 or dark.sum() > 15


SIGNED = np.r_[0, 1:16, -np.arange(1, 16)]  # the signed count of each of a row's readings
PLACES = [(int(n), 0) if n >= 0 else (0, int(-n)) for n in SIGNED]  # each one's (light, dark)
READINGS = (slice(None), *np.array(PLACES).T)  # index of the rows' readings in their tables


def miscounted(table: np.ndarray) -> np.ndarray:
    """Each row's table with every signed count also likely MISCOUNT times as much one off,
    MISCOUNT squared two off, and so on: a board read with more than 15 checkers of a set has
    a reading wrong somewhere, and a net sure of a whole pile is far less often wrong by the
    whole pile than a net sure of one checker is by that one (real photos: docs/vision-log.md)."""
    spread = table[READINGS] @ SPREAD
    out = np.zeros_like(table)
    out[READINGS] = spread / np.maximum(spread.sum(1, keepdims=True), TINY)
    return out


SPREAD = MISCOUNT ** np.abs(SIGNED[:, None] - SIGNED[None, :])


def _splits() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each reading of a row (n light: room for 15 - n light and 15 dark; n dark: the
    other way), every pair of (light, dark) totals of the rows before it and after it that
    fits in its room, as flat indices of the 16 x 16 totals, and where each reading's run of
    pairs starts: the others' best for every reading is one gather and one `reduceat`."""
    before, after, starts = [], [], []
    for on_light, on_dark in PLACES:
        light, dark = 15 - on_light, 15 - on_dark
        starts.append(len(before))
        for a, b in np.ndindex(light + 1, dark + 1):
            before.append(a * 16 + b)
            after.append((light - a) * 16 + dark - b)
    return np.array(before), np.array(after), np.array(starts)


SPLITS = _splits()


def _logs(table: np.ndarray) -> np.ndarray:
    """Log probabilities, -inf where a reading cannot be (a row with both sets on it)."""
    out = np.full(table.shape, -np.inf)
    np.log(table, out=out, where=table > 0)
    return out


def _with_row(totals: np.ndarray, row: np.ndarray) -> np.ndarray:
    """The best log probability of each (light, dark) total of some rows and one row more
    (`row`'s log table: n light or n dark checkers, never both), totals over 15 dropped; each
    (..., 16, 16), for several at once."""
    low = np.full((*totals.shape[:-2], 15, 16), -np.inf)
    by_light = sliding_window_view(np.concatenate([low, totals], -2), 16, axis=-2)
    by_dark = sliding_window_view(np.concatenate([low.swapaxes(-1, -2), totals], -1), 16, axis=-1)
    return np.maximum((by_light + row[..., None, None, ::-1, 0]).max(-1),
                      (by_dark + row[..., None, None, 0, ::-1]).max(-1))


def at_most_fifteen(table: np.ndarray) -> tuple[np.ndarray, list[int]]:
    """The likeliest board with at most 15 checkers of each set, from the rows' tables made
    `miscounted`: its signed count per row, and per row the probability of each reading as the
    likeliest board with that reading on that row makes it (rows' tables, each summing to 1)."""
    logs = _logs(miscounted(table))
    rows = len(logs)
    ends = np.full((2, 16, 16), -np.inf)  # the best totals of the first i rows
    ends[:, 0, 0] = 0.0  # and of the last i: none yet
    before, after = [ends[0]], [ends[1]]
    for i in range(rows):
        ends = _with_row(ends, logs[[i, rows - 1 - i]])
        before.append(ends[0])
        after.append(ends[1])
    first = np.stack(before[:-1]).reshape(rows, -1).T  # the rows before each row
    last = np.maximum.accumulate(np.maximum.accumulate(np.stack(after[::-1][1:]), 1), 2)
    last = last.reshape(rows, -1).T  # and after it, the best of each total or fewer
    room = np.full(logs.shape, -np.inf)  # the other rows' best that leaves room for a reading
    room[READINGS] = np.maximum.reduceat(
        first[SPLITS[0]] + last[SPLITS[1]], SPLITS[2]).T
    best = logs + room
    fitted = np.exp(best - best.max((1, 2), keepdims=True))
    return fitted / fitted.sum((1, 2), keepdims=True), _likeliest(before, logs)


def _likeliest(before: list[np.ndarray], logs: np.ndarray) -> list[int]:
    """The signed counts of the board that `before` (the best totals of the first rows) ends
    on, traced back row by row; of equally likely readings of a row, the first in SIGNED's
    order (0, 1 ... 15, -1 ... -15)."""
    light, dark = np.unravel_index(np.argmax(before[-1]), (16, 16))
    signed = []
    for i in range(len(logs) - 1, -1, -1):
        for on_light, on_dark in PLACES:
            rest = light - on_light, dark - on_dark
            if min(rest) >= 0 and before[i][rest] + logs[i, on_light, on_dark] == \
                    before[i + 1][light, dark]:
                break
        signed.append(on_light - on_dark)
        light, dark = rest
    return signed[::-1]


def row_options(tables: np.ndarray, first: list[int] | None = None) -> list[list[list]]:
    """Each row's likeliest signed counts (+ light, - dark) with their probabilities, from its
    table (`row_tables`); equally likely ones in the order 0, 1..15, -1..-15, but `first`'s
    reading of the row (the likeliest board's) before the others as likely as it."""
    probs = tables[READINGS]
    # thousandths rounded down (the sum stays <= 1), past the float error of the tables' sums
    kept = np.floor(probs * 1000 + 1e-6) / 1000
    chosen = np.zeros(probs.shape, bool) if first is None else SIGNED == np.c_[first]
    best = np.lexsort((~chosen, -kept))[:, :OPTIONS]
    kept = np.take_along_axis(kept, best, 1)
    return [[[int(n), float(p)] for n, p in zip(SIGNED[b], k, strict=True)]
            for b, k in zip(best, kept, strict=True)]
