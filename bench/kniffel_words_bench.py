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

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from kniffel_support import labelled_words  # noqa: E402  (the sample's one reader)


def main() -> int:
    lexicon = load_lexicon()
    for split in ("tune", "report"):
        right: collections.Counter[str] = collections.Counter()
        total: collections.Counter[str] = collections.Counter()
        misses = []
        for word, label, kind, where in labelled_words():
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
