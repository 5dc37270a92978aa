"""Murdero: the score of each hand and the running table to 100 (pairs: 200).

The companion scores a hand from its end as entered at the table (phone now, camera later);
it does not referee the turns.

Readings chosen where the rule sheet is ambiguous (each has a test in
``tests/test_murdero_readings.py``):

1. The sheet says the deck holds 15 action cards but names 13; which two are doubled is not
   said. Validation allows any two copies beyond one of each named card, and no more.
2. Reverse Charges and Overtime "end the game": they end the *hand*; the game continues to
   100. Nobody doubles at either ending (no-one has a winning case at that moment).
3. Real Estate makes each of its owner's Crime Scenes worth 4 points instead of 1 (not 1 + 4),
   and only if it is in play at the hand's end; a second Real Estate adds nothing more.
4. The winner's doubling covers everything their sets score (Real Estate included) before the
   cards in hand are deducted; in Partner Murdero the pair's combined set points double.
5. The Joker stands in for one number 2-5 on a case that already has a real Crime Scene ("you
   MUST begin a set with a Crime Scene card"); it is worth 0 points like every action card,
   and it counts as one of its owner's Permanent Action Cards.
6. "One Permanent Action Card for each case you are building": a player's permanents in play
   (the Joker included) are at most their number of cases.
7. An alibi or Heavy Caseload counts whoever owns it: it binds every player, its owner too.
   A completed case of a colour whose alibi stands does not count towards Heavy Caseload's two.
8. Several players win a hand only when the hand ended by removing an alibi or Heavy Caseload
   (``ended_by: removal``); then everyone holding a winning case wins and doubles. A hand that
   ended with a case has exactly one winning player (or pair); a hand that ended by Reverse
   Charges or Overtime has no-one with a winning case.
9. A hand's score may be negative and counts against the running total.
10. If several players (pairs) reach 100 (200) in the same hand, the highest total wins the
    game; equal highest share it.
11. Partners sit opposite, so with players listed in seat order the pairs are 1st+3rd and
    2nd+4th.
12. A correction that would have ended the game before later hands were played is refused
    (undo the later hands first), so the running table never shows hands after a game's end.
13. One Murdero deck is on the table: the sheet's custom decks (Action Cards mixed from several
    sets) are not checked; their card counts would be refused as more than the deck holds.
14. Everyone discards down to eight at the end of their turn and no action card adds to
    another player's hand, so at most one player (the one whose turn ended the hand) may hold
    more than eight cards at its end.
15. Who begins the next hand is not said: the deal passes left, so each hand is begun by the
    seat after the one that began the hand before (only the table's lights follow this; tested
    in ``tests/test_web_murdero_panel.py``). The turn passes left on the player's button.
"""

from companion.games.base import GameRules
from companion.games.murdero.cards import (
    Action,
    ActionKind,
    CardError,
    CaseCard,
    Colour,
    Stage,
)
from companion.games.murdero.errors import MurderoError
from companion.games.murdero.events import (
    CODEC,
    HandCorrected,
    HandEntered,
    NewGame,
    NextTurn,
    decode_hand,
    encode_hand,
)
from companion.games.murdero.hand import (
    Case,
    Ending,
    HandEnd,
    HandError,
    PlayerHand,
    validate,
)
from companion.games.murdero.rules import MurderoState, apply, new
from companion.games.murdero.scoring import (
    HandScore,
    Line,
    SideScore,
    score_hand,
    winners_of,
)
from companion.games.murdero.view import press, table_view, view

GAME: GameRules[MurderoState] = GameRules(
    name="murdero",
    title="Murdero",
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
    "Action",
    "ActionKind",
    "CardError",
    "Case",
    "CaseCard",
    "Colour",
    "Ending",
    "HandCorrected",
    "HandEnd",
    "HandEntered",
    "HandError",
    "HandScore",
    "Line",
    "MurderoError",
    "MurderoState",
    "NewGame",
    "NextTurn",
    "PlayerHand",
    "SideScore",
    "Stage",
    "decode_hand",
    "encode_hand",
    "score_hand",
    "validate",
    "winners_of",
]
