"""What a still camera reading of the loose dice means for a game of Wort-Kniffel.

Vision never decides the game: this turns a reading of the dice at rest into the ``throw`` it
proves, or into a question for the table where it cannot.

- A throw is seven dice at rest whose letters differ from the dice the camera last believed.
  Pushing dice together to lay a word moves them but keeps their letters, so it is never taken
  for a throw. A re-roll that shows exactly the same letters is not noticed: it changes
  nothing on the pad (the player may type it on the phone to count it).
- Fewer or more than seven dice is not a throw yet (dice still in a hand or the cup, a die off
  the table); nothing is asked.
- A die read as ``?`` is asked about (``dice_unsure``), never guessed; the phone answers with
  the whole throw (``throw``).
- Dice that lie where they lay, with the same letter, were kept through the re-roll.
- A throw the rules refuse (a fourth throw, a face the set does not have) is asked about with
  the rules' own code and reason.
- With no memory (the table just started), dice showing the throw the game already has are
  that throw, not a new one: a restart mid-turn never throws for the player.
- A score pad seen beside the dice is held against the record (:mod:`.padcheck`); what it
  finds is shown and told once, and nothing on the record changes without a phone.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from companion.games.base import Answered, Observed, Prompt, Refused
from companion.games.kniffel.dice import N_DICE
from companion.games.kniffel.events import Throw
from companion.games.kniffel.padcheck import Finding, tell
from companion.games.kniffel.rules import KniffelState, apply
from companion.games.readings import UNSURE, DiceReading, DieSeen

KEPT_TOLERANCE = 0.35  # of a die's edge: a kept die is nudged by less than a third of itself


@dataclass(frozen=True)
class Memo:
    """The dice the camera last believed (a throw applied, or a sight people answered), and
    the sight it asked about, if it asked: once people answer, that sight is what the game has
    (whatever they said), and only dice that differ from it are a new throw. ``told``: what
    the last look at the score pad found, so the next look tells only what is new."""

    believed: tuple[DieSeen, ...]
    asked: tuple[DieSeen, ...] = ()
    told: frozenset[Finding] = frozenset()


def _letters(dice: tuple[DieSeen, ...]) -> str:
    return "".join(sorted(d.letter for d in dice))


def _kept(before: tuple[DieSeen, ...], now: tuple[DieSeen, ...]) -> tuple[int, ...]:
    out = []
    for i, d in enumerate(now):
        for b in before:
            near = max(abs(d.center[0] - b.center[0]), abs(d.center[1] - b.center[1]))
            if b.letter == d.letter and near <= KEPT_TOLERANCE * max(d.size, b.size):
                out.append(i)
                break
    return tuple(out)


def _notation(dice: tuple[DieSeen, ...]) -> str:
    """The throw as the rules write it; a die whose value was not read takes its set's value."""
    return " ".join(d.letter if d.value is None or d.letter == "*" else f"{d.letter}{d.value}"
                    for d in dice)


def _told(memo: Any) -> frozenset[Finding]:
    inner = memo.memo if isinstance(memo, Answered) else memo
    return inner.told if isinstance(inner, Memo) else frozenset()


def _keep_told(memo: Any, told: frozenset[Finding]) -> Any:
    """The memo with the pad's findings carried (the dice's part knows nothing of them)."""
    if isinstance(memo, Answered):
        return Answered(_keep_told(memo.memo, told))
    return replace(memo if isinstance(memo, Memo) else Memo(()), told=told)


def observe(state: KniffelState, reading: Any, memo: Any) -> Observed:
    """The throw (or question) a still reading of the dice gives, and what the score pad
    beside them says against the record; ``memo``: the last one."""
    if not isinstance(reading, DiceReading):
        return Observed(memo=memo)
    told = _told(memo)
    seen = _dice(state, reading, memo)
    if reading.pad is None or state.finished:
        return replace(seen, memo=_keep_told(seen.memo, told))
    check, effects = tell(state, reading.pad, told)
    return replace(seen, memo=_keep_told(seen.memo, frozenset(check.findings)), effects=effects,
                   shown={**seen.shown, "pad": check.view(state.players)})


def _dice(state: KniffelState, reading: DiceReading, memo: Any) -> Observed:
    """The throw (or question) the dice at rest give."""
    if state.finished or state.time_up:
        return Observed(memo=memo)
    last = memo.memo if isinstance(memo, Answered) else memo
    if isinstance(memo, Answered) and isinstance(last, Memo) and last.asked:
        last = Memo(last.asked)  # people ruled on the sight asked about: the game has it now
    before = last.believed if isinstance(last, Memo) else ()
    dice = tuple(sorted(reading.dice, key=lambda d: (d.center[0], d.center[1])))
    shown = {"dice": [{"letter": d.letter, "value": d.value} for d in dice]}
    if len(dice) != N_DICE or _letters(dice) == _letters(before):
        return Observed(memo=last, shown=shown)
    if not before and state.roll is not None and _letters(dice) == "".join(
            sorted(f.letter for f in state.roll.faces)):
        return Observed(memo=Memo(dice), shown=shown)  # after a restart: the throw it has
    asking = Memo(before, asked=dice)
    unsure = [i for i, d in enumerate(dice) if d.letter == UNSURE]
    if unsure:
        prompt = Prompt(
            kind="unsure", code="dice_unsure", message="the camera is not sure of some dice",
            details={"dice": shown["dice"], "unsure": unsure,
                     "candidates": {str(i): list(dice[i].candidates) for i in unsure}},
            answers=("throw",))
        return Observed(prompt=prompt, memo=asking, shown=shown)
    event = Throw(_notation(dice), kept=_kept(before, dice) if state.roll else ())
    try:
        apply(state, event)
    except Refused as exc:
        prompt = Prompt(kind="impossible", code=exc.code, message=exc.reason,
                        details={"dice": shown["dice"], **exc.details}, refused=True,
                        answers=("throw",))
        return Observed(prompt=prompt, memo=asking, shown=shown)
    return Observed(events=(event,), memo=Memo(dice), shown=shown)
