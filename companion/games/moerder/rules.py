"""Finde den Mörder as pure state and events: the companion is the referee.

As refereed here (the game's page in docs/moerder.md says it for players): 2 to 4 players sit
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
    EventError,
    Outcome,
    Refused,
    Signal,
    TurnMoved,
    Winners,
    parse_players,
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
from companion.games.moerder.events import Claim, Correct, Next, Pass, Quit, TurnTile

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


def new(setup: Mapping[str, Any]) -> MoerderState:
    """The table before the first turn: ``{"players": ["Ana", "Ben"], "first": 0}``."""
    names = parse_players(setup, MIN_PLAYERS, MAX_PLAYERS, keys=("first",))
    first = setup.get("first", 0)
    if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < len(names):
        raise EventError(f"set-up: 'first' must be a player index 0 to {len(names) - 1}")
    return MoerderState(players=names, first=first, turn=first)


# --- apply -------------------------------------------------------------------------------------


def apply(state: MoerderState, event: Any) -> Outcome[MoerderState]:
    """The next state and its effects; raises :class:`Refused` for anything the rules forbid."""
    if state.phase is Phase.OVER:
        raise Refused("game_over", "the game is over")
    match event:
        case TurnTile():
            return _turn_tile(state, event)
        case Next():
            return _next(state)
        case Claim():
            return _claim(state, event)
        case Quit():
            return _quit(state, event)
        case Pass():
            return _pass(state, event)
        case Correct():
            return _correct(state, event)
    raise Refused("unknown_event", f"Finde den Mörder has no event {type(event).__name__}")


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
                pending=cells_json(pending),
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
        effects.append(Effect("victim", {"cell": list(cell), "pending": cells_json(new.pending)}))
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
                cells=cells_json(event.cells),
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
            Effect("claim_valid", {"player": event.player, "chain": cells_json(chain)}),
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
            pending=cells_json(state.pending),
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
            Effect("victim", {"cell": list(victim), "pending": cells_json(new.pending)})
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
            pending=cells_json(state.pending),
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
                    "unclaimed_chain": None if unclaimed is None else cells_json(unclaimed),
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


def cells_json(cells: Any) -> list[list[int]]:
    return [[int(r), int(c)] for r, c in cells]
