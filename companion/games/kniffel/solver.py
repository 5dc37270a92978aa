"""Best entries for a roll, checking a player's entry, and re-roll advice.

Everything here is pure: the word index (:class:`Lexicon`) and the random generator are
handed in. The method: every word a roll can lay uses some subset of the seven dice; the
128 subsets are looked up in the index once (:func:`spell_table`), and each box is then the
best combination of disjoint subsets that its rule allows (:func:`best_boxes`).
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from companion.games.base import Refused
from companion.games.kniffel.dice import N_DICE, Roll
from companion.games.kniffel.lexicon import DICE_LETTERS, Lexicon, code, key, spellings
from companion.games.kniffel.pad import (
    BOXES,
    FULL_HOUSE,
    KNIFFEL,
    STREET,
    UPPER_BONUS,
    UPPER_BONUS_AT,
    Box,
)

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
    the words it lays using exactly those dice.

    The letter dice are taken in sorted letter order, so a subset's key is a smaller
    subset's key plus one letter (its number: the smaller one's times 27 plus the letter's,
    :func:`~companion.games.kniffel.lexicon.code`); all of them are then looked up in one
    call (the diamond's subsets look up the other dice in the ``joker`` index).
    """
    joker = roll.joker
    order = sorted((i for i in range(N_DICE) if i != joker), key=lambda i: roll.faces[i].letter)
    digits = [code(roll.faces[i].letter.lower()) for i in order]
    n = len(order)
    codes = [0] * (1 << n)
    posmask = [0] * (1 << n)
    for m in range(1, 1 << n):
        h = m.bit_length() - 1
        rest = m ^ (1 << h)
        codes[m] = codes[rest] * 27 + digits[h]
        posmask[m] = posmask[rest] | (1 << order[h])
    out: dict[int, tuple[int, ...]] = {}
    for m, ids in lexicon.exact.hits(codes):
        if m & (m - 1):  # two dice or more
            out[posmask[m]] = ids
    if joker is not None:
        for m, ids in lexicon.joker.hits(codes):
            if m:
                out[posmask[m] | 1 << joker] = ids
    return out


def _bits(mask: int) -> tuple[int, ...]:
    return tuple(i for i in range(N_DICE) if mask >> i & 1)


_POPCOUNT = tuple(bin(m).count("1") for m in range(ALL + 1))


def _popcount(mask: int) -> int:
    return _POPCOUNT[mask]


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
    maskval: Sequence[int],
    full: bool = False,
    floor: int = -1,
) -> _Best | None:
    """The highest-scoring set of ``n_min``-``n_max`` disjoint subsets with different words,
    scoring above ``floor``; ``full``: they must use all seven dice (any such set will do).
    ``cands`` is sorted best value first, ``maskval[m]`` is the value of the dice in ``m``.

    Branch and bound: a branch stops when even all its free dice, or its remaining words at
    the current candidate's value, cannot beat the best found so far.
    """
    best: list[_Best | None] = [None]
    bar = [floor]

    def walk(
        start: int, used: int, total: int, chosen: list[int], words: list[tuple[int, ...]]
    ) -> bool:
        depth = len(chosen)
        if depth >= n_min and total > bar[0] and (not full or used == ALL):
            ids = _distinct(words)
            if ids is not None:
                best[0] = (total, tuple(chosen), ids)
                bar[0] = total
                if full:
                    return True
        if depth == n_max or total + maskval[ALL ^ used] <= bar[0]:
            return False
        room = n_max - depth
        for j in range(start, len(cands)):
            mask, value, ids = cands[j]
            if total + value * room <= bar[0]:
                break  # sorted: nothing further can do better
            if mask & used:
                continue
            if full and (used | mask) != ALL and depth + 1 == n_max:
                continue
            chosen.append(mask)
            words.append(ids)
            done = walk(j + 1, used | mask, total + value, chosen, words)
            chosen.pop()
            words.pop()
            if done:
                return True
        return False

    walk(0, 0, 0, [], [])
    return best[0]


def _mask_values(roll: Roll) -> list[int]:
    v = [f.value for f in roll.faces]
    low = [0] * 16
    for m in range(1, 16):
        b = m & -m
        low[m] = low[m ^ b] + v[b.bit_length() - 1]
    high = [0, v[4], v[5], v[4] + v[5], v[6], v[4] + v[6], v[5] + v[6], v[4] + v[5] + v[6]]
    return [low[m & 15] + high[m >> 4] for m in range(ALL + 1)]


_Cand = tuple[int, int, tuple[int, ...]]  # (mask, value, word ids)


@dataclass(frozen=True)
class _Prepared:
    """A roll's subsets that lay words, sorted best value first, also grouped by size."""

    table: Mapping[int, tuple[int, ...]]
    maskval: Sequence[int]
    cands: Sequence[_Cand]
    by_size: Mapping[int, Sequence[_Cand]]


