"""Finde den Mörder as pure state and events: the companion is the referee.

The rule text (``shared/rules/finde-den-moerder.txt``) is the specification. 2 to 4 players sit
round the 6x6 table of face-down tiles (7 each of M Ö R D E and one victim). On a turn a player
turns over one tile (the victim: also every face-down neighbour), may claim the word MÖRDER,
and otherwise says "Next". A player who believes no chain will ever appear may quit ("Ich
steige aus. Es gibt keinen Mörder!") and wins if nobody finds the word to the end.

Players are listed in seating order, clockwise: "the player to the left" of player ``i`` is
``i + 1`` (wrapping), skipping the player who quit.

Readings a referee at the table would choose (each has a test in tests/test_moerder_rules.py):

- **Turning.** The runtime attributes a turned tile to the player on turn; the event names only
  the cell and what it shows. Exactly one tile of the player's own per turn. After the victim
  is turned, its face-down neighbours are *pending*: only they may be turned, and Next, a
  claim or quitting wait until all are face up. Pending tiles do not count as the player's tile.
- **Claiming.** Only the player on turn, after their tile (and any pending neighbours) is
  turned: step 2 of the turn. During the final look, only the player whose look it is. A claim
  may name the six cells (M first); then exactly those must be a chain. Without cells any
  chain on the table counts and the first one found is reported. A wrong claim costs nothing:
  it is refused (``claim_invalid``), the state is unchanged and the player may go on (say Next).
- **Quitting.** Only the player on turn, while the game is in play, either instead of turning
  a tile (the turn is forfeited) or after turning it, instead of Next; not while victim
  neighbours are pending and not during the final look. Once one player has quit nobody else
  may. The quitter takes no further turns, looks or claims. With two players the other plays
  on alone, taking every turn until the end.
- **End.** The player who turns the last tile still has step 2 of that turn (claim or Next).
  Then every other player who has not quit gets one final look, in turn order from the left,
  and claims or passes (Next counts as a pass). If nobody claims: the quitter wins, or there
  is no winner if nobody quit. ``unclaimed_chain`` then tells whether a chain stood on the
  table that nobody claimed.
- **findable_since_turn** is the earliest turn number by which some chain was complete on the
  table: over all chains on the board, the smallest "turn in which its last tile was turned".
- **Correction** (a misread tile fixed on the phone; several at once with ``also``): changes
  what a face-up tile shows, or (``tile`` null) puts it back face down, e.g. when the camera
  saw a tile that was never turned. It never changes whose turn it is or the turn number. A
  corrected tile keeps the turn in which it was turned, so ``findable_since_turn`` is
  recomputed as if it had been read right. Putting the player's own tile of this turn back
  face down lets them turn one again. Correcting a tile *into* the victim makes its face-down
  neighbours pending for the player on turn (as does putting one of the victim's neighbours
  back face down: it is pending again). Not allowed once the game is over; putting a tile face
  down is not allowed in the final look (every tile lies face up then).
- **Impossible readings.** A turned or corrected tile that would make 8 of a letter or a second
  victim is refused with ``impossible_reading`` (details: ``cell``, ``tile``, ``count``,
  ``limit``), which the runtime turns into a correction prompt.

Events (``GAME.decode`` / ``GAME.encode``; cells are ``[row, col]`` from 0, tiles are
``"M" "Ö" "R" "D" "E"`` or ``"X"`` for the victim):

- ``{"type": "turn_tile", "cell": [r, c], "tile": "R"}``: a tile turned by the player on turn
- ``{"type": "next"}``: "Next!" (in the final look: the looking player passes)
- ``{"type": "claim", "player": 1, "cells": [[r, c], ...six] | null}``: "MÖRDER!"
- ``{"type": "quit", "player": 1}``: "Ich steige aus. Es gibt keinen Mörder!"
- ``{"type": "pass", "player": 1}``: the final look ends without a claim
- ``{"type": "correct", "cell": [r, c], "tile": "E" | null, "also": [[[r, c], "M"], ...]}``
- ``{"type": "undo"}``: handled by ``base.Timeline``

Refused codes (``base.Refused.code``; the runtime maps them to LEDs, buzzer and prompts):

============================= ============================================================
code                          when
============================= ============================================================
``game_over``                 any event after the game has ended
``wrong_phase``               turning or quitting in the final look; Pass while in play;
                              putting a tile face down in the final look
``no_such_player``            a player index outside the table
``not_your_turn``             claim, quit or pass by a player who is not on turn
``player_quit``               the player who quit tries to claim, quit or pass
``already_turned``            turning a tile that is face up (details: ``cell``)
``one_tile_per_turn``         a second tile of the player's own in one turn
``victim_neighbours_pending`` turning anything but a pending neighbour of the victim, or
                              Next/claim/quit before all are turned (details: ``pending``)
``tile_not_turned``           Next, or a claim, before the player turned their tile
``claim_invalid``             the claimed cells are not a chain, or no chain is on the
                              table (details: ``player``, ``cells``); the message says why
``quit_taken``                quitting after another player has quit (details: ``quitter``)
``impossible_reading``        8 of a letter or a second victim (details above)
``not_turned``                correcting a tile that is face down (turn it instead)
``no_change``                 a correction to what the tile shows already, or naming a
                              tile twice
``nothing_to_undo``           (from base.Timeline) undo at the start
============================= ============================================================

Effects (``base.Effect``; ``data`` is JSON-ready, cells are ``[row, col]``):

=============== ==========================================================================
kind            data
=============== ==========================================================================
``tile``        ``{cell, tile, player}`` a tile turned face up, by the player on turn
``victim``      ``{cell, pending}`` the victim turned; its face-down neighbours to turn now
``last_tile``   ``{}`` the last face-down tile was turned
``turn``        ``{player, turn_number}`` a new turn begins
``quit``        ``{player}`` the player quit ("Es gibt keinen Mörder!")
``final_look``  ``{player}`` the player's one final look begins
``claim_valid`` ``{player, chain}`` the word is found; ``chain`` is six cells to highlight
``correction``  ``{cell, old, tile}`` a tile's reading changed (``tile`` null: face down)
``winner``      ``{player, reason, unclaimed_chain}`` the game is over; ``player`` may be null;
                ``reason`` is ``found``, ``quitter`` or ``no_winner``
=============== ==========================================================================
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from companion.games.base import (
    AnyEffect,
    Cue,
    Effect,
    EventCodec,
    EventError,
    GameRules,
    Outcome,
    Refused,
    Signal,
    TableView,
    TurnMoved,
    Winners,
)
from companion.games.moerder.board import (
    CELLS,
    SET_COUNTS,
    SIZE,
    Board,
    Cell,
    Tile,
    cell_index,
    neighbours,
)
from companion.games.moerder.chain import Chain, chain_fault, find_chains

_log = logging.getLogger(__name__)

MIN_PLAYERS = 2
MAX_PLAYERS = 4


class Phase(enum.Enum):
    PLAYING = "playing"
    FINAL_LOOK = "final_look"
    OVER = "over"


class WinReason(enum.Enum):
    FOUND = "found"  # a player claimed a valid chain
    QUITTER = "quitter"  # nobody found the word; the player who quit wins the bet
    NO_WINNER = "no_winner"  # nobody found it and nobody quit


# --- events ------------------------------------------------------------------------------------


def _check_cell(cell: Cell) -> None:
    cell_index(cell)  # raises BoardError (a ValueError) off the board; the codec reports it


@dataclass(frozen=True)
class TurnTile:
    """A tile turned face up at ``cell``, showing ``tile``; by the player on turn."""

    cell: tuple[int, int]
    tile: Tile

    def __post_init__(self) -> None:
        _check_cell(self.cell)


@dataclass(frozen=True)
class Next:
    """The player on turn says "Next!" (in the final look: passes)."""


@dataclass(frozen=True)
class Claim:
    """``player`` says MÖRDER; ``cells`` optionally names the six tiles, M first."""

    player: int
    cells: tuple[tuple[int, int], ...] | None = None


@dataclass(frozen=True)
class Quit:
    """``player`` says "Ich steige aus. Es gibt keinen Mörder!"."""

    player: int


@dataclass(frozen=True)
class Pass:
    """``player`` ends their final look without a claim."""

    player: int


@dataclass(frozen=True)
class Correct:
    """The tile at ``cell`` really shows ``tile`` (``None``: it is still face down).

    ``also`` fixes more tiles in the same breath, as ``((cell, tile), ...)``: once all seven of
    a letter lie face up, two misread tiles can only be put right together (an M read as E and
    an E read as M), or the first fix alone would be an impossible reading.
    """

    cell: tuple[int, int]
    tile: Tile | None
    also: tuple[tuple[tuple[int, int], Tile | None], ...] = ()

    def __post_init__(self) -> None:
        for cell, _ in self.fixes:
            _check_cell(cell)

    @property
    def fixes(self) -> tuple[tuple[tuple[int, int], Tile | None], ...]:
        return ((self.cell, self.tile), *self.also)


Event = TurnTile | Next | Claim | Quit | Pass | Correct
codec = EventCodec([TurnTile, Next, Claim, Quit, Pass, Correct])


# --- state -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MoerderState:
    """One moment of a game. ``turn`` is the player on turn (in the final look: the one looking).

    ``turned_in`` holds, per cell, the turn number in which the tile was turned (``None``: face
    down); ``own_tile`` is the one tile the player on turn has turned this turn.
    """

    players: tuple[str, ...]
    first: int
    board: Board = Board()
    turned_in: tuple[int | None, ...] = (None,) * CELLS
    turn: int = 0
    turn_number: int = 1
    phase: Phase = Phase.PLAYING
    own_tile: Cell | None = None
    quitter: int | None = None
    looks_left: tuple[int, ...] = ()
    winner: int | None = None
    win_reason: WinReason | None = None
    chain: Chain | None = None
    unclaimed_chain: Chain | None = None
    findable_since_turn: int | None = None

    @property
    def pending(self) -> tuple[Cell, ...]:
        """Face-down neighbours of the face-up victim: they must be turned before anything else."""
        for i, tile in enumerate(self.board.cells):
            if tile is Tile.VICTIM:
                return tuple(n for n in neighbours(divmod(i, SIZE)) if self.board[n] is None)
        return ()

    @property
    def remaining_players(self) -> tuple[int, ...]:
        return tuple(i for i in range(len(self.players)) if i != self.quitter)


def new_game(setup: Mapping[str, Any]) -> MoerderState:
    """The table before the first turn: ``{"players": ["Ana", "Ben"], "first": 0}``."""
    if not isinstance(setup, Mapping):
        raise EventError("the set-up must be a JSON object")
    extra = set(setup) - {"players", "first"}
    if extra:
        raise EventError(f"set-up: unknown field(s) {', '.join(sorted(map(str, extra)))}")
    players = setup.get("players")
    if not isinstance(players, (list, tuple)) or not all(isinstance(p, str) for p in players):
        raise EventError("set-up: 'players' must be a list of names")
    names = tuple(p.strip() for p in players)
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise EventError(f"set-up: {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(names)}")
    if not all(names):
        raise EventError("set-up: a player's name is empty")
    if len(set(names)) != len(names):
        raise EventError("set-up: two players have the same name")
    first = setup.get("first", 0)
    if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < len(names):
        raise EventError(f"set-up: 'first' must be a player index 0 to {len(names) - 1}")
    return MoerderState(players=names, first=first, turn=first)


# --- apply -------------------------------------------------------------------------------------


def apply(state: MoerderState, event: Any) -> Outcome[MoerderState]:
    """The next state and its effects; raises :class:`Refused` for anything the rules forbid."""
    if state.phase is Phase.OVER:
        raise Refused("game_over", "the game is over")
    if isinstance(event, TurnTile):
        return _turn_tile(state, event)
    if isinstance(event, Next):
        return _next(state)
    if isinstance(event, Claim):
        return _claim(state, event)
    if isinstance(event, Quit):
        return _quit(state, event)
    if isinstance(event, Pass):
        return _pass(state, event)
    if isinstance(event, Correct):
        return _correct(state, event)
    raise EventError(f"not an event of Finde den Mörder: {type(event).__name__}")


def _turn_tile(state: MoerderState, event: TurnTile) -> Outcome[MoerderState]:
    if state.phase is not Phase.PLAYING:
        raise Refused("wrong_phase", "every tile is face up; this is the final look")
    cell, tile = event.cell, event.tile
    if state.board[cell] is not None:
        raise Refused(
            "already_turned", f"the tile at {list(cell)} is already face up", cell=list(cell)
        )
    pending = state.pending
    if pending:
        if cell not in pending:
            raise Refused(
                "victim_neighbours_pending",
                "turn the victim's neighbours first",
                pending=_cells_json(pending),
            )
    elif state.own_tile is not None:
        raise Refused("one_tile_per_turn", "only one tile per turn; say Next")
    board = _place(state.board, cell, tile)
    turned_in = list(state.turned_in)
    turned_in[cell_index(cell)] = state.turn_number
    new = replace(
        state,
        board=board,
        turned_in=tuple(turned_in),
        own_tile=cell if not pending else state.own_tile,
    )
    new = _refresh_findable(new)
    effects: list[AnyEffect] = [
        Effect("tile", {"cell": list(cell), "tile": tile.value, "player": state.turn})
    ]
    if tile is Tile.VICTIM:
        effects.append(Effect("victim", {"cell": list(cell), "pending": _cells_json(new.pending)}))
        effects.append(Signal(Cue.REMINDER))  # the table is reminded: its neighbours now
    if board.is_full:
        effects.append(Effect("last_tile", {}))
    return Outcome(new, tuple(effects))


def _next(state: MoerderState) -> Outcome[MoerderState]:
    if state.phase is Phase.FINAL_LOOK:
        return _end_look(state)
    _check_turn_done(state, "say Next")
    return _end_turn(state, ())


def _claim(state: MoerderState, event: Claim) -> Outcome[MoerderState]:
    _check_actor(state, event.player)
    if state.phase is Phase.PLAYING:
        _check_turn_done(state, "claim")
    if event.cells is not None:
        fault = chain_fault(state.board, event.cells)
        if fault is not None:
            raise Refused(
                "claim_invalid",
                f"not MÖRDER: {fault}",
                player=event.player,
                cells=_cells_json(event.cells),
            )
        chain: Chain = tuple(event.cells)
    else:
        found = find_chains(state.board, limit=1)
        if not found:
            raise Refused(
                "claim_invalid", "there is no MÖRDER on the table", player=event.player, cells=None
            )
        chain = found[0]
    new = replace(
        state,
        phase=Phase.OVER,
        winner=event.player,
        win_reason=WinReason.FOUND,
        chain=chain,
        looks_left=(),
    )
    _log.info("%s found MÖRDER at %s", state.players[event.player], chain)
    return Outcome(
        new,
        (
            Effect("claim_valid", {"player": event.player, "chain": _cells_json(chain)}),
            Signal(Cue.VALID, event.player, blink=True),
            Winners((event.player,), {"reason": WinReason.FOUND.value, "unclaimed_chain": None}),
        ),
    )


def _quit(state: MoerderState, event: Quit) -> Outcome[MoerderState]:
    _check_actor(state, event.player)
    if state.phase is not Phase.PLAYING:
        raise Refused("wrong_phase", "every tile is face up; there is no turn left to forfeit")
    if state.quitter is not None:
        raise Refused(
            "quit_taken",
            f"{state.players[state.quitter]} has already quit; nobody else may",
            quitter=state.quitter,
        )
    if state.pending:
        raise Refused(
            "victim_neighbours_pending",
            "turn the victim's neighbours first",
            pending=_cells_json(state.pending),
        )
    new = replace(state, quitter=event.player)
    _log.info("%s quits: es gibt keinen Mörder", state.players[event.player])
    return _end_turn(new, (Effect("quit", {"player": event.player}), Signal(Cue.END)))


def _pass(state: MoerderState, event: Pass) -> Outcome[MoerderState]:
    _check_actor(state, event.player)
    if state.phase is not Phase.FINAL_LOOK:
        raise Refused("wrong_phase", "passing is for the final look; in play, say Next")
    return _end_look(state)


def _correct(state: MoerderState, event: Correct) -> Outcome[MoerderState]:
    fixes = event.fixes
    if len({cell for cell, _ in fixes}) != len(fixes):
        raise Refused("no_change", "a correction names the same tile twice")
    board = state.board
    turned_in = list(state.turned_in)
    own_tile = state.own_tile
    effects: list[AnyEffect] = []
    for cell, tile in fixes:
        old = board[cell]
        if old is None:
            raise Refused(
                "not_turned",
                f"the tile at {list(cell)} is face down; turn it instead",
                cell=list(cell),
            )
        if old is tile:
            raise Refused(
                "no_change", f"the tile at {list(cell)} already shows {old.value}", cell=list(cell)
            )
        if tile is None:
            if state.phase is not Phase.PLAYING:
                raise Refused("wrong_phase", "every tile lies face up in the final look")
            turned_in[cell_index(cell)] = None
            if own_tile == cell:
                own_tile = None
        board = board.with_tile(cell, tile)
        effects.append(
            Effect(
                "correction",
                {
                    "cell": list(cell),
                    "old": old.value,
                    "tile": None if tile is None else tile.value,
                },
            )
        )
    for cell, tile in fixes:
        if tile is not None:
            _check_count(board, cell, tile)
    new = replace(state, board=board, turned_in=tuple(turned_in), own_tile=own_tile)
    new = _refresh_findable(new)
    if any(tile is Tile.VICTIM for _, tile in fixes) and new.pending:
        victim = next(cell for cell, tile in fixes if tile is Tile.VICTIM)
        effects.append(Signal(Cue.REMINDER))
        effects.append(
            Effect("victim", {"cell": list(victim), "pending": _cells_json(new.pending)})
        )
    return Outcome(new, tuple(effects))


# --- helpers -----------------------------------------------------------------------------------


def _check_actor(state: MoerderState, player: int) -> None:
    if isinstance(player, bool) or not 0 <= player < len(state.players):
        raise Refused("no_such_player", f"there is no player {player}", player=player)
    if player == state.quitter:
        raise Refused(
            "player_quit",
            f"{state.players[player]} has quit and takes no further turns",
            player=player,
        )
    if player != state.turn:
        raise Refused(
            "not_your_turn",
            f"it is {state.players[state.turn]}'s turn, not {state.players[player]}'s",
            player=player,
            turn=state.turn,
        )


def _check_turn_done(state: MoerderState, what: str) -> None:
    if state.pending:
        raise Refused(
            "victim_neighbours_pending",
            f"turn the victim's neighbours before you {what}",
            pending=_cells_json(state.pending),
        )
    if state.own_tile is None:
        raise Refused("tile_not_turned", f"turn over a tile before you {what}")


def _left_of(state: MoerderState, player: int) -> int:
    """The next player clockwise who has not quit (``player`` itself if nobody else remains)."""
    n = len(state.players)
    for step in range(1, n + 1):
        candidate = (player + step) % n
        if candidate != state.quitter:
            return candidate
    raise AssertionError("a table always keeps a player who has not quit")  # pragma: no cover


def _end_turn(state: MoerderState, effects: tuple[AnyEffect, ...]) -> Outcome[MoerderState]:
    """After Next or a quit: the next turn, or the final looks once every tile is face up."""
    if state.board.is_full:
        order: list[int] = []
        player = state.turn
        for _ in range(len(state.players)):
            player = (player + 1) % len(state.players)
            if player != state.turn and player != state.quitter:
                order.append(player)
        return _start_looks(replace(state, own_tile=None), tuple(order), effects)
    nxt = _left_of(state, state.turn)
    new = replace(state, turn=nxt, turn_number=state.turn_number + 1, own_tile=None)
    return Outcome(new, (*effects, TurnMoved(nxt, {"turn_number": new.turn_number})))


def _start_looks(
    state: MoerderState, order: tuple[int, ...], effects: tuple[AnyEffect, ...]
) -> Outcome[MoerderState]:
    if not order:
        return _finish(replace(state, looks_left=()), effects)
    new = replace(state, phase=Phase.FINAL_LOOK, looks_left=order, turn=order[0])
    return Outcome(new, (*effects, Effect("final_look", {"player": order[0]}), Signal(Cue.TURN)))


def _end_look(state: MoerderState) -> Outcome[MoerderState]:
    return _start_looks(state, state.looks_left[1:], ())


def _finish(state: MoerderState, effects: tuple[AnyEffect, ...]) -> Outcome[MoerderState]:
    """Nobody claimed after the last tile: the quitter's bet is settled."""
    found = find_chains(state.board, limit=1)
    unclaimed = found[0] if found else None
    winner: int | None
    if state.quitter is not None:
        # The rule text: the quitter wins if nobody *builds* the word; a chain that stood on
        # the table unclaimed does not take the win from them, it is only reported.
        winner, reason = state.quitter, WinReason.QUITTER
    else:
        winner, reason = None, WinReason.NO_WINNER
    new = replace(
        state, phase=Phase.OVER, winner=winner, win_reason=reason, unclaimed_chain=unclaimed
    )
    return Outcome(
        new,
        (
            *effects,
            Winners(
                () if winner is None else (winner,),
                {
                    "reason": reason.value,
                    "unclaimed_chain": None if unclaimed is None else _cells_json(unclaimed),
                },
            ),
        ),
    )


