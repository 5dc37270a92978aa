"""Best play for Search: the highest team score the table can still reach, and how to get it.

Search is cooperative and has no chance after the start rooms, so the best team score is a
plain maximum over the game tree. :func:`solve` is a depth-first branch and bound:

- a node is (player on turn, rooms, each player's visited rooms as a bit mask); the tracks
  follow from the masks, so a transposition table keyed by the node shares work between
  move orders that meet;
- the bound: a player's track can grow at most by the dots of the rooms still reachable for
  them (through doors and corridors, avoiding their own visits), less the dead ends they
  cannot pass through (a path ends in at most one); with every track between its current
  value ``L`` and that ceiling ``U``, ``5 * min - 4 * max`` is at most
  ``5 * Umin - 4 * max(Lmax, Umin)``; branches that cannot beat the best game found so far
  are cut;
- children are tried best bound first, ties broken by Warnsdorff's rule (fewest ways on
  first), after a greedy first game and limited discrepancy probes, so good games turn up
  early even where the search cannot finish.

Given a node budget or a ``should_stop`` callback (the core reads no clock: the caller decides
what a time limit is), it stops early and still returns the best game found (a lower bound
with its moves) and the bound it proved (an upper bound): the true best lies between.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Optional

from companion.games.search.errors import SearchError
from companion.games.search.events import Move
from companion.games.search.house import House, Room
from companion.games.search.rules import (
    PENALTY,
    DotRule,
    Phase,
    SearchState,
    Way,
    apply,
    legal,
    moves_for,
    next_turn,
    team_score,
)

_log = logging.getLogger(__name__)

# A line of moves shared between table entries: (room, rest) pairs ending in None.
Line = Optional[tuple[Room, "Line"]]
_EXACT, _UPPER = 0, 1
_TABLE_LIMIT = 250_000  # entries before a table is cleared: about 100 MB at most (a Pi)


@dataclass(frozen=True)
class Progress:
    """What a long solve reports now and then."""

    nodes: int
    best: int | None  # best team score found so far
    line_length: int


@dataclass(frozen=True)
class Solution:
    """The best game from a position.

    ``best`` is reached by playing ``line`` (rooms in turn order); ``bound`` is proved: no game
    from here scores more. ``exact`` when they meet; ``stopped`` when a limit cut the search.
    """

    best: int
    bound: int
    line: tuple[Room, ...]
    nodes: int
    stopped: bool

    @property
    def exact(self) -> bool:
        return self.best == self.bound


@dataclass(frozen=True)
class Hint:
    """The move the solver advises for the player on turn."""

    player: int
    room: Room
    way: Way
    solution: Solution


@dataclass(frozen=True)
class Review:
    """A finished (or abandoned) game set against the best play from its start."""

    reached: int  # the team score the table reached (or stands at)
    solution: Solution  # best play from the same start rooms
    first_departure: int | None  # 1-based move where the table left every best line, if known


class _Search:
    def __init__(
        self,
        state: SearchState,
        node_limit: int | None,
        should_stop: Callable[[], bool] | None,
        on_progress: Callable[[Progress], None] | None,
        check_every: int,
    ) -> None:
        self.house: House = state.house
        self.rule: DotRule = state.options.dot_rule
        house = self.house
        self.dot_class = [0, 0, 0]
        for r in house.rooms:
            self.dot_class[house.dots[r] - 1] |= 1 << r
        # Dots that are on the track without being circled by a move: the start room's, or
        # minus it when the start does not score.
        self.offset = tuple(
            p.track - self.dots_of(_mask(p.path)) for p in state.players
        )
        self.links = tuple(
            tuple(house.adjacent(r)) + (house.partner[r],) for r in house.rooms
        )
        self.node_limit = node_limit
        self.should_stop = should_stop
        self.on_progress = on_progress
        self.check_every = max(1, check_every)
        self.nodes = 0
        # Only the mover's reach changes from a node to its children: the others' is cached.
        self.reached: dict[tuple[Room, int], int] = {}
        self.table: dict[tuple[int, tuple[int, ...], tuple[int, ...]], tuple[int, int, Line]] = {}
        self.best: int | None = None
        self.best_line: tuple[Room, ...] = ()
        self.path: list[Room] = []
        self.stopped = False
        self.probe_limit: int | None = None

    def dots_of(self, mask: int) -> int:
        d1, d2, d3 = self.dot_class
        return (mask & d1).bit_count() + 2 * (mask & d2).bit_count() + 3 * (mask & d3).bit_count()

    def tracks(self, masks: Sequence[int]) -> tuple[int, ...]:
        return tuple(self.dots_of(m) + off for m, off in zip(masks, self.offset))

    def reach(self, start: Room, seen: int) -> int:
        """Dots of the rooms a player could still reach, ignoring others and the dot rule."""
        key = (start, seen)
        known = self.reached.get(key)
        if known is not None:
            return known
        if len(self.reached) >= _TABLE_LIMIT:
            self.reached.clear()
        got = self.reached[key] = self._reach(start, seen)
        return got

    def _reach(self, start: Room, seen: int) -> int:
        links = self.links
        got = 0
        found = []
        stack = [start]
        mark = seen | (1 << start)
        while stack:
            r = stack.pop()
            for s in links[r]:
                if not (mark >> s) & 1:
                    mark |= 1 << s
                    got |= 1 << s
                    found.append(s)
                    stack.append(s)
        # A room joined to only one room of the path's possible rooms cannot be passed
        # through, only ended in: of those dead ends, a path takes at most one.
        open_ = got | (1 << start)
        dots = self.house.dots
        dead_sum = dead_max = 0
        for r in found:
            ways = 0
            for s in links[r]:
                if (open_ >> s) & 1:
                    ways += 1
                    if ways > 1:
                        break
            if ways <= 1:
                dead_sum += dots[r]
                dead_max = max(dead_max, dots[r])
        return self.dots_of(got) - dead_sum + dead_max

    def bound(self, positions: Sequence[Room], masks: Sequence[int], alpha: int | None) -> int:
        tracks = self.tracks(masks)
        high = max(tracks)
        ceiling: int | None = None
        # The smallest ceiling decides; try the shortest tracks first and stop as soon as the
        # partial minimum already proves the node cannot beat alpha.
        for p in sorted(range(len(tracks)), key=tracks.__getitem__):
            u = tracks[p] + self.reach(positions[p], masks[p])
            ceiling = u if ceiling is None or u < ceiling else ceiling
            if alpha is not None and _score_bound(ceiling, high) <= alpha:
                break
        assert ceiling is not None
        return _score_bound(ceiling, high)

    def tick(self) -> None:
        self.nodes += 1
        if self.node_limit is not None and self.nodes >= self.node_limit:
            self.stopped = True
        elif self.nodes % self.check_every == 0:
            if self.should_stop is not None and self.should_stop():
                self.stopped = True
            if self.on_progress is not None:
                self.on_progress(Progress(self.nodes, self.best, len(self.best_line)))

    def improve(self, value: int, tail: Line) -> None:
        if self.best is None or value > self.best:
            self.best = value
            self.best_line = tuple(self.path) + _flatten(tail)

    def dive(self, turn: int | None, positions: tuple[Room, ...], masks: tuple[int, ...]) -> None:
        """Play one game greedily (best bound first) so there is a game to show at once."""
        line: list[Room] = []
        while turn is not None:
            rooms, _ = moves_for(self.house, self.rule, positions, masks, turn)
            best: tuple[int, Room, int | None, tuple[Room, ...], tuple[int, ...]] | None = None
            for room in rooms:
                pos = positions[:turn] + (room,) + positions[turn + 1 :]
                msk = masks[:turn] + (masks[turn] | (1 << room),) + masks[turn + 1 :]
                nxt, _ = next_turn(self.house, self.rule, pos, msk, turn)
                b = self.bound(pos, msk, None) if nxt is not None else team_score(self.tracks(msk))
                if best is None or b > best[0]:
                    best = (b, room, nxt, pos, msk)
            assert best is not None
            _, room, turn, positions, masks = best
            line.append(room)
        value = team_score(self.tracks(masks))
        if self.best is None or value > self.best:
            self.best = value
            self.best_line = tuple(line)

    def children(
        self, turn: int, positions: tuple[Room, ...], masks: tuple[int, ...], static: int
    ) -> list[tuple[int, Room, int | None, tuple[Room, ...], tuple[int, ...]]]:
        """The moves from a node with their bounds, most promising first."""
        rooms, _ = moves_for(self.house, self.rule, positions, masks, turn)
        out = []
        for room in rooms:
            pos = positions[:turn] + (room,) + positions[turn + 1 :]
            msk = masks[:turn] + (masks[turn] | (1 << room),) + masks[turn + 1 :]
            nxt, _ = next_turn(self.house, self.rule, pos, msk, turn)
            if nxt is None:
                b = team_score(self.tracks(msk))
            else:
                b = min(static, self.bound(pos, msk, self.best))
            out.append((b, room, nxt, pos, msk))
        if len(out) > 1:
            out.sort(key=lambda c: (-c[0], self.onward(c[1], c[4][turn])))
        return out

    def onward(self, room: Room, seen: int) -> int:
        """Warnsdorff's tie-break: go first where fewest rooms lead on, saving the open ones
        for later, as a knight's tour does; a dead end (no way on) goes last."""
        free = sum(1 for s in self.links[room] if not (seen >> s) & 1)
        return free if free else 99

    def probe(
        self,
        turn: int | None,
        positions: tuple[Room, ...],
        masks: tuple[int, ...],
        static: int,
        discrepancies: int,
    ) -> None:
        """Limited discrepancy search: games that leave the best-first order at most
        ``discrepancies`` times. Spreads the early search over the whole game instead of its
        last moves, so good games turn up long before a full search could finish."""
        if turn is None:
            self.improve(team_score(self.tracks(masks)), None)
            return
        if self.stopped or (self.probe_limit is not None and self.nodes >= self.probe_limit):
            return
        self.tick()
        for i, (b, room, nxt, pos, msk) in enumerate(self.children(turn, positions, masks, static)):
            if i > 0 and discrepancies == 0:
                break
            if self.stopped or (self.best is not None and b <= self.best):
                continue
            self.path.append(room)
            self.probe(nxt, pos, msk, b, discrepancies - (i > 0))
            self.path.pop()

    def search(
        self, turn: int | None, positions: tuple[Room, ...], masks: tuple[int, ...], static: int
    ) -> tuple[int, Line, bool]:
        """(value, line, exact): ``exact`` values come with their line; others are bounds."""
        if turn is None:
            final = team_score(self.tracks(masks))
            self.improve(final, None)
            return final, None, True
        alpha_entry = self.best
        key = (turn, positions, masks)
        hit = self.table.get(key)
        if hit is not None:
            flag, stored, stored_line = hit
            if flag == _EXACT:
                self.improve(stored, stored_line)
                return stored, stored_line, True
            if alpha_entry is not None and stored <= alpha_entry:
                return stored, None, False
            static = min(static, stored)
        if self.stopped:
            return static, None, False
        self.tick()
        children = self.children(turn, positions, masks, static)
        value: int | None = None
        line: Line = None
        exact_any = False
        complete = True
        for b, room, nxt, pos, msk in children:
            alpha = self.best
            if self.stopped:
                complete = False
                v, child_line, exact = b, None, False
            elif alpha is not None and b <= alpha:
                v, child_line, exact = b, None, False
            else:
                self.path.append(room)
                v, child_line, exact = self.search(nxt, pos, msk, b)
                self.path.pop()
                if not exact and self.stopped:
                    complete = False
            if value is None or v > value or (v == value and exact and not exact_any):
                value = v
                if exact:
                    line = (room, child_line)
                    exact_any = True
                else:
                    line = None
                    exact_any = False
        assert value is not None  # a player on turn always has a move
        if not complete:
            return value, None, False
        if len(self.table) >= _TABLE_LIMIT:
            self.table.clear()
        if alpha_entry is None or value > alpha_entry:
            # Above alpha the maximum comes from a child searched exactly (module notes).
            assert exact_any
            self.table[key] = (_EXACT, value, line)
            return value, line, True
        self.table[key] = (_UPPER, value, None)
        return value, None, False


