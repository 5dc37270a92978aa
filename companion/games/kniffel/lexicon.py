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
"""

from __future__ import annotations

import itertools
import logging
import typing
from collections.abc import Iterable, Iterator, Mapping
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


@dataclass(frozen=True, eq=False)
class Lexicon:
    """Words and three look-ups over them; build with :meth:`from_words`.

    - ``exact``: key of the dice letters -> ids of the words those dice lay exactly.
    - ``joker``: key of the other dice when the diamond is also used -> word ids (each
      spelling's key with one letter taken out: the letter the diamond stands for).
    - ``lookup``: a word as typed (lower case, also each of its dice spellings) -> ids.
    """

    words: tuple[str, ...]
    exact: Mapping[str, tuple[int, ...]]
    joker: Mapping[str, tuple[int, ...]]
    lookup: Mapping[str, tuple[int, ...]]
    removed: frozenset[int] = frozenset()  # ids blocked after indexing (ids stay stable)
    # entries of the source list a referee refuses (lower case -> why), for ``words --check``
    refused: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def from_words(cls, words: Iterable[str]) -> Lexicon:
        """Index ``words`` (first spelling of a word wins its display form, case-insensitive)."""
        return cls((), {}, {}, {}).amend(allow=words)

    def __iter__(self) -> Iterator[str]:
        """The words in the index (blocked ones left out)."""
        return (w for i, w in enumerate(self.words) if i not in self.removed)

    def amend(self, allow: Iterable[str] = (), block: Iterable[str] = ()) -> Lexicon:
        """A new lexicon with the table's house rules: ``block`` words removed, ``allow``
        words added (both case-insensitive). Only the keys those words touch are rebuilt."""
        exact: dict[str, list[int] | tuple[int, ...]] = dict(self.exact)
        joker: dict[str, list[int] | tuple[int, ...]] = dict(self.joker)
        lookup: dict[str, list[int] | tuple[int, ...]] = dict(self.lookup)
        kept = list(self.words)
        removed = set(self.removed)
        gone = {w.strip().lower() for w in block if w.strip()}
        if gone:
            drop = {i for w in gone for i in self.lookup.get(w, ()) if kept[i].lower() == w}
            removed |= drop
            for i in drop:
                word = kept[i]
                for index, k in _entries(word):
                    index_map = (exact, joker, lookup)[index]
                    index_map[k] = tuple(j for j in index_map.get(k, ()) if j not in drop)
                    if not index_map[k]:
                        del index_map[k]
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
                index_map = (exact, joker, lookup)[index]
                ids = index_map.get(k)
                if ids is None:
                    index_map[k] = [wid]
                elif ids[-1] != wid:
                    if isinstance(ids, list):  # built in this call: ours to extend
                        ids.append(wid)
                    else:
                        index_map[k] = [*ids, wid]
        _log.debug("indexed %d words, %d keys, %d joker keys", len(kept), len(exact), len(joker))
        return Lexicon(
            tuple(kept), _freeze(exact), _freeze(joker), _freeze(lookup), frozenset(removed),
            self.refused,
        )

    def refusing(self, refused: Mapping[str, str]) -> Lexicon:
        """The same index, knowing why the source's other entries were refused."""
        return Lexicon(self.words, self.exact, self.joker, self.lookup, self.removed, refused)

    def to_data(self) -> dict[str, object]:
        """Plain lists and dicts (for the cache file); :meth:`from_data` reverses it."""
        return {
            "words": list(self.words),
            "exact": dict(self.exact),
            "joker": dict(self.joker),
            "lookup": dict(self.lookup),
            "removed": sorted(self.removed),
            "refused": dict(self.refused),
        }

    @classmethod
    def from_data(cls, data: Mapping[str, object]) -> Lexicon:
        """Rebuild from :meth:`to_data`; raises ``ValueError`` for anything else."""
        words = data.get("words")
        maps = [data.get(name) for name in ("exact", "joker", "lookup")]
        if not isinstance(words, (list, tuple)) or not all(isinstance(m, dict) for m in maps):
            raise ValueError("not a word index")
        exact, joker, lookup = (typing.cast(dict[str, tuple[int, ...]], m) for m in maps)
        removed = data.get("removed", [])
        refused = data.get("refused", {})
        if not isinstance(removed, (list, tuple)) or not isinstance(refused, dict):
            raise ValueError("not a word index")
        return cls(tuple(words), exact, joker, lookup, frozenset(removed), refused)

    def __len__(self) -> int:
        return len(self.words) - len(self.removed)

    def find(self, text: str) -> tuple[int, ...]:
        """Ids of the words ``text`` names: the word itself, else words the same dice lay
        (``TUR`` is Tür, ``FUSS`` is Fuß)."""
        low = text.strip().lower()
        return self.lookup.get(low, ()) or tuple(
            sorted({i for form in spellings(low) for i in self.lookup.get(form, ())})
        )

    def __contains__(self, text: object) -> bool:
        return isinstance(text, str) and bool(self.find(text))


def _entries(word: str) -> Iterator[tuple[int, str]]:
    """Where a word goes: (0 exact | 1 joker | 2 lookup, key)."""
    forms = spellings(word)
    for text in {word.strip().lower(), *forms}:
        yield 2, text
    for form in forms:
        k = key(form)
        odd = [ch for ch in set(k) if ch not in DICE_LETTERS]
        if not odd:
            yield 0, k
            for ch in sorted(set(k)):
                yield 1, k.replace(ch, "", 1)
        else:
            yield 1, k.replace(odd[0], "", 1)


def _freeze(index: dict[str, list[int] | tuple[int, ...]]) -> dict[str, tuple[int, ...]]:
    return {k: v if isinstance(v, tuple) else tuple(v) for k, v in index.items()}
