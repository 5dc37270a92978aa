"""Effects to lights and tunes, as tables of data, the same for every game.

Only the typed effects of :mod:`companion.games.base` reach the panel; a game's own
:class:`~companion.games.base.Effect` notes are for the phones. The steady lights follow the
:class:`~companion.games.base.TableView`, so after a restart or an undo they are right without
replaying anything.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.games.base import (
    AnyEffect,
    Cue,
    Signal,
    TableView,
    TimerExpired,
    TimerStarted,
    TimerWarned,
    TurnMoved,
    Winners,
)
from hardware.panel import Light, Panel, Tune

# what each cue a game asks for sounds like on this table's buzzer
CUE_TUNES: dict[Cue, Tune] = {
    Cue.TURN: Tune.TURN,
    Cue.VALID: Tune.CLAIM_VALID,
    Cue.INVALID: Tune.CLAIM_INVALID,
    Cue.REMINDER: Tune.REMINDER,
    Cue.ALARM: Tune.ALARM,
    Cue.END: Tune.TIMER_EXPIRED,
}

# effects that only sound, by type
EFFECT_TUNES: dict[type, Tune] = {
    TurnMoved: Tune.TURN,
    TimerStarted: Tune.TURN,
    TimerWarned: Tune.TIMER_WARNING,
    TimerExpired: Tune.TIMER_EXPIRED,
}

# what the table says with its own tunes (not a game's)
UNDONE = Tune.REMINDER
REFUSED = Tune.CLAIM_INVALID
ASKING = Tune.PROMPT
CAMERA_LOST = Tune.ALARM
LOG_FAILED = Tune.ALARM
LOGINS_LOCKED = Tune.ALARM
IDLE = Tune.REMINDER


def sound(panel: Panel, effects: Sequence[AnyEffect]) -> None:
    """Play and flash what the effects ask for, in order."""
    for e in effects:
        if isinstance(e, Winners):
            panel.play(Tune.WINNER if e.seats else Tune.TIMER_EXPIRED)
        elif isinstance(e, Signal):
            panel.play(CUE_TUNES[e.cue])
            if e.blink and e.seat is not None:
                panel.flash_claim(e.seat, e.cue is not Cue.INVALID)
        elif type(e) in EFFECT_TUNES:
            panel.play(EFFECT_TUNES[type(e)])
        elif e.kind == "undone":
            panel.play(UNDONE)


def steady(panel: Panel, view: TableView, *, camera_lost: bool, asking: bool,
           hurry: bool = False) -> None:
    """The steady lights for the game as it stands and the status LED, most urgent first;
    ``hurry``: the timer of the seat on turn is in its last seconds."""
    panel.set_names(list(view.players))
    if view.over:
        panel.show_winners(list(view.winners))
    else:
        panel.show_turn(view.on_turn, view.out, hurry=hurry)
    if camera_lost:
        light = Light.CAMERA_LOST
    elif asking:
        light = Light.PROMPT
    elif view.question is not None:
        light = Light.PENDING
    else:
        light = Light.OK
    panel.show_status(light)


__all__ = ["CUE_TUNES", "EFFECT_TUNES", "sound", "steady"]