def _score_bound(ceiling: int, high: int) -> int:
    """Best ``PENALTY*min - (PENALTY-1)*max`` with min <= ceiling and max >= high."""
    return PENALTY * ceiling - (PENALTY - 1) * max(high, ceiling)


def _mask(rooms: Sequence[Room]) -> int:
    m = 0
    for r in rooms:
        m |= 1 << r
    return m


def _flatten(line: Line) -> tuple[Room, ...]:
    out = []
    while line is not None:
        room, line = line
        out.append(room)
    return tuple(out)


def solve(
    state: SearchState,
    *,
    node_limit: int | None = None,
    should_stop: Callable[[], bool] | None = None,
    on_progress: Callable[[Progress], None] | None = None,
    check_every: int = 5000,
    probes: int = 2,
    probe_nodes: int = 50_000,
) -> Solution:
    """The best team score reachable from ``state`` (see the module docstring).

    Before the exhaustive search, up to ``probe_nodes`` positions go to limited discrepancy
    probes (games leaving the best-first order once, then twice: ``probes``), which find
    good games early on big houses; ``probes=0`` skips them.
    """
    if state.phase is Phase.START:
        raise SearchError("every player needs a start room before the game can be solved")
    if state.phase is Phase.OVER:
        return Solution(team_score(state.tracks), team_score(state.tracks), (), 0, False)
    s = _Search(state, node_limit, should_stop, on_progress, check_every)
    positions = state.positions
    masks = state.visited_masks()
    root = s.bound(positions, masks, None)
    s.dive(state.turn, positions, masks)
    s.probe_limit = probe_nodes
    for k in range(1, probes + 1):
        if s.stopped or s.nodes >= probe_nodes:
            break
        s.probe(state.turn, positions, masks, root, k)
    s.probe_limit = None
    value, _, exact = s.search(state.turn, positions, masks, root)
    assert s.best is not None
    bound = value if not exact else s.best
    bound = max(bound, s.best)
    _log.debug("solved: best %s bound %s nodes %d stopped %s", s.best, bound, s.nodes, s.stopped)
    return Solution(s.best, bound, s.best_line, s.nodes, s.stopped)


