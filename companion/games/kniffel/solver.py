"""Best entries for a roll, checking a player's entry, and re-roll advice.

Everything here is pure: the word index (:class:`Lexicon`) and the random generator are
handed in. The method: every word a roll can lay uses some subset of the seven dice; the
128 subsets are looked up in the index once (:func:`spell_table`), and each box is then the
best combination of disjoint subsets that its rule allows (:func:`best_boxes`).
"""

from __future__ import annotations

import itertools
import logging
import math
import random
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from companion.games.base import Refused
from companion.games.kniffel.dice import N_DICE, DiceError, DiceSet, Face, Roll
from companion.games.kniffel.lexicon import DICE_LETTERS, Lexicon, key, spellings
from companion.games.kniffel.pad import (
    BOXES,
    FULL_HOUSE,
    KNIFFEL,
    STREET,
    UPPER_BONUS,
    UPPER_BONUS_AT,
    Box,
)

_log = logging.getLogger(__name__)

ALL = (1 << N_DICE) - 1
# The fair share of each upper box towards the 50 the bonus needs (50 / 5 boxes).
UPPER_PAR = UPPER_BONUS_AT // 5


@dataclass(frozen=True)
class Play:
    """One word laid with some dice: ``dice`` are positions in the roll, ``joker`` the letter
    the diamond stands for in it (if it is used)."""

    word: str
    dice: tuple[int, ...]
    joker: str | None = None


@dataclass(frozen=True)
class Entry:
    """What a box would get: ``score`` (``None``: cannot be filled) and the words laid."""

    box: Box
    score: int | None
    plays: tuple[Play, ...] = ()

    def view(self) -> dict[str, object]:
        return {
            "score": self.score,
            "words": [p.word for p in self.plays],
            "dice": [list(p.dice) for p in self.plays],
            "joker": next((p.joker for p in self.plays if p.joker), None),
        }


@dataclass(frozen=True)
class Ranked:
    """An entry in the ranking: its score now and what it does for the upper bonus.

    ``value`` is the score plus the 35 bonus points when this entry makes the upper part reach
    50; ``par_delta`` is the score above (or below) an upper box's fair share of 10.
    """

    entry: Entry
    value: int
    bonus_secured: bool
    par_delta: int | None


# --- the roll's subsets -----------------------------------------------------------------------


def spell_table(roll: Roll, lexicon: Lexicon) -> dict[int, tuple[int, ...]]:
    """Each subset of dice (bit i = position i) that lays at least one word, with the ids of
    the words it lays using exactly those dice."""
    letters = [f.letter.lower() for f in roll.faces]
    joker = roll.joker
    order = sorted((i for i in range(N_DICE) if i != joker), key=lambda i: letters[i])
    jbit = 0 if joker is None else 1 << joker
    exact, wild = lexicon.exact, lexicon.joker
    out: dict[int, tuple[int, ...]] = {}
    for mask in range(3, ALL + 1):
        if mask & (mask - 1) == 0:  # a single die
            continue
        k = "".join([letters[i] for i in order if mask >> i & 1])
        ids = wild.get(k) if mask & jbit else exact.get(k)
        if ids:
            out[mask] = ids
    return out


def _bits(mask: int) -> tuple[int, ...]:
    return tuple(i for i in range(N_DICE) if mask >> i & 1)


def _popcount(mask: int) -> int:
    return bin(mask).count("1")


def _distinct(choices: Sequence[Sequence[int]]) -> tuple[int, ...] | None:
    """One word per subset with no word used twice ("zwei Wörter" are two different words),
    the earliest possible; ``None`` if there is no such choice."""
    if len(choices) <= 1 or all(len(c) >= len(choices) for c in choices):
        picked: list[int] = []
        for c in choices:
            picked.append(next(w for w in c if w not in picked))
        return tuple(picked)
    for combo in itertools.product(*choices):
        if len(set(combo)) == len(combo):
            return combo
    return None


_Best = tuple[int, tuple[int, ...], tuple[int, ...]]  # (score, masks, word ids)