def _place(board: Board, cell: Cell, tile: Tile) -> Board:
    new = board.with_tile(cell, tile)
    _check_count(new, cell, tile)
    return new


def _check_count(board: Board, cell: Cell, tile: Tile) -> None:
    count = board.counts()[tile]
    limit = SET_COUNTS[tile]
    if count > limit:
        what = "a second victim" if tile is Tile.VICTIM else f"{count} {tile.value} tiles"
        raise Refused(
            "impossible_reading",
            f"the tile at {list(cell)} cannot be {tile.value}: that makes {what}, "
            f"the set holds {limit}",
            cell=list(cell),
            tile=tile.value,
            count=count,
            limit=limit,
        )


def _refresh_findable(state: MoerderState) -> MoerderState:
    best: int | None = None
    for chain in find_chains(state.board):
        since = max(state.turned_in[cell_index(c)] or 0 for c in chain)
        if best is None or since < best:
            best = since
    return replace(state, findable_since_turn=best)


def _cells_json(cells: Any) -> list[list[int]]:
    return [[int(r), int(c)] for r, c in cells]


# --- view --------------------------------------------------------------------------------------


def view(state: MoerderState) -> dict[str, Any]:
    """The JSON-ready picture the dashboard and the CLI show.

    Keys: ``game`` ("moerder"); ``board`` (notation); ``cells`` (6 rows of 6: the tile's
    character, ``"X"`` for the victim, or null when face down); ``remaining`` (unseen tiles per
    character); ``players`` (list of ``{name, quit}``); ``turn`` (index of the player on turn or
    looking); ``turn_number`` (1-based); ``phase`` ("playing" | "final_look" | "over");
    ``pending`` (cells to turn now); ``tile_turned_this_turn`` (bool); ``own_tile`` (cell or
    null); ``looks_left`` (player indices still to look); ``quitter``; ``winner`` (index or
    null); ``win_reason`` ("found" | "quitter" | "no_winner" | null); ``chain`` (the claimed
    chain's six cells or null); ``unclaimed_chain`` (at the end: a chain nobody claimed, or
    null); ``findable_since_turn`` (the turn a chain first stood on the table; null until the
    game is over, so the dashboard never gives the word away during play). Cells are
    ``[row, col]``, 0-based from the top left.
    """
    over = state.phase is Phase.OVER
    return {
        "game": "moerder",
        "board": str(state.board),
        "cells": [
            [None if t is None else t.value for t in state.board.cells[r * SIZE : (r + 1) * SIZE]]
            for r in range(SIZE)
        ],
        "remaining": {t.value: n for t, n in state.board.remaining().items()},
        "players": [{"name": p, "quit": i == state.quitter} for i, p in enumerate(state.players)],
        "turn": state.turn,
        "turn_number": state.turn_number,
        "phase": state.phase.value,
        "pending": _cells_json(state.pending),
        "tile_turned_this_turn": state.own_tile is not None,
        "own_tile": None if state.own_tile is None else list(state.own_tile),
        "looks_left": list(state.looks_left),
        "quitter": state.quitter,
        "winner": state.winner,
        "win_reason": None if state.win_reason is None else state.win_reason.value,
        "chain": None if state.chain is None else _cells_json(state.chain),
        "unclaimed_chain": (
            None if state.unclaimed_chain is None else _cells_json(state.unclaimed_chain)
        ),
        "findable_since_turn": state.findable_since_turn if over else None,
    }