def hint(
    state: SearchState,
    *,
    node_limit: int | None = None,
    should_stop: Callable[[], bool] | None = None,
    on_progress: Callable[[Progress], None] | None = None,
) -> Hint:
    """The first move of the best game found from ``state``, for the player on turn."""
    rooms, way = legal(state)
    if not rooms:
        raise SearchError("nobody is to move: the game is over or has not started")
    solution = solve(
        state, node_limit=node_limit, should_stop=should_stop, on_progress=on_progress
    )
    room = solution.line[0] if solution.line else rooms[0]
    return Hint(state.turn, room, way, solution)


def review(
    start: SearchState,
    moves: Sequence[str],
    *,
    node_limit: int | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> Review:
    """Replay ``moves`` from ``start`` (a refused move raises) and set the result against
    best play from the same start rooms.

    When the best is proved, each position of the game is solved too, to name the first
    move after which the best score was out of reach (small houses, endgames); otherwise
    ``first_departure`` stays ``None``.
    """
    best = solve(start, node_limit=node_limit, should_stop=should_stop)
    state = start
    departure: int | None = None
    for i, name in enumerate(moves, start=1):
        state = apply(state, Move(state.turn, name)).state
        if departure is None and best.exact:
            after = solve(state, node_limit=node_limit, should_stop=should_stop)
            if after.exact and after.best < best.best:
                departure = i
    return Review(team_score(state.tracks), best, departure)


def brute_force(state: SearchState) -> int:
    """Every game to its end through the referee itself; only for small houses (tests)."""
    if state.phase is Phase.OVER:
        return team_score(state.tracks)
    rooms, _ = legal(state)
    return max(
        brute_force(apply(state, Move(state.turn, state.house.name(r))).state) for r in rooms
    )


def line_names(state: SearchState, line: Sequence[Room]) -> list[str]:
    return [state.house.name(r) for r in line]


__all__ = [
    "Hint",
    "Progress",
    "Review",
    "Solution",
    "brute_force",
    "hint",
    "line_names",
    "review",
    "solve",
]
