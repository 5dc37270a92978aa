"""Search (Sid Sackson, *Beyond Competition*): a cooperative pencil game in a haunted house.

The companion draws the house (:mod:`.house`, :mod:`.sheet`), referees each move and keeps the
score tracks (:mod:`.rules`), and tells the table how good their game was (:mod:`.solver`).

How the rule text is read where it is silent or garbled:

- **The dot sentence.** The text says "Except that they may move to room that has the same
  number of dots that are in ANY player's (including their own) current room", a sentence
  that lost a word: *only* or *not*. We read *may only* (``DotRule.MATCH``, the default): a
  move through a door goes only into a room whose number of dots equals that of some
  player's current room, the mover's own included, so a player can always match their own
  room and the others widen the choice. The other reading, *may not* (never into a room
  whose dots match any player's current room), is the house rule ``DotRule.DIFFERENT``
  (set-up ``"dot_rule": "different"``). Why: the box says 2-4 players, and with *may not*
  three or four players' rooms usually hold 1, 2 and 3 dots between them, so nobody can go
  through a door and the game dies within a few moves. On 40 generated 8x11 houses with
  start rooms drawn by cards (``bench/search_bench.py --readings``), best play under *may
  not* can win only 11 of 40 three-player and 2 of 40 four-player games (proved, every
  search finished); under *may only* the solver finds a winning game in 37, 40 and 39 of
  40 games for two, three and four players. "(including their own)" is the clause *only*
  needs: a player can always match their own room. Corridor moves ignore dots either way
  ("regardless of the number of dots").
- **Adjacent** rooms share a wall (not a corner).
- **Visited rooms.** A player never re-enters a room they have visited (their colour is in
  it; re-entering would blur "the room with the circled dots always represents their
  current position", and without this the game could never end). Rooms other players
  visited stay open: the colours tell whose visit it was, and rule 2 ("they have not
  visited") is about the mover's own visits.
- **Start rooms** come from two cards, "one of the rooms where the row and columns …
  correspond to the cards drawn": either card may name the row, so cards 6 and 3 name row
  6/column 3 and row 3/column 6 and the player chooses (``House.rooms_for_cards``); the ``Start``
  event names the choice by the order of its cards, the row's first. The start room's dots
  are circled, so they count on the track (``Options.start_scores``; off reads "check off
  boxes" as for moves only). Players draw in turn order; a room occupied, or joined by
  corridor to an occupied room, is refused, as ``other_room`` when the other room the same
  cards name is free, and only when every room they name is taken are the cards drawn again. Used cards are set aside; an empty deck is the set-aside cards
  reshuffled.
- **Turns** go round in player order. A player who cannot move loses the turn (the referee
  skips them and says so); "players must move if they are able to", so there is no pass.
  The game ends when nobody can move.
- **Buttons** (``GAME.press``, :mod:`.view`): a short press makes the one move the rules
  leave the player on turn (the corridor); a long press asks for a hint (``AskHint``), which
  changes no room and no track and is cleared by the next move.
- **Score**: the farthest track minus five times (farthest - shortest); the team wins when
  that is above zero.
"""

from companion.games.base import GameRules
from companion.games.search.errors import SearchError
from companion.games.search.events import CODEC, AskHint, Move, Start
from companion.games.search.house import House, HouseError
from companion.games.search.rules import (
    DotRule,
    Options,
    Phase,
    SearchState,
    apply,
    new,
)
from companion.games.search.view import press, table_view, view

GAME: GameRules[SearchState] = GameRules(
    name="search",
    title="Search (Sackson)",
    new=new,
    apply=apply,
    decode=CODEC.decode,
    encode=CODEC.encode,
    view=view,
    table=table_view,
    press=press,
)

__all__ = [
    "GAME",
    "AskHint",
    "DotRule",
    "House",
    "HouseError",
    "Move",
    "Options",
    "Phase",
    "SearchError",
    "SearchState",
    "Start",
]
