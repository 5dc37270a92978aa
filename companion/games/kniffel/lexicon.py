"""The word index the solver and the rules receive: pure data, built from a list of words.

A word is looked up by the multiset of dice it needs, so the solver asks one question per
subset of the roll (2^7 = 128) instead of scanning the dictionary. The key is the word's dice
letters, lower case and sorted, after the table's letter readings:

- Ä, Ö, Ü are laid with the A, O, U dice, so they fold to ``a``, ``o``, ``u``.
- ß is laid either as two S dice (the capital spelling, STRASSE) or with the diamond; a word
  with ß therefore has several spellings (``fuss`` with four dice, ``fuß`` with three).
- Any other letter no die shows (é, ñ…) can only be the diamond; a word needing the diamond
  twice cannot be laid and is left out.

Words needing more than seven dice or fewer than two are left out: the smallest box is for
two-letter words and the set has seven dice.

The index lives as long as the table runs, on a Pi beside the camera's networks, so it is
held compactly (:class:`Postings`): the keys as numbers in one sorted array, each with one
int beside it, most naming a single word and the others an offset into one array of ids. A
word as typed is found through the same keys (:meth:`Lexicon.find`) rather than a third map
of its own, and the words themselves are one string (:class:`Words`).
"""

from __future__ import annotations

import itertools
import logging
import typing
from array import array
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

_log = logging.getLogger(__name__)

MIN_DICE = 2
MAX_DICE = 7
DICE_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyz")
_FOLD = str.maketrans({"ä": "a", "ö": "o", "ü": "u"})


def spellings(word: str) -> tuple[str, ...]:
    """The ways the dice can lay ``word`` (lower case, in order), shortest first.

    Only spellings of 2-7 dice needing the diamond at most once are returned; an empty
    tuple means the dice cannot lay the word at all.
    """
    w = word.strip().lower().translate(_FOLD)
    if not w or not w.isalpha():
        return ()
    parts = w.split("ß")
    out: set[str] = set()
    for seps in itertools.product(("ß", "ss"), repeat=len(parts) - 1):
        s = parts[0] + "".join(sep + part for sep, part in zip(seps, parts[1:]))
        if MIN_DICE <= len(s) <= MAX_DICE and sum(ch not in DICE_LETTERS for ch in s) <= 1:
            out.add(s)
    return tuple(sorted(out, key=lambda s: (len(s), s)))


def key(letters: Iterable[str]) -> str:
    """The index key of a multiset of dice letters."""
    return "".join(sorted(letters))


class Words(Sequence[str]):
    """The indexed words, by id: one string and the end of each word in it, rather than a
    string object per word (27,000 of them are 1.7 MB; this is a fifth of that)."""

    __slots__ = ("text", "ends")

    def __init__(self, text: str = "", ends: array[int] | None = None) -> None:
        self.text = text
        self.ends: array[int] = array("i") if ends is None else ends

    @classmethod
    def of(cls, words: Iterable[str]) -> Words:
        listed = list(words)
        return cls("".join(listed), array("i", itertools.accumulate(len(w) for w in listed)))

    @typing.overload
    def __getitem__(self, i: int) -> str: ...

    @typing.overload
    def __getitem__(self, i: slice) -> Sequence[str]: ...

    def __getitem__(self, i: int | slice) -> str | Sequence[str]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self.ends)
        if i < 0:
            raise IndexError("word id out of range")
        end = self.ends[i]  # IndexError past the end, as a tuple's
        return self.text[self.ends[i - 1] if i else 0 : end]

    def __len__(self) -> int:
        return len(self.ends)

    def __iter__(self) -> Iterator[str]:
        start = 0
        for end in self.ends:
            yield self.text[start:end]
            start = end

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Words):
            return self.text == other.text and self.ends == other.ends
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]


