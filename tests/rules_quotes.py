"""Checks that every ``# RULE: "..."`` quoted in a game's tests is really in its rule text.

Tests quote the sentence they check; this keeps the quotes honest (a typo or an invented rule
fails here), so the list of quotes is the list of checked sentences.
"""

from __future__ import annotations

import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
QUOTE = re.compile(r'^\s*#\s*RULE:\s*"(.+)"\s*$')


def _norm(text: str) -> str:
    text = text.replace("**", "").replace("*", "").replace("’", "'").replace("“", '"').replace("”", '"')
    return " ".join(text.split()).lower()


def _quotes(prefix: str) -> list[tuple[str, str]]:
    out = []
    for path in sorted(HERE.glob(f"test_{prefix}_*.py")):
        for line in path.read_text(encoding="utf-8").splitlines():
            m = QUOTE.search(line)
            if m:
                out.append((path.name, m.group(1)))
    return out


def check_quotes(rule_texts: Path, prefix: str, rules_file: str, minimum: int) -> None:
    text = _norm((rule_texts / rules_file).read_text(encoding="utf-8"))
    quotes = _quotes(prefix)
    missing = [(f, q) for f, q in quotes if _norm(q) not in text]
    assert not missing, f"quoted but not in {rules_file}: {missing}"
    assert len({q for _, q in quotes}) >= minimum
