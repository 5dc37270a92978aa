"""The sentences the Murdero tests quote (``# RULE: "..."``) are the rule sheet's own words."""

from __future__ import annotations

from pathlib import Path

from rules_quotes import check_quotes


def test_every_quoted_murdero_rule_is_in_the_rule_text(rule_texts: Path) -> None:
    check_quotes(rule_texts, "murdero", "murdero.txt", 40)