def _best_combo(
    cands: Sequence[tuple[int, int, tuple[int, ...]]],
    n_min: int,
    n_max: int,
    full: bool = False,
) -> _Best | None:
    """The highest-scoring set of ``n_min``-``n_max`` disjoint subsets with different words;
    ``full``: they must use all seven dice. ``cands`` is sorted best value first."""
    best: list[_Best | None] = [None]

    def walk(start: int, used: int, total: int, chosen: list[int], words: list[tuple[int, ...]]) -> None:
        depth = len(chosen)
        if depth >= n_min and (not full or used == ALL):
            current = best[0]
            if current is None or total > current[0]:
                ids = _distinct(words)
                if ids is not None:
                    best[0] = (total, tuple(chosen), ids)
        if depth == n_max:
            return
        for j in range(start, len(cands)):
            mask, value, ids = cands[j]
            if mask & used:
                continue
            if full and (used | mask) != ALL and depth + 1 == n_max:
                continue
            chosen.append(mask)
            words.append(ids)
            walk(j + 1, used | mask, total + value, chosen, words)
            chosen.pop()
            words.pop()

    walk(0, 0, 0, [], [])
    return best[0]


def _box_bests(
    roll: Roll, table: Mapping[int, tuple[int, ...]], boxes: Collection[Box]
) -> dict[Box, _Best | None]:
    values = [f.value for f in roll.faces]
    cands = sorted(
        ((m, sum(values[i] for i in _bits(m)), ids) for m, ids in table.items()),
        key=lambda c: (-c[1], c[0]),
    )
    by_size: dict[int, list[tuple[int, int, tuple[int, ...]]]] = {}
    for c in cands:
        by_size.setdefault(_popcount(c[0]), []).append(c)
    out: dict[Box, _Best | None] = {}
    for box in boxes:
        if box.letters is not None:
            lo, hi = box.words
            out[box] = _best_combo(by_size.get(box.letters, []), lo, hi)
        elif box is Box.PAIR_OF_WORDS:
            out[box] = _best_combo(cands, 2, 2)
        elif box is Box.THREE_WORDS:
            out[box] = _best_combo(cands, 3, 3)
        elif box is Box.FULL_HOUSE:
            found = _best_combo(cands, 2, 2, full=True)
            out[box] = None if found is None else (FULL_HOUSE, found[1], found[2])
        elif box is Box.KNIFFEL:
            ids = table.get(ALL)
            out[box] = None if not ids else (KNIFFEL, (ALL,), (ids[0],))
        elif box is Box.STREET:
            out[box] = (STREET, (), ()) if all(f.is_vowel for f in roll.faces) else None
        else:  # chance: the sum of all dice, no word needed
            out[box] = (roll.total, (), ())
    return out


def best_boxes(
    roll: Roll, lexicon: Lexicon, open_boxes: Collection[Box] | None = None
) -> dict[Box, Entry]:
    """The best entry of every box (all 11 keys; a closed box gets ``score=None``)."""
    wanted = BOXES if open_boxes is None else tuple(b for b in BOXES if b in open_boxes)
    bests = _box_bests(roll, spell_table(roll, lexicon), wanted)
    out: dict[Box, Entry] = {}
    for box in BOXES:
        found = bests.get(box)
        if found is None:
            out[box] = Entry(box, None)
            continue
        score, masks, ids = found
        plays = tuple(_play(roll, lexicon, m, w) for m, w in zip(masks, ids))
        out[box] = Entry(box, score, plays)
    return out


def _play(roll: Roll, lexicon: Lexicon, mask: int, wid: int) -> Play:
    dice = _bits(mask)
    joker = roll.joker
    letter = None
    if joker is not None and joker in dice:
        have = key(roll.faces[i].letter.lower() for i in dice if i != joker)
        for form in spellings(lexicon.words[wid]):
            if len(form) == len(dice):
                rest = list(form)
                for ch in have:
                    if ch in rest:
                        rest.remove(ch)
                if len(rest) == 1:
                    letter = rest[0].upper() if rest[0] != "ß" else "ß"
                    break
    return Play(lexicon.words[wid], dice, letter)


# --- ranking ----------------------------------------------------------------------------------


def rank(entries: Iterable[Entry], upper: int = 0) -> list[Ranked]:
    """Fillable entries, best first: by score plus the bonus it secures, then by how far an
    upper entry beats its fair share; ``upper`` is the player's upper total so far."""
    out = []
    for e in entries:
        if e.score is None:
            continue
        secured = e.box.is_upper and upper < UPPER_BONUS_AT <= upper + e.score
        par = e.score - UPPER_PAR if e.box.is_upper else None
        out.append(Ranked(e, e.score + (UPPER_BONUS if secured else 0), secured, par))
    order = {b: i for i, b in enumerate(BOXES)}
    out.sort(key=lambda r: (-r.value, -(r.par_delta or 0), order[r.entry.box]))
    return out


