"""Which words of the German list a referee accepts: the word classes two lexicons give them.

The rule text forbids abbreviations, dialect and foreign words and proper names. A spelling
list (wngerman) cannot tell ``Uwe`` from ``Ufo``: both are capitalised entries. Two lexicons
that know word classes decide instead (figures and the candidates compared: docs/kniffel.md):

- **German Wiktionary's nouns** (PyPI ``german-nouns``, CC BY-SA 4.0): about 100,000 noun
  entries with their declension tables and Wiktionary's word class of each entry:
  ``Substantiv`` (a common noun), ``Vorname``, ``Nachname``, ``Toponym``, ``Eigenname``,
  ``Straßenname`` (names) and ``Abkürzung``. Every listed form counts, so ``Häuser`` is a
  common noun and ``Kassels`` a name.
- **The Hanover Tagger's German lexicon** (PyPI ``HanTa``, LGPL-3.0): STTS word classes of
  the words and morphemes of a tagged newspaper corpus, with its morphology for inflected
  and compound forms. ``NE`` is a proper name, ``FM`` foreign material; ``NN``, ``ADJ``,
  ``ADV``, ``VV``… are German words. Only classes the lexicon *knows* count: a log
  probability below :data:`KNOWN` means the tagger guessed from the letters (``hoc``).

The decision (:func:`decide`), from the strongest signal down:

1. A capitalised entry Wiktionary knows as a common noun is kept, unless the corpus lexicon
   knows it only as a name and igerman98 gives it no plural (``Rom``, ``Eva``, ``Mosel``:
   the common reading is rare; ``Müller`` has the plural of the miller). An entry Wiktionary knows only as a name is a name; only as an
   abbreviation, an abbreviation.
2. Otherwise the corpus lexicon's known classes: for a capitalised word its likeliest class
   (``Sven``: NE before NN), for a lower-case one any German class keeps the word; else
   ``NE`` is a name, ``FM`` foreign.
3. An entry igerman98 (the source of wngerman) writes only with a full stop (``usw.``,
   ``Dez.``) is an abbreviation.
4. A capitalised word no lexicon knows is ``not in list``, unless igerman98 declines it in
   the plural or it is built of listed words; an uninflected lower-case word no lexicon
   knows stands as the list has it (``oh``, ``quitt``).
   Capitalisation only chooses which evidence is asked for: a lower-case entry of the list
   is never a noun, so Wiktionary's nouns do not speak for it.
"""

from __future__ import annotations

import csv
import enum
import functools
import io
import logging
from collections.abc import Callable, Container, Iterator, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from companion.errors import InputError

_log = logging.getLogger(__name__)

# Log probability above which a HanTa analysis comes from its lexicon, not from guessing by
# the letters. Known words and their forms score -6 to -21; guesses -26 and below.
KNOWN = -24.0
# Wiktionary's forms are read up to this length: seven dice with ß read as SS.
MAX_FORM = 8

COMMON, NAME, ABBREVIATION = 1, 2, 4
_NAME_CLASSES = frozenset({"Toponym", "Vorname", "Nachname", "Eigenname", "Straßenname"})
_NOT_FORMS = frozenset({"lemma", "pos"})
# STTS classes that are not German words: names, foreign material, non-words and acronyms.
_NAME_TAGS = frozenset({"NE", "ACR_NE"})
_FOREIGN_TAGS = frozenset({"FM"})
_OTHER_TAGS = frozenset({"XY", "ACR_NN", "ACR_ADJ", "$(", "$.", "$,"})
# igerman98's inflection classes (its upper-case flags and p, q, g); the other flags only
# steer compounds, hyphens and suggestions. S and T are the genitive -s/-es, which names
# take too; every other class builds a plural or a verb or adjective paradigm.
_INFLECTING = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZpqg")
_PLURAL = _INFLECTING - {"S", "T"}
_ENDINGS = ("", "s", "es", "n", "en", "e", "ns", "ens", "er", "ern")
# German suffixes that make nouns of verbs and adjectives (with their plural and genitive).
_SUFFIXES = ("ungen", "ung", "heit", "keit", "nisse", "nis", "ei", "eien", "tum", "er", "ers")
PARADIGMS = Path("/usr/share/hunspell/de_DE.dic")