def table_view(state: MoerderState) -> TableView:
    """The seat on turn (or looking), the quitter out, the victim's neighbours as a question."""
    over = state.phase is Phase.OVER
    return TableView(
        players=state.players,
        on_turn=None if over else state.turn,
        over=over,
        winners=() if state.winner is None else (state.winner,),
        out=() if state.quitter is None else (state.quitter,),
        question="victim_neighbours" if state.pending and not over else None,
        reason=None if state.win_reason is None else state.win_reason.value,
    )


def press(state: MoerderState, seat: int, gesture: str) -> dict[str, Any] | None:
    """What a seat's button means now (the table's buttons, ``GameRules.press``).

    A short press is "Next" (in the final look: the looking player passes), but only from
    the player on turn: anyone else's short press means nothing. A long press is that seat's
    MÖRDER claim, a double press that seat quitting ("Ich steige aus"); the rules decide
    whether they are allowed now. After the end nothing (the runtime may start a new game).
    """
    if state.phase is Phase.OVER or not 0 <= seat < len(state.players):
        return None
    if gesture == "next":
        return {"type": "next"} if seat == state.turn else None
    if gesture == "claim":
        return {"type": "claim", "player": seat}
    if gesture == "quit":
        return {"type": "quit", "player": seat}
    return None


GAME: GameRules[MoerderState] = GameRules(
    name="moerder",
    title="Finde den Mörder",
    new=new_game,
    apply=apply,
    decode=codec.decode,
    encode=codec.encode,
    view=view,
    table=table_view,
    press=press,
)

__all__ = [
    "GAME",
    "Claim",
    "Correct",
    "Event",
    "MoerderState",
    "Next",
    "Pass",
    "Phase",
    "Quit",
    "TurnTile",
    "WinReason",
    "apply",
    "codec",
    "new_game",
    "view",
]
