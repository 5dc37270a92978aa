"""Where Wort-Kniffel's words come from: the German word list, its cleaning, house rules and
the cache.

It reads files, the environment and a disk cache, so it lives at the edge beside the store
and the config, not under ``companion/games/``: the rules and the solver receive a
:class:`~companion.games.kniffel.lexicon.Lexicon` and never read a file.

Default list: wngerman's ``/usr/share/dict/ngerman`` (356,000 entries with inflected forms).
Cleaning removes what the rules forbid and a list can tell (:func:`clean`):

- abbreviations and unit symbols: all-capital tokens (``ADAC``, ``AG``), entries written with
  a full stop (hunspell's ``Abk.``), mixed-case tokens (``kW``, ``GmbH``, ``LEDs``);
- foreign words a list can tell: letters German does not use (``Café``, ``Señor``);
- tokens without a vowel, which are abbreviations and units too (``km``, ``Nr``, ``Hz``);
- anything with digits, hyphens or apostrophes, and single letters.

What a list cannot tell (proper names such as ``Aachen``, abbreviations without a full stop,
foreign words) word-class lexicons decide: :mod:`companion.wordclasses` (German
Wiktionary's nouns, the Hanover Tagger's lexicon, igerman98's paradigms). For the default
list the package also ships ``block_default.txt``: the few foreign words (``Sir``, ``hoc``)
that every lexicon takes for German or does not know. The table's own house rules add an
``allow`` list and a ``block`` list on top (the runtime reads them from config).

``--words FILE`` uses any plain list instead: one word a line, case-insensitive, used as given
(no cleaning; blank lines and ``#`` comments skipped).

The index of the playable words (2-7 dice) is cached on disk, in
``$XDG_CACHE_HOME/companion/`` (else ``~/.cache/companion/``), keyed by the source's path,
mtime and size and by :data:`CLEAN_VERSION`; allow and block lists are applied after loading,
so changing them needs no rebuild.
"""

from __future__ import annotations

import hashlib
import logging
import marshal
import os
import sys
from collections.abc import Iterable, Iterator
from importlib import resources
from pathlib import Path
from typing import TextIO

from companion.errors import InputError
from companion.inputs import read_text
from companion.games.kniffel.errors import KniffelError
from companion.games.kniffel.lexicon import MAX_DICE, Lexicon, spellings
from companion.progress import progress
from companion.wordclasses import Referee, Why

_log = logging.getLogger(__name__)

DEFAULT_LIST = Path("/usr/share/dict/ngerman")
# Bump when clean() or the referee's decision changes: old caches are then rebuilt.
CLEAN_VERSION = 3
_CACHE_FORMAT = 3  # 2: compact postings (keys joined, int32 slots); 3: words joined
GERMAN_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzäöüß")
GERMAN_VOWELS = frozenset("aeiouyäöü")
_CHUNK = 20_000


class WordListError(KniffelError, InputError):
    """A word list that is missing, unreadable or not text."""


def clean(entries: Iterable[str]) -> Iterator[str]:
    """The entries the rules allow, as far as a word list can tell (see the module text)."""
    for raw in entries:
        word = raw.strip()
        if is_clean(word):
            yield word


def is_clean(word: str) -> bool:
    return why_unclean(word) is None


def why_unclean(word: str) -> Why | None:
    """Why the cleaning drops an entry, ``None`` when it keeps it."""
    if len(word) < 2 or not word.replace(".", "").isalpha():
        return Why.NOT_IN_LIST  # digits, hyphens, apostrophes, single letters
    if "." in word or any(ch.isupper() for ch in word[1:]):  # Abk., ADAC, kW, GmbH, LEDs
        return Why.ABBREVIATION
    low = word.lower()
    if not all(ch in GERMAN_LETTERS for ch in low):
        return Why.FOREIGN
    # German words have a vowel; tokens without one are abbreviations and units (km, Nr, Hz).
    return None if any(ch in GERMAN_VOWELS for ch in low) else Why.ABBREVIATION


