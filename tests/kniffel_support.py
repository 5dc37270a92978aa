"""Shared by the tests/test_kniffel_*.py files: the real German word index, built once.

The cache lives in the system temp folder (not the user's), so later runs load it.
"""

from __future__ import annotations

import functools
import tempfile
from pathlib import Path

import pytest

from companion.games.kniffel.lexicon import Lexicon
from companion.wordlist import DEFAULT_LIST, load_lexicon

# XDG_CACHE_HOME for CLI tests; the index itself sits in its companion/ folder, as in use.
XDG = Path(tempfile.gettempdir()) / "companion-kniffel-test-cache"
CACHE = XDG / "companion"


@functools.lru_cache(maxsize=1)
def german_lexicon() -> Lexicon:
    if not DEFAULT_LIST.is_file():
        pytest.skip("wngerman's /usr/share/dict/ngerman is not installed")
    return load_lexicon(cache=CACHE)


WORDS_SAMPLE = Path(__file__).parent / "data" / "kniffel_words_labelled.tsv"


def labelled_words(path: Path = WORDS_SAMPLE) -> list[tuple[str, str, str, str]]:
    """(word, keep|refuse, kind, split) rows of the hand-labelled sample (tests and bench)."""
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            word, label, kind, split = line.split("\t")
            rows.append((word, label, kind, split))
    return rows