class Why(enum.StrEnum):
    """Why a referee refuses a word (the ``why`` of ``kniffel words --check``)."""

    NAME = "name"
    ABBREVIATION = "abbreviation"
    FOREIGN = "foreign"
    NOT_IN_LIST = "not in list"


class LexiconMissing(InputError):
    """A word-class lexicon package is not installed."""


@dataclass(frozen=True)
class Evidence:
    """What the lexicons say about one entry.

    ``nouns``: Wiktionary's readings of the entry as written (bits of COMMON, NAME,
    ABBREVIATION); ``tags``: the corpus lexicon's known STTS classes; ``inflects``: the
    entry has a German paradigm: a lower-case form igerman98 inflects, or a capitalised noun
    igerman98 declines in the plural or that is built of listed words (``Aufwurf``:
    ``auf`` + Wiktionary's ``Wurf``; ``Trübung``: ``trüben`` + ``-ung``).
    """

    nouns: int = 0
    tags: frozenset[str] = frozenset()
    inflects: bool = False
    best: str | None = None  # the corpus lexicon's likeliest known class


def decide(word: str, evidence: Evidence) -> Why | None:
    """``None`` when a referee accepts ``word``, else why not (the module text's order)."""
    if evidence.nouns == ABBREVIATION and not evidence.tags:
        return Why.ABBREVIATION
    if word[:1].isupper():
        return _capitalised(evidence)
    tags = evidence.tags
    if evidence.inflects or _german(tags) or not tags:
        return None  # an uninflected word no lexicon knows stands as the list has it
    return _not_german(tags)


def _capitalised(evidence: Evidence) -> Why | None:
    nouns, tags = evidence.nouns, evidence.tags
    if nouns & COMMON:
        name_only = bool(tags & _NAME_TAGS) and not _german(tags)
        if name_only and not evidence.inflects:
            return Why.NAME
        return None
    if nouns & NAME:
        return Why.NAME
    if nouns & ABBREVIATION:
        return Why.ABBREVIATION
    if evidence.best and _german(frozenset({evidence.best})):
        return None
    if not tags and evidence.inflects:
        return None
    return _not_german(tags)


def _german(tags: frozenset[str]) -> bool:
    return bool(tags - _NAME_TAGS - _FOREIGN_TAGS - _OTHER_TAGS)


def _not_german(tags: frozenset[str]) -> Why:
    if tags & _NAME_TAGS:
        return Why.NAME
    if tags & _FOREIGN_TAGS:
        return Why.FOREIGN
    return Why.ABBREVIATION if tags else Why.NOT_IN_LIST


