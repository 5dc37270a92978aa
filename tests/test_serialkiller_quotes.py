"""The sentences the Serial Killer tests quote (``# RULE: "..."``) are the rule text's own words."""

from __future__ import annotations

from pathlib import Path

from rules_quotes import check_quotes


def test_every_quoted_serial_killer_rule_is_in_the_rule_text(rule_texts: Path) -> None:
    check_quotes(rule_texts, "serialkiller", "serial-killer.txt", 30)
