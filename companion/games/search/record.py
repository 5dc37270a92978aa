"""A game written down: the moves file that ``companion search check`` and ``best`` read.

Format, one item a line, ``#`` starts a comment, blank lines are ignored::

    players Ann Bob          # optional; names without spaces (default P1, P2... by starts)
    rule match               # optional: match (default) or different, see the package notes
    start-scores yes         # optional: do the start room's dots count? (default yes)
    start 3 5                # a start drawn with cards: row triangle 3, column triangle 5
    start C7                 # or the start room itself; one start line per player, in order
    C8                       # then the moves, one room a line, in turn order
    Bob: D7                  # a move may name its player; the referee then checks the turn

Lost turns are not written: the referee skips a player who cannot move.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.base import Refused
from companion.games.search.errors import SearchError
from companion.games.search.events import Start
from companion.games.search.house import House
from companion.games.search.rules import (
    MAX_PLAYERS,
    DotRule,
    Options,
    SearchState,
    apply,
    new_state,
    place_start,
)


class RecordError(SearchError):
    """A moves file that cannot be read; the message names the line."""


@dataclass(frozen=True)
class StartLine:
    line: int
    cards: tuple[int, int] | None
    room: str | None


@dataclass(frozen=True)
class MoveLine:
    line: int
    player: str | None
    room: str


@dataclass(frozen=True)
class Record:
    players: tuple[str, ...] | None
    options: Options
    starts: tuple[StartLine, ...]
    moves: tuple[MoveLine, ...]

    def names(self) -> tuple[str, ...]:
        return self.players or tuple(f"P{i + 1}" for i in range(len(self.starts)))

    def __str__(self) -> str:
        out = []
        if self.players is not None:
            out.append("players " + " ".join(self.players))
        out.append(f"rule {self.options.dot_rule.value}")
        out.append(f"start-scores {'yes' if self.options.start_scores else 'no'}")
        for s in self.starts:
            out.append(f"start {s.cards[0]} {s.cards[1]}" if s.cards else f"start {s.room}")
        for m in self.moves:
            out.append(f"{m.player}: {m.room}" if m.player else m.room)
        return "\n".join(out) + "\n"


def parse_record(text: str) -> Record:
    players: tuple[str, ...] | None = None
    rule = DotRule.MATCH
    start_scores = True
    starts: list[StartLine] = []
    moves: list[MoveLine] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        head = words[0].lower()
        if head == "players":
            if players is not None or starts or moves:
                raise RecordError(f"line {number}: 'players' comes once, before the starts")
            if not 2 <= len(words) - 1 <= MAX_PLAYERS:
                raise RecordError(f"line {number}: 2-{MAX_PLAYERS} players, got {len(words) - 1}")
            players = tuple(words[1:])
            if len(set(players)) != len(players):
                raise RecordError(f"line {number}: two players have the same name")
        elif head == "rule":
            try:
                rule = DotRule(words[1].lower() if len(words) == 2 else "")
            except ValueError:
                raise RecordError(f"line {number}: write 'rule match' or 'rule different'") from None
        elif head == "start-scores":
            if len(words) != 2 or words[1].lower() not in ("yes", "no"):
                raise RecordError(f"line {number}: write 'start-scores yes' or 'start-scores no'")
            start_scores = words[1].lower() == "yes"
        elif head == "start":
            if moves:
                raise RecordError(f"line {number}: start lines come before the moves")
            if len(words) == 3 and words[1].isdigit() and words[2].isdigit():
                starts.append(StartLine(number, (int(words[1]), int(words[2])), None))
            elif len(words) == 2:
                starts.append(StartLine(number, None, words[1].upper()))
            else:
                raise RecordError(f"line {number}: write 'start ROW COLUMN' (cards) or 'start C7'")
        else:
            player: str | None = None
            if words[0].endswith(":") and len(words) == 2:
                player, room = words[0][:-1], words[1]
            elif len(words) == 1:
                room = words[0]
            else:
                raise RecordError(f"line {number}: a move is a room (C7) or 'NAME: C7', got {raw.strip()!r}")
            moves.append(MoveLine(number, player, room.upper()))
    if players is not None and len(starts) not in (0, len(players)):
        raise RecordError(f"{len(players)} players but {len(starts)} start lines")
    if players is None and starts and not 2 <= len(starts) <= MAX_PLAYERS:
        raise RecordError(f"2-{MAX_PLAYERS} start lines expected, got {len(starts)}")
    return Record(players, Options(rule, start_scores), tuple(starts), tuple(moves))


def start_state(house: House, record: Record) -> SearchState:
    """The position after the record's start lines; a refused start names its line.

    A start written as a room is placed as it stands (puzzles and small test houses may start
    off the triangles); a start written as cards goes through the referee's ``Start``.
    """
    if not record.starts:
        raise RecordError("the moves file has no start lines (start 3 5, or start C7)")
    state = new_state(house, record.names(), record.options)
    for p, s in enumerate(record.starts):
        try:
            if s.cards is not None:
                state = apply(state, Start(p, *s.cards)).state
            else:
                state, _ = place_start(state, p, house.room(s.room or ""))
        except (Refused, SearchError) as exc:
            raise RecordError(f"line {s.line}: start refused: {exc}") from None
    return state