def best_value(
    roll: Roll, lexicon: Lexicon, open_boxes: Collection[Box], upper: int = 0
) -> int:
    """The value of the best entry (score plus any bonus it secures); 0 when nothing fits."""
    bests = _box_bests(roll, spell_table(roll, lexicon), open_boxes)
    top = 0
    for box, found in bests.items():
        if found is None:
            continue
        score = found[0]
        if box.is_upper and upper < UPPER_BONUS_AT <= upper + score:
            score += UPPER_BONUS
        top = max(top, score)
    return top


# --- checking an entry ------------------------------------------------------------------------


def check_entry(
    roll: Roll,
    box: Box,
    words: Sequence[str],
    lexicon: Lexicon | None = None,
    table_ok: bool = False,
) -> Entry:
    """Score ``words`` laid from ``roll`` in ``box``, or raise :class:`Refused` saying why.

    Without a lexicon (or with ``table_ok``: the table accepted the words) any word the dice
    can lay counts; otherwise words must be in the lexicon. Codes: ``box_takes_words``,
    ``same_word``, ``not_a_word``, ``cannot_spell``, ``wrong_length``, ``not_all_dice``,
    ``not_vowels``.
    """
    words = [w.strip() for w in words if w.strip()]
    lo, hi = box.words
    if box is Box.STREET:
        if not all(f.is_vowel for f in roll.faces):
            raise Refused("not_vowels", "a Straße needs all 7 dice vowels (A E I O U or the diamond)")
        return Entry(box, STREET)
    if box is Box.CHANCE:
        return Entry(box, roll.total)
    if not lo <= len(words) <= hi:
        need = str(lo) if lo == hi else f"{lo} to {hi}"
        raise Refused(
            "box_takes_words", f"box {box.value} takes {need} word(s), got {len(words)}",
            box=box.value,
        )
    lowered = [w.lower() for w in words]
    if len(set(lowered)) < len(lowered):
        raise Refused("same_word", "the words of one entry must be different words")
    options: list[list[tuple[int, str]]] = []  # per word: (mask, display word)
    for w in words:
        forms: list[tuple[str, str]] = []
        ids = lexicon.find(w) if lexicon is not None else ()
        if ids and lexicon is not None:
            forms = [(f, lexicon.words[i]) for i in ids for f in spellings(lexicon.words[i])]
        elif lexicon is None or table_ok:
            forms = [(f, w.upper()) for f in spellings(w)]
        else:
            raise Refused("not_a_word", f"{w.upper()} is not in the word list", word=w)
        masks = [(m, shown) for f, shown in forms for m in _masks_for(roll, f)]
        if not masks:
            raise Refused("cannot_spell", f"the dice {roll} cannot lay {w.upper()}", word=w)
        if box.letters is not None:
            masks = [(m, s) for m, s in masks if _popcount(m) == box.letters]
            if not masks:
                raise Refused(
                    "wrong_length",
                    f"{w.upper()} does not use {box.letters} dice; box {box.value} takes "
                    f"{box.letters}-letter words",
                    word=w,
                )
        if box is Box.KNIFFEL:
            masks = [(m, s) for m, s in masks if m == ALL]
            if not masks:
                raise Refused("not_all_dice", f"{w.upper()} does not use all 7 dice", word=w)
        options.append(masks)
    best: tuple[int, tuple[tuple[int, str], ...]] | None = None
    apart = False
    for combo in itertools.product(*options):
        used = 0
        for m, _ in combo:
            if used & m:
                break
            used |= m
        else:
            apart = True
            if box is Box.FULL_HOUSE and used != ALL:
                continue
            score = sum(roll.value_of(_bits(m)) for m, _ in combo)
            if best is None or score > best[0]:
                best = (score, combo)
    if best is None:
        if not apart:
            raise Refused(
                "cannot_spell",
                f"the dice {roll} cannot lay {' and '.join(w.upper() for w in words)} together",
            )
        raise Refused("not_all_dice", "a Full-House is two words using all 7 dice")
    score, combo = best
    if box is Box.FULL_HOUSE:
        score = FULL_HOUSE
    elif box is Box.KNIFFEL:
        score = KNIFFEL
    plays = tuple(_play_text(roll, m, shown, w) for (m, shown), w in zip(combo, words))
    return Entry(box, score, plays)


def _masks_for(roll: Roll, form: str) -> list[int]:
    """The subsets of dice that lay the spelling ``form`` exactly (diamond included)."""
    want = key(form)
    letters = [f.letter.lower() for f in roll.faces]
    joker = roll.joker
    out = []
    for mask in range(1, ALL + 1):
        dice = _bits(mask)
        if len(dice) != len(form):
            continue
        have = key(letters[i] for i in dice if i != joker)
        if joker is not None and joker in dice:
            rest = list(want)
            ok = True
            for ch in have:
                if ch in rest:
                    rest.remove(ch)
                else:
                    ok = False
                    break
            if ok and len(rest) == 1:
                out.append(mask)
        elif have == want:
            out.append(mask)
    return out


