"""Serial Killer: graves, kills, corpses, informants, clues, arrests and reshuffles, refereed.

Every card drawn (rank and suit) is an event, entered on the phone now and read by the camera
later, as is every choice (hold, bury, inform, discredit, end the turn). The engine checks each
card against the deck: a card cannot appear twice before a reshuffle.

Readings chosen where the rule text is ambiguous (each has a test in
``tests/test_serialkiller_readings.py``):

1. High card: Ace is high, then King, Queen, Jack, 10 … 2; suits do not rank. Only a tie for
   the highest card matters; the tied players draw again from what is left of the deck. The
   cards drawn for the first player stay out until the deck is shuffled to start the game,
   when all 52 go back.
2. A turn draws one card per grave open at its start, dealt to those graves in order (grave 1
   first), so "the grave into which the card would have been placed" is always defined.
   Number cards pile up on an open grave, which stays open.
3. A Jack buried as it is drawn goes into the grave it was drawn for. A held Jack, buried at
   the end of a turn of its holder, goes into any open grave the holder chooses.
4. An informant goes on top of any grave holding a King or Queen, even one that already has an
   informant; ``grave`` left out means the first such grave.
5. Held cards are played at the end of any of the holder's own turns (not only the turn they
   were drawn in), never during another player's turn.
6. The clue for a turn without a victim is found as the turn ends (``end_turn``), after the
   end-of-turn plays: "a held informant can be played at the end of a turn", so a held Ace can
   discredit away the clue its owner is about to lose, as an Ace drawn that turn can, and a
   held Jack can still be buried. A player arrested by that clue is out as the turn passes.
   A Jack never counts as a kill; several victims in one turn count as one kill.
7. Discrediting needs a clue of the player's in the police pile: with all six counters there is
   nothing to get back, so an informant cannot discredit.
8. An arrested player's held cards are no longer held: they are set aside and go back into the
   deck at the next reshuffle. If the arrest leaves one player with clues, that player wins at
   once, mid-turn or not.
9. The reshuffle happens the moment the sixth grave is full, also when a corpse buried at the
   end of a turn fills it; the current player may go on playing held cards (a held informant
   then has no victim), and the next turn draws six.
10. A turn ends with an explicit ``end_turn`` (a player button), even when there is nothing to
    play, so the table confirms before play passes.
11. Two to six players. The rule text names no most; with one deck and six graves, more
    players would mostly wait on closed graves, and the set-up refuses a seventh.
"""

from companion.games.base import GameRules
from companion.games.serialkiller.cards import Card, CardError, Rank, Role, Suit
from companion.games.serialkiller.errors import SerialKillerError
from companion.games.serialkiller.events import (
    CODEC,
    Bury,
    Discredit,
    Draw,
    EndTurn,
    FirstDraw,
    Hold,
    Inform,
)
from companion.games.serialkiller.rules import (
    CLUES,
    GRAVES,
    Phase,
    SKState,
    apply,
    new,
)
from companion.games.serialkiller.view import legal, press, table_view, view

GAME: GameRules[SKState] = GameRules(
    name="serialkiller",
    title="Serial Killer",
    new=new,
    apply=apply,
    decode=CODEC.decode,
    encode=CODEC.encode,
    view=view,
    table=table_view,
    press=press,
)

__all__ = [
    "CLUES",
    "GAME",
    "GRAVES",
    "Bury",
    "Card",
    "CardError",
    "Discredit",
    "Draw",
    "EndTurn",
    "FirstDraw",
    "Hold",
    "Inform",
    "Phase",
    "Rank",
    "Role",
    "SKState",
    "SerialKillerError",
    "Suit",
    "legal",
    "view",
]