class Postings(Mapping[str, tuple[int, ...]]):
    """Index key -> word ids, as three arrays rather than a dict of key strings.

    A key (dice letters a-z, sorted) is a number (:func:`code`); ``codes`` holds the keys'
    numbers in ascending order and ``slots`` beside each one int: the id itself when one
    word has the key (most keys), else ``~offset`` into ``pool``, where the count and then
    the ids lie. 72,000 keys held as a dict of strings to ints took 9 MB on the table beside
    the camera's networks; as arrays they take 1 MB. The solver asks for all the subsets of
    a roll in one :meth:`hits`, a binary search for each in one call.
    """

    __slots__ = ("codes", "slots", "pool")

    def __init__(self, codes: typing.Any = None, slots: typing.Any = None,
                 pool: array[int] | None = None) -> None:
        import numpy as np

        self.codes = np.zeros(0, np.int64) if codes is None else np.asarray(codes, np.int64)
        self.slots = np.zeros(0, np.int32) if slots is None else np.asarray(slots, np.int32)
        self.pool: array[int] = array("i") if pool is None else pool

    @classmethod
    def of(cls, slots: Mapping[str, int], pool: array[int]) -> Postings:
        """From key -> slot (any order)."""
        import numpy as np

        codes = np.fromiter((code(k) for k in slots), np.int64, len(slots))
        if len(codes) and codes.min() < 0:
            raise ValueError("an index key is not dice letters a-z")
        order = np.argsort(codes, kind="stable")
        values = np.fromiter(slots.values(), np.int32, len(slots))
        return cls(codes[order], values[order], pool)

    def ids(self, slot: int) -> tuple[int, ...]:
        if slot >= 0:
            return (slot,)
        start = ~slot + 1
        return tuple(self.pool[start : start + self.pool[start - 1]])

    def hits(self, codes: Sequence[int]) -> Iterator[tuple[int, tuple[int, ...]]]:
        """``(i, ids)`` for each ``codes[i]`` that is a key, in order."""
        import numpy as np

        if not len(self.codes):
            return
        want = np.asarray(codes, np.int64)
        at = np.minimum(np.searchsorted(self.codes, want), len(self.codes) - 1)
        for i in np.flatnonzero(self.codes[at] == want).tolist():
            yield i, self.ids(int(self.slots[at[i]]))

    def __getitem__(self, k: str) -> tuple[int, ...]:
        for _, ids in self.hits((code(k),)):
            return ids
        raise KeyError(k)

    def get(self, k: str, default: typing.Any = None) -> typing.Any:  # no KeyError per miss
        for _, ids in self.hits((code(k),)):
            return ids
        return default

    def __iter__(self) -> Iterator[str]:
        return (letters_of(c) for c in self.codes.tolist())

    def __len__(self) -> int:
        return len(self.codes)

    def _slots(self) -> dict[str, int]:
        return dict(zip(self, self.slots.tolist()))

    def changed(self, touched: Mapping[str, Sequence[int]]) -> Postings:
        """A copy with the ids of the ``touched`` keys replaced (none: the key is gone)."""
        slots: dict[str, int] = {}
        pool: array[int] = array("i")
        for k, slot in self._slots().items():
            if k in touched:
                continue
            if slot < 0:
                start = ~slot
                slot = ~len(pool)
                pool.extend(self.pool[start : start + self.pool[start] + 1])
            slots[k] = slot
        for k, ids in touched.items():
            if len(ids) == 1:
                slots[k] = ids[0]
            elif ids:
                slots[k] = ~len(pool)
                pool.append(len(ids))
                pool.extend(ids)
        return Postings.of(slots, pool)

    def to_data(self) -> list[object]:
        """[keys joined by newlines, slots, pool] (int32 in this machine's byte order)."""
        return ["\n".join(self), array("i", self.slots.tolist()).tobytes(), self.pool.tobytes()]

    @classmethod
    def from_data(cls, data: object) -> Postings:
        """Rebuild from :meth:`to_data`; raises ``ValueError`` for anything else. The keys
        are turned into numbers from their bytes, with no string object made for each."""
        import numpy as np

        if not isinstance(data, (list, tuple)) or len(data) != 3:
            raise ValueError("not a word index")
        keys, slots, pool = data
        if not isinstance(keys, str) or not isinstance(slots, bytes) or not isinstance(pool, bytes):
            raise ValueError("not a word index")
        values, ids = array("i"), array("i")
        values.frombytes(slots)
        ids.frombytes(pool)
        text = np.frombuffer(keys.encode("ascii"), np.uint8)  # else UnicodeError, a ValueError
        breaks = np.flatnonzero(text == ord("\n"))
        starts = np.concatenate(([0], breaks + 1)) if keys else np.zeros(0, np.int64)
        lengths = np.concatenate((breaks, [len(text)])) - starts if keys else starts
        if len(starts) != len(values) or (lengths > MAX_DICE).any():
            raise ValueError("not a word index")
        codes = np.zeros(len(starts), np.int64)
        for j in range(MAX_DICE):
            more = lengths > j
            digit = text[starts[more] + j].astype(np.int64) - 96
            if ((digit < 1) | (digit > 26)).any():
                raise ValueError("not a word index")
            codes[more] = codes[more] * 27 + digit
        order = np.argsort(codes, kind="stable")
        return cls(codes[order], np.asarray(values, np.int32)[order], ids)