def _prepare(roll: Roll, table: Mapping[int, tuple[int, ...]]) -> _Prepared:
    maskval = _mask_values(roll)
    cands = sorted(((m, maskval[m], ids) for m, ids in table.items()), key=lambda c: (-c[1], c[0]))
    by_size: dict[int, list[_Cand]] = {}
    for c in cands:
        by_size.setdefault(_POPCOUNT[c[0]], []).append(c)
    return _Prepared(table, maskval, cands, by_size)


def _box_bests(
    roll: Roll,
    prep: _Prepared,
    boxes: Collection[Box],
    floors: Mapping[Box, int] | None = None,
) -> dict[Box, _Best | None]:
    """Best (score, masks, word ids) per box; with ``floors``, only results above a box's
    floor are looked for (``None`` otherwise)."""
    table, maskval, cands, by_size = prep.table, prep.maskval, prep.cands, prep.by_size
    out: dict[Box, _Best | None] = {}
    for box in boxes:
        floor = -1 if floors is None else floors.get(box, -1)
        if box.letters is not None:
            lo, hi = box.words
            out[box] = _best_combo(by_size.get(box.letters, []), lo, hi, maskval, floor=floor)
        elif box is Box.PAIR_OF_WORDS:
            out[box] = _best_combo(cands, 2, 2, maskval, floor=floor)
        elif box is Box.THREE_WORDS:
            out[box] = _best_combo(cands, 3, 3, maskval, floor=floor)
        elif box is Box.FULL_HOUSE:
            found = None
            if FULL_HOUSE > floor:
                found = _best_combo(cands, 2, 2, maskval, full=True)
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
    bests = _box_bests(roll, _prepare(roll, spell_table(roll, lexicon)), wanted)
    out: dict[Box, Entry] = {}
    for box in BOXES:
        found = bests.get(box)
        if found is None:
            out[box] = Entry(box, None)
            continue
        score, masks, ids = found
        plays = tuple(_play(roll, m, lexicon.words[w]) for m, w in zip(masks, ids))
        out[box] = Entry(box, score, plays)
    return out


def _play(roll: Roll, mask: int, word: str) -> Play:
    """``word`` laid with the dice of ``mask``, and what the diamond stands for in it."""
    dice = _bits(mask)
    joker = roll.joker
    letter = None
    if joker is not None and joker in dice:
        have = [roll.faces[i].letter.lower() for i in dice if i != joker]
        for form in spellings(word):
            if len(form) != len(dice):
                continue
            rest = list(form)
            for ch in have:
                if ch in rest:
                    rest.remove(ch)
            if len(rest) == 1:
                letter = rest[0].upper() if rest[0] in DICE_LETTERS else rest[0]
                break
    return Play(word, dice, letter)


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
    """The value of the best entry (score plus any bonus it secures); 0 when nothing fits.

    Faster than :func:`best_boxes`: the fixed-score boxes and the chance go first, and the
    word boxes only look for scores that could beat them.
    """
    prep = _prepare(roll, spell_table(roll, lexicon))
    quick = [b for b in (Box.KNIFFEL, Box.STREET, Box.CHANCE) if b in open_boxes]
    top = 0
    for box, found in _box_bests(roll, prep, quick).items():
        if found is not None:
            top = max(top, found[0])
    if Box.FULL_HOUSE in open_boxes and top < FULL_HOUSE:
        if _box_bests(roll, prep, (Box.FULL_HOUSE,))[Box.FULL_HOUSE] is not None:
            top = FULL_HOUSE
    word_boxes = (Box.PAIR_OF_WORDS, Box.THREE_WORDS)
    rest = [b for b in open_boxes if b.letters is not None or b in word_boxes]
    for box in sorted(rest, key=BOXES.index):
        # the bonus can only count if the whole roll could lift the upper part to 50
        reach = box.is_upper and upper < UPPER_BONUS_AT <= upper + roll.total
        gain = UPPER_BONUS if reach else 0
        found = _box_bests(roll, prep, (box,), {box: top - gain})[box]
        if found is None:
            continue
        score = found[0]
        if gain and upper + score >= UPPER_BONUS_AT:
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
            raise Refused(
                "not_vowels", "a Straße needs all 7 dice vowels (A E I O U or the diamond)"
            )
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
    options = [_word_masks(roll, box, w, lexicon, table_ok) for w in words]
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
    plays = tuple(_play(roll, m, shown) for m, shown in combo)
    return Entry(box, score, plays)


def _word_masks(
    roll: Roll, box: Box, w: str, lexicon: Lexicon | None, table_ok: bool,
) -> list[tuple[int, str]]:
    """The dice (as masks) one word can be laid with in ``box``, each with the word as shown;
    raises :class:`Refused` naming why it cannot be laid there."""
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
    return masks


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