class Referee:
    """The lexicons, loaded once (a few seconds: only when the word index is built)."""

    def __init__(
        self,
        nouns: Mapping[str, int],
        tag_word: Callable[[str], list[tuple[str, float]]],
        paradigms: Mapping[str, frozenset[str]],
    ) -> None:
        self._nouns = nouns
        self._tag_word = tag_word
        self._paradigms = paradigms

    @classmethod
    def load(cls) -> Referee:
        return cls(wiktionary_nouns(), _hanta(), igerman98_paradigms())

    def evidence(self, word: str, listed: Container[str] = ()) -> Evidence:
        """``listed``: the list's lower-case entries (for nouns built of them)."""
        if word + "." in self._paradigms and word not in self._paradigms:
            return Evidence(ABBREVIATION)  # igerman98 writes it with a full stop: usw., Dez.
        known = sorted(((p, t) for t, p in self._tag_word(word) if p > KNOWN), reverse=True)
        tags = frozenset(t for _, t in known)
        if word[:1].isupper():
            inflects = self._declines(word) or self._built(word, listed)
            best = known[0][1] if known else None
            return Evidence(self._nouns.get(word, 0), tags, inflects, best)
        flags = self._paradigms.get(word)
        return Evidence(0, tags, flags is None or bool(flags & _INFLECTING))

    def judge(self, word: str, listed: Container[str] = ()) -> Why | None:
        return decide(word, self.evidence(word, listed))

    def _declines(self, word: str) -> bool:
        """igerman98 gives the word's root a plural (names take at most a genitive -s)."""
        return any(
            self._paradigms.get(word[: len(word) - len(end)], frozenset()) & _PLURAL
            for end in _ENDINGS if word.endswith(end) and len(word) - len(end) >= 2
        )

    def _built(self, word: str, listed: Container[str]) -> bool:
        """A compound whose last part is a Wiktionary common noun and whose first part is a
        listed word (``Jodkur``, ``Zudrang``), or a noun derived from a listed verb or
        adjective by a German suffix (``Meidung``, ``Zähheit``)."""
        low = word.lower()
        for cut in range(2, len(word) - 2):
            head, tail = low[:cut], word[cut].upper() + word[cut + 1 :]
            if self._nouns.get(tail, 0) & COMMON and (
                head in listed or self._nouns.get(word[:cut], 0) & COMMON
            ):
                return True
        for suffix in _SUFFIXES:
            stem = low[: len(low) - len(suffix)]
            if low.endswith(suffix) and len(stem) >= 2 and (
                stem in listed or stem + "en" in listed or stem + "n" in listed
            ):
                return True
        return False


def igerman98_paradigms(path: Path = PARADIGMS) -> dict[str, frozenset[str]]:
    """igerman98's roots (the source of wngerman too) -> their affix flags."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()[1:]
    except OSError as exc:
        raise LexiconMissing(
            f"{path}: {exc.strerror or exc}: install hunspell-de-de (apt-get install hunspell-de-de)"
        ) from None
    out: dict[str, set[str]] = {}
    for line in lines:
        root, _, flags = line.partition("/")
        out.setdefault(root.strip(), set()).update(flags.strip())
    return {root: frozenset(flags) for root, flags in out.items()}


def wiktionary_nouns() -> dict[str, int]:
    """Every form (up to :data:`MAX_FORM` letters) of Wiktionary's nouns -> reading bits."""
    try:
        raw = resources.files("german_nouns").joinpath("nouns.csv").read_bytes()
    except (ModuleNotFoundError, FileNotFoundError):
        raise LexiconMissing(
            "German Wiktionary nouns are not installed: pip install german-nouns"
        ) from None
    out: dict[str, int] = {}
    for form, bits in _readings(io.StringIO(raw.decode("utf-8"))):
        out[form] = out.get(form, 0) | bits
    _log.info("Wiktionary nouns: %d forms", len(out))
    return out


def _readings(text: io.StringIO) -> Iterator[tuple[str, int]]:
    rows = csv.reader(text)
    header = next(rows)
    pos_at = header.index("pos")
    forms_at = [i for i, name in enumerate(header)
                if name not in _NOT_FORMS and not name.startswith("genus")]
    lemma_at = header.index("lemma")
    for row in rows:
        classes = set(row[pos_at].split(","))
        if classes & _NAME_CLASSES:
            bits = NAME
        elif "Abkürzung" in classes:
            bits = ABBREVIATION
        else:
            bits = COMMON
        for i in (lemma_at, *forms_at):
            if i < len(row):
                form = row[i]
                if form and len(form) <= MAX_FORM and form.isalpha():
                    yield form, bits


@functools.cache
def _hanta() -> Callable[[str], list[tuple[str, float]]]:
    try:
        from HanTa import HanoverTagger
    except ModuleNotFoundError:
        raise LexiconMissing("the Hanover Tagger is not installed: pip install HanTa") from None
    tagger = HanoverTagger.HanoverTagger("morphmodel_ger.pgz")

    def tag_word(word: str) -> list[tuple[str, float]]:
        return [(t, float(p)) for t, p in tagger.tag_word(word, cutoff=5)]

    return tag_word