def code(letters: str) -> int:
    """A key's number: its letters a-z as digits 1-26 in base 27, so distinct keys have
    distinct numbers and a key plus one letter is ``code(key) * 27 + digit``. A string with
    any other character is -1, which no key has."""
    n = 0
    for ch in letters:
        d = ord(ch) - 96
        if not 1 <= d <= 26:
            return -1
        n = n * 27 + d
    return n


def letters_of(number: int) -> str:
    """The key whose :func:`code` is ``number``."""
    out: list[str] = []
    while number:
        number, d = divmod(number, 27)
        out.append(chr(96 + d))
    return "".join(reversed(out))


@dataclass(frozen=True, eq=False)
class Lexicon:
    """Words and two look-ups over them; build with :meth:`from_words`.

    - ``exact``: key of the dice letters -> ids of the words those dice lay exactly.
    - ``joker``: key of the other dice when the diamond is also used -> word ids (each
      spelling's key with one letter taken out: the letter the diamond stands for).
    """

    words: Words
    exact: Postings
    joker: Postings
    removed: frozenset[int] = frozenset()  # ids blocked after indexing (ids stay stable)
    # entries of the source list a referee refuses (lower case -> why), for ``words --check``
    refused: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def from_words(cls, words: Iterable[str]) -> Lexicon:
        """Index ``words`` (first spelling of a word wins its display form, case-insensitive)."""
        return cls(Words(), Postings(), Postings()).amend(allow=words)

    def __iter__(self) -> Iterator[str]:
        """The words in the index (blocked ones left out)."""
        return (w for i, w in enumerate(self.words) if i not in self.removed)

    def amend(self, allow: Iterable[str] = (), block: Iterable[str] = ()) -> Lexicon:
        """A new lexicon with the table's house rules: ``block`` words removed, ``allow``
        words added (both case-insensitive). Only the keys those words touch are rebuilt."""
        touched: tuple[dict[str, list[int]], dict[str, list[int]]] = ({}, {})
        maps = (self.exact, self.joker)

        def ids_of(index: int, k: str) -> list[int]:
            got = touched[index].get(k)
            if got is None:
                got = touched[index][k] = list(maps[index].get(k, ()))
            return got

        kept = list(self.words)
        removed = set(self.removed)
        gone = {w.strip().lower() for w in block if w.strip()}
        if gone:
            drop = {i for w in gone for i in self.find(w) if kept[i].lower() == w}
            removed |= drop
            for i in drop:
                for index, k in _entries(kept[i]):
                    ids_of(index, k)[:] = [j for j in ids_of(index, k) if j not in drop]
        seen = {w.lower() for i, w in enumerate(kept) if i not in removed}
        for word in allow:
            word = word.strip()
            low = word.lower()
            if low in seen or low in gone or not spellings(word):
                continue
            seen.add(low)
            wid = len(kept)
            kept.append(word)
            for index, k in _entries(word):
                ids = ids_of(index, k)
                if not ids or ids[-1] != wid:
                    ids.append(wid)
        exact, joker = (m.changed(t) for m, t in zip(maps, touched))
        _log.debug("indexed %d words, %d keys, %d joker keys", len(kept), len(exact), len(joker))
        return Lexicon(Words.of(kept), exact, joker, frozenset(removed), self.refused)

    def refusing(self, refused: Mapping[str, str]) -> Lexicon:
        """The same index, knowing why the source's other entries were refused."""
        return Lexicon(self.words, self.exact, self.joker, self.removed, refused)

    def to_data(self) -> dict[str, object]:
        """Plain lists, strings and bytes (for the cache file); :meth:`from_data` reverses it."""
        return {
            "words": [self.words.text, self.words.ends.tobytes()],
            "exact": self.exact.to_data(),
            "joker": self.joker.to_data(),
            "removed": sorted(self.removed),
            "refused": dict(self.refused),
        }

    @classmethod
    def from_data(cls, data: Mapping[str, object]) -> Lexicon:
        """Rebuild from :meth:`to_data`; raises ``ValueError`` for anything else."""
        words = _words(data.get("words"))
        exact, joker = Postings.from_data(data.get("exact")), Postings.from_data(data.get("joker"))
        removed = data.get("removed", [])
        refused = data.get("refused", {})
        if not isinstance(removed, (list, tuple)) or not isinstance(refused, dict):
            raise ValueError("not a word index")
        return cls(words, exact, joker, frozenset(removed), refused)

    def __len__(self) -> int:
        return len(self.words) - len(self.removed)

    def find(self, text: str) -> tuple[int, ...]:
        """Ids of the words ``text`` names: the word itself, else words the same dice lay
        (``TUR`` is Tür, ``FUSS`` is Fuß)."""
        low = text.strip().lower()
        forms = spellings(low)
        near = sorted({i for index, k in _keys(forms) for i in (self.exact, self.joker)[index]
                       .get(k, ())})
        named = tuple(i for i in near if self.words[i].lower() == low or low in spellings(
            self.words[i]))
        if named:
            return named
        return tuple(i for i in near if not set(forms).isdisjoint(spellings(self.words[i])))

    def __contains__(self, text: object) -> bool:
        return isinstance(text, str) and bool(self.find(text))