def plain(entries: Iterable[str]) -> Iterator[str]:
    """A ``--words`` list: every non-blank, non-comment line, as given."""
    for raw in entries:
        word = raw.strip()
        if word and not word.startswith("#"):
            yield word


def shipped_block_list() -> list[str]:
    """The foreign words of the default list no lexicon refuses (``block_default.txt``;
    applied to the default list only)."""
    text = resources.files("companion.games.kniffel").joinpath("block_default.txt").read_text("utf-8")
    return [w for line in text.splitlines() if not line.startswith("#") for w in line.split()]


def default_source() -> Path:
    if DEFAULT_LIST.is_file():
        return DEFAULT_LIST
    raise WordListError(
        f"no German word list at {DEFAULT_LIST}: install wngerman (apt-get install wngerman) "
        "or pass --words FILE"
    )


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "companion"


def load_lexicon(
    source: str | os.PathLike[str] | None = None,
    *,
    plain_list: bool = False,
    allow: Iterable[str] = (),
    block: Iterable[str] = (),
    cache: str | os.PathLike[str] | None | bool = True,
    progress_to: TextIO | None = None,
) -> Lexicon:
    """The index for a word list, from the cache when it is fresh.

    ``source=None`` is the default German list, cleaned; ``plain_list=True`` reads ``source``
    as given (``--words``). ``allow`` adds words the table accepts, ``block`` removes words
    (case-insensitive). ``cache``: ``True`` for the default directory, a directory, or
    ``False``/``None`` to build without caching. Building draws a progress line on
    ``progress_to`` (default: stderr, when it is a terminal).
    """
    path = Path(source) if source is not None else default_source()
    shipped = shipped_block_list() if source is None else []
    lexicon = _index(path, plain_list, cache, shipped, progress_to)
    allow, block = list(allow), list(block)
    if allow or block:
        lexicon = lexicon.amend(allow=allow, block=block)
    return lexicon


def index_cached() -> bool:
    """Whether the default list's index is on disk (its name carries the list's identity, so
    an index for another list or version has another name; loading it is then quick)."""
    file, _ = _cache_file(default_source(), False, shipped_block_list())
    return file is not None and file.is_file()


def _cache_file(path: Path, plain_list: bool, shipped: list[str],
                cache: str | os.PathLike[str] | None | bool = True) -> tuple[Path | None, str]:
    """The cache file for a list (None: no caching) and the identity it must hold."""
    try:
        st = path.stat()
    except OSError as exc:
        raise WordListError(f"{path}: {exc.strerror or exc}") from None
    if not path.is_file():
        raise WordListError(f"{path}: not a file")
    mode = "plain" if plain_list else f"clean{CLEAN_VERSION}"
    blocked = hashlib.sha256("\n".join(shipped).encode()).hexdigest()[:12]
    # marshal's format belongs to the Python version and the ids to the byte order, so both
    # are part of the key.
    ident = (
        f"{path.resolve()}|{st.st_mtime_ns}|{st.st_size}|{mode}|{blocked}|{_CACHE_FORMAT}"
        f"|{sys.version_info[:2]}|{marshal.version}|{sys.byteorder}"
    )
    folder = cache_dir() if cache is True else (Path(cache) if cache else None)
    if folder is None:
        return None, ident
    return folder / f"kniffel-{hashlib.sha256(ident.encode()).hexdigest()[:20]}.idx", ident


def _index(
    path: Path,
    plain_list: bool,
    cache: str | os.PathLike[str] | None | bool,
    shipped: list[str],
    progress_to: TextIO | None = None,
) -> Lexicon:
    file, ident = _cache_file(path, plain_list, shipped, cache)
    if file is not None:
        lexicon = _read_cache(file, ident)
        if lexicon is not None:
            return lexicon
    words, refused = _playable(path, plain_list, progress_to)
    if not plain_list:
        words, refused = _refereed(words, refused, shipped, progress_to)
    lexicon = Lexicon.from_words(words).refusing(refused)
    if file is not None:
        _write_cache(file, ident, lexicon)
    return lexicon


