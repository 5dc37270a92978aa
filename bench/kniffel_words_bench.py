"""How well the word index refuses names, abbreviations and foreign words and keeps German.

Run: ``.venv/bin/python bench/kniffel_words_bench.py``. Reads the hand-labelled sample
``tests/data/kniffel_words_labelled.tsv`` and prints, for each split (``tune``: words looked
at while the decision was tuned; ``report``: kept apart), the share of words to refuse that
are refused and of words to keep that are kept, by kind, and every miss.
"""

from __future__ import annotations

import collections
import sys
from pathlib import Path

from companion.wordlist import load_lexicon

SAMPLE = Path(__file__).resolve().parent.parent / "tests" / "data" / "kniffel_words_labelled.tsv"


def labelled(path: Path = SAMPLE) -> list[tuple[str, str, str, str]]:
    """(word, keep|refuse, kind, split) rows of the sample."""
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            word, label, kind, split = line.split("\t")
            rows.append((word, label, kind, split))
    return rows


def main() -> int:
    lexicon = load_lexicon()
    for split in ("tune", "report"):
        right: collections.Counter[str] = collections.Counter()
        total: collections.Counter[str] = collections.Counter()
        misses = []
        for word, label, kind, where in labelled():
            if where != split:
                continue
            kept = word in lexicon
            total[label] += 1
            total[f"{label}/{kind}"] += 1
            if kept == (label == "keep"):
                right[label] += 1
                right[f"{label}/{kind}"] += 1
            else:
                misses.append(f"{word} ({kind}, {lexicon.refused.get(word.lower(), 'kept')})")
        print(f"{split}: " + ", ".join(
            f"{key} {right[key]}/{n} ({100 * right[key] / n:.1f}%)" for key, n in sorted(total.items())
        ))
        print(f"  misses: {', '.join(misses) or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