def _words(data: object) -> Words:
    """The words of :meth:`Lexicon.to_data`: [text, ends as int32 bytes]."""
    if not isinstance(data, (list, tuple)) or len(data) != 2:
        raise ValueError("not a word index")
    text, ends = data
    if not isinstance(text, str) or not isinstance(ends, bytes):
        raise ValueError("not a word index")
    out = Words(text, array("i"))
    out.ends.frombytes(ends)
    if out.ends and out.ends[-1] != len(text):
        raise ValueError("not a word index")
    return out


def _keys(forms: Iterable[str]) -> Iterator[tuple[int, str]]:
    """Where the spellings ``forms`` are indexed under their own dice: (0 exact | 1 joker, key)."""
    for form in forms:
        k = key(form)
        odd = [ch for ch in set(k) if ch not in DICE_LETTERS]
        yield (1, k.replace(odd[0], "", 1)) if odd else (0, k)


def _entries(word: str) -> Iterator[tuple[int, str]]:
    """Where a word goes: (0 exact | 1 joker, key)."""
    for form in spellings(word):
        k = key(form)
        odd = [ch for ch in set(k) if ch not in DICE_LETTERS]
        if not odd:
            yield 0, k
            for ch in sorted(set(k)):
                yield 1, k.replace(ch, "", 1)
        else:
            yield 1, k.replace(odd[0], "", 1)