MAX_WORD_LIST_BYTES = 32 * 1024 * 1024


def _playable(
    path: Path, plain_list: bool, progress_to: TextIO | None = None
) -> tuple[list[str], dict[str, str]]:
    """The entries seven dice can lay, and why the cleaning dropped the others."""
    try:
        # the German list is 5 MB; a word never needs a long line
        lines = read_text(path, max_bytes=MAX_WORD_LIST_BYTES, max_line=256).splitlines()
    except InputError as exc:
        raise WordListError(str(exc)) from None
    except OSError as exc:
        raise WordListError(f"{path}: {exc.strerror or exc}") from None
    chunks = [lines[i : i + _CHUNK] for i in range(0, len(lines), _CHUNK)]
    keep = plain if plain_list else clean
    out: list[str] = []
    refused: dict[str, str] = {}
    label = f"kniffel: indexing {path.name} ({len(lines)} lines, once)"
    for chunk in progress(chunks, total=len(chunks), label=label, stream=progress_to):
        # more than 7 letters never fits 7 dice (ß as SS only makes a word longer)
        out.extend(w for w in keep(chunk) if len(w) <= MAX_DICE and spellings(w))
        if not plain_list:
            for raw in chunk:
                word = raw.strip()
                why = why_unclean(word)
                if why is not None and len(word) <= MAX_DICE and spellings(word):
                    refused.setdefault(word.lower(), why.value)
    _log.info("%s: %d of %d entries playable with 7 dice", path, len(out), len(lines))
    return out, refused


def _refereed(
    words: list[str], refused: dict[str, str], shipped: list[str], progress_to: TextIO | None
) -> tuple[list[str], dict[str, str]]:
    """The entries a referee accepts (:mod:`companion.wordclasses`) and why not the others."""
    referee = Referee.load()
    listed = {w for w in words if w.islower()}
    foreign = {w.lower() for w in shipped}
    kept: list[str] = []
    chunks = [words[i : i + _CHUNK // 4] for i in range(0, len(words), _CHUNK // 4)]
    label = f"kniffel: asking the lexicons about {len(words)} words (once)"
    for chunk in progress(chunks, total=len(chunks), label=label, stream=progress_to):
        for word in chunk:
            why = Why.FOREIGN if word.lower() in foreign else referee.judge(word, listed)
            if why is None:
                kept.append(word)
            else:
                refused.setdefault(word.lower(), why.value)
    accepted = {w.lower() for w in kept}
    # an entry refused in one case may be kept in the other (Mark the name, Mark the coin)
    refused = {w: why for w, why in refused.items() if w not in accepted}
    _log.info("referee: %d of %d playable entries accepted", len(kept), len(words))
    return kept, refused


def _read_cache(file: Path, ident: str) -> Lexicon | None:
    """The cached index, or ``None`` when missing, stale or damaged (then it is rebuilt).

    The cache is marshal data (plain dicts, lists and strings: loading it runs no code) in
    the user's own cache directory.
    """
    try:
        data = marshal.loads(file.read_bytes())
        if not isinstance(data, dict) or data.get("ident") != ident:
            return None
        return Lexicon.from_data(data)
    except (OSError, ValueError, EOFError, TypeError):
        return None


def _write_cache(file: Path, ident: str, lexicon: Lexicon) -> None:
    """Write atomically; a cache that cannot be written only costs time on the next start."""
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
        tmp = file.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(marshal.dumps({"ident": ident, **lexicon.to_data()}))
        os.replace(tmp, file)
    except OSError as exc:
        _log.warning("cannot write the word cache %s: %s", file, exc)
