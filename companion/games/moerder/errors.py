"""The root of what Finde den Mörder's rules raise, and the codes of what they refuse.

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
"""

from __future__ import annotations

from companion.games.base import RuleError


class MoerderError(RuleError):
    """Root of the errors of Finde den Mörder (a bad board, a bad notation)."""


__all__ = ["MoerderError"]