def _play_text(roll: Roll, mask: int, shown: str, typed: str) -> Play:
    dice = _bits(mask)
    joker = roll.joker
    letter = None
    if joker is not None and joker in dice:
        have = [roll.faces[i].letter.lower() for i in dice if i != joker]
        for form in spellings(shown):
            rest = list(form)
            if len(form) != len(dice):
                continue
            for ch in have:
                if ch in rest:
                    rest.remove(ch)
            if len(rest) == 1:
                letter = rest[0].upper() if rest[0] in DICE_LETTERS else rest[0]
                break
    return Play(shown, dice, letter)


# --- re-roll advice ---------------------------------------------------------------------------


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
    refine_samples: int = 48,
    exact_limit: int = 36,
) -> Advice:
    """Which dice to keep to maximise the expected best entry.

    Each keep set is weighed by the value of the best entry after re-rolling the other dice
    over their faces: exactly when the re-roll has at most ``exact_limit`` outcomes, else by
    ``samples`` draws from ``rng``; the ``refine`` most promising sampled sets get
    ``refine_samples`` more draws. With two rolls left the player keeps the same dice through
    both re-rolls and stops after the first when it already beats the expected second (a
    policy a player can follow; perfect play could only do better).
    Keeping all seven is standing pat: the current roll's value, exact.
    """
    if rolls_left not in (1, 2):
        raise DiceError("advice needs 1 or 2 rolls left")
    owners = dice.assign(roll)
    if owners is None:
        raise DiceError(f"the dice set cannot throw {roll}")
    boxes = frozenset(BOXES if open_boxes is None else open_boxes)
    memo: dict[tuple[Face, ...], int] = {}

    def value(faces: tuple[Face, ...]) -> int:
        k = tuple(sorted(faces))
        v = memo.get(k)
        if v is None:
            v = best_value(Roll(faces), lexicon, boxes, upper)
            memo[k] = v
        return v

    def outcomes(keep: tuple[int, ...], n: int | None) -> list[int]:
        free = [i for i in range(N_DICE) if i not in keep]
        faces = [dice.dice[owners[i]] for i in free]
        base = list(roll.faces)
        draws: Iterable[tuple[Face, ...]]
        if n is None:
            draws = itertools.product(*faces)
        else:
            draws = [tuple(rng.choice(f) for f in faces) for _ in range(n)]
        out = []
        for draw in draws:
            for i, f in zip(free, draw):
                base[i] = f
            out.append(value(tuple(base)))
        return out

    def summarise(keep: tuple[int, ...], vals: list[int], exact: bool) -> KeepOption:
        n = len(vals)
        mean = sum(vals) / n
        if rolls_left == 2:
            vals2 = [max(float(v), mean) for v in vals]
        else:
            vals2 = [float(v) for v in vals]
        m2 = sum(vals2) / n
        if exact or n < 2:
            err = 0.0
        else:
            err = math.sqrt(sum((v - m2) ** 2 for v in vals2) / (n - 1) / n)
        return KeepOption(keep, m2, err, exact, n)

    stand = tuple(range(N_DICE))
    options: dict[tuple[int, ...], KeepOption] = {
        stand: KeepOption(stand, float(value(roll.faces)), 0.0, True, 1)
    }
    sampled: dict[tuple[int, ...], list[int]] = {}
    for size in range(N_DICE):
        for keep in itertools.combinations(range(N_DICE), size):
            free = [i for i in range(N_DICE) if i not in keep]
            count = math.prod(len(dice.dice[owners[i]]) for i in free)
            if count <= exact_limit:
                options[keep] = summarise(keep, outcomes(keep, None), True)
            else:
                sampled[keep] = outcomes(keep, samples)
                options[keep] = summarise(keep, sampled[keep], False)
    leaders = sorted(sampled, key=lambda k: -options[k].expected)[:refine]
    for keep in leaders:
        sampled[keep] += outcomes(keep, refine_samples)
        options[keep] = summarise(keep, sampled[keep], False)
    ranked = sorted(options.values(), key=lambda o: (-o.expected, len(o.keep) * -1, o.keep))
    _log.debug("advice for %s: %d rolls weighed", roll, len(memo))
    return Advice(ranked[0], tuple(ranked), len(memo))
