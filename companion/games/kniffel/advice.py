"""Re-roll advice: which dice to keep, and what the best entry is then worth on average.

Exact where the outcomes are few, sampled with a passed-in generator where they are many;
pure, so the same roll and seed always give the same advice.
"""

from __future__ import annotations

import itertools
import logging
import math
import random
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from companion.games.kniffel.dice import N_DICE, DiceError, DiceSet, Face, Roll
from companion.games.kniffel.lexicon import Lexicon
from companion.games.kniffel.pad import BOXES, Box
from companion.games.kniffel.solver import best_value

_log = logging.getLogger(__name__)



@dataclass(frozen=True)
class KeepOption:
    """Keeping the dice at ``keep`` and re-rolling the rest: the expected best entry value,
    its standard error (0 when enumerated exactly) and how many outcomes were weighed."""

    keep: tuple[int, ...]
    expected: float
    stderr: float
    exact: bool
    outcomes: int


@dataclass(frozen=True)
class Advice:
    best: KeepOption
    options: tuple[KeepOption, ...]  # every keep set weighed, best first
    evaluations: int


def advise(
    roll: Roll,
    lexicon: Lexicon,
    dice: DiceSet,
    rolls_left: int,
    rng: random.Random,
    open_boxes: Collection[Box] | None = None,
    upper: int = 0,
    samples: int = 12,
    refine: int = 6,
    refine_samples: int = 64,
    exact_limit: int = 36,
) -> Advice:
    """Which dice to keep to maximise the expected best entry.

    Each keep set is weighed by the value of the best entry after re-rolling the other dice
    over their faces: exactly when the re-roll has at most ``exact_limit`` outcomes, else by
    ``samples`` draws from ``rng``; the ``refine`` most promising sampled sets get
    ``refine_samples`` more draws. With two rolls left the player keeps the same dice through
    both re-rolls and stops after the first when it already beats the expected second (a
    policy a player can follow; perfect play could only do better).
    Keeping all seven is standing pat: the current roll's value, exact. Draws are shared
    between keep sets (common random numbers), so their comparison is fairer than their
    standard errors suggest; with two rolls left the error treats the stopping threshold
    (the mean of the same draws) as known.
    """
    if rolls_left not in (1, 2):
        raise DiceError("advice needs 1 or 2 rolls left")
    owners = dice.assign(roll)
    if owners is None:
        raise DiceError(f"the dice set cannot throw {roll}")
    weigh = _Weigher(roll, lexicon, dice, owners, frozenset(BOXES if open_boxes is None
                                                          else open_boxes), upper, rng)

    def summarise(keep: tuple[int, ...], vals: list[int], exact: bool) -> KeepOption:
        return _summarise(keep, vals, exact, rolls_left)

    stand = tuple(range(N_DICE))
    options: dict[tuple[int, ...], KeepOption] = {
        stand: KeepOption(stand, float(weigh.value(roll.faces)), 0.0, True, 1)
    }
    sampled: dict[tuple[int, ...], list[int]] = {}
    for size in range(N_DICE):
        for keep in itertools.combinations(range(N_DICE), size):
            free = [i for i in range(N_DICE) if i not in keep]
            count = math.prod(len(dice.dice[owners[i]]) for i in free)
            if count <= exact_limit:
                options[keep] = summarise(keep, weigh.outcomes(keep, None), True)
            else:
                sampled[keep] = weigh.outcomes(keep, samples)
                options[keep] = summarise(keep, sampled[keep], False)
    leaders = sorted(sampled, key=lambda k: -options[k].expected)[:refine]
    for keep in leaders:
        sampled[keep] += weigh.outcomes(keep, refine_samples, first=samples)
        options[keep] = summarise(keep, sampled[keep], False)
    ranked = sorted(options.values(), key=lambda o: (-o.expected, len(o.keep) * -1, o.keep))
    _log.debug("advice for %s: %d rolls weighed", roll, len(weigh.memo))
    return Advice(ranked[0], tuple(ranked), len(weigh.memo))


class _Weigher:
    """The best entry after a re-roll, memoised by the faces (order does not matter).

    Common random numbers: draw ``i`` re-rolls every die the same way for every keep set, so
    keep sets are compared on the same luck (a smaller error on their differences).
    """

    def __init__(self, roll: Roll, lexicon: Lexicon, dice: DiceSet, owners: Sequence[int],
                 boxes: frozenset[Box], upper: int, rng: random.Random) -> None:
        self.roll, self.lexicon, self.dice, self.owners = roll, lexicon, dice, owners
        self.boxes, self.upper, self.rng = boxes, upper, rng
        self.memo: dict[str, int] = {}
        self.pool: list[tuple[Face, ...]] = []

    def value(self, faces: tuple[Face, ...]) -> int:
        k = "".join(sorted([f"{f.letter}{f.value} " for f in faces]))
        v = self.memo.get(k)
        if v is None:
            v = best_value(Roll(faces), self.lexicon, self.boxes, self.upper)
            self.memo[k] = v
        return v

    def luck(self, i: int) -> tuple[Face, ...]:
        while len(self.pool) <= i:
            self.pool.append(tuple(self.rng.choice(self.dice.dice[self.owners[p]])
                                   for p in range(N_DICE)))
        return self.pool[i]

    def outcomes(self, keep: tuple[int, ...], n: int | None, first: int = 0) -> list[int]:
        """Every re-roll of the free dice (``n`` None), or ``n`` shared draws from ``first``."""
        free = [i for i in range(N_DICE) if i not in keep]
        faces = [self.dice.dice[self.owners[i]] for i in free]
        base = list(self.roll.faces)
        draws: Iterable[tuple[Face, ...]]
        if n is None:
            draws = itertools.product(*faces)
        else:
            draws = [tuple(self.luck(k)[i] for i in free) for k in range(first, first + n)]
        out = []
        for draw in draws:
            for i, f in zip(free, draw):
                base[i] = f
            out.append(self.value(tuple(base)))
        return out


def _summarise(keep: tuple[int, ...], vals: list[int], exact: bool, rolls_left: int) -> KeepOption:
    """A keep set's expected value; with two rolls left the player stops after the first
    re-roll when it already beats the mean of the second."""
    n = len(vals)
    mean = sum(vals) / n
    vals2 = [max(float(v), mean) for v in vals] if rolls_left == 2 else [float(v) for v in vals]
    m2 = sum(vals2) / n
    err = 0.0 if exact or n < 2 else math.sqrt(sum((v - m2) ** 2 for v in vals2) / (n - 1) / n)
    return KeepOption(keep, m2, err, exact, n)
