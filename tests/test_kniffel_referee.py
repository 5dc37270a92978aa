"""A referee's word list: names, abbreviations and foreign words refused, German kept."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from kniffel_support import XDG, german_lexicon, labelled_words

from companion.wordclasses import ABBREVIATION, COMMON, NAME, Evidence, Why, decide

def test_the_decision_goes_by_word_classes() -> None:
    assert decide("Tor", Evidence(COMMON, frozenset({"NN"}), True, "NN")) is None
    assert decide("Uwe", Evidence(NAME, frozenset({"NE"}))) is Why.NAME
    assert decide("Rom", Evidence(COMMON | NAME, frozenset({"NE"}), False, "NE")) is Why.NAME
    assert decide("Müller", Evidence(COMMON | NAME, frozenset({"NE"}), True, "NE")) is None
    assert decide("usw", Evidence(ABBREVIATION)) is Why.ABBREVIATION
    assert decide("facto", Evidence(0, frozenset({"FM"}))) is Why.FOREIGN
    assert decide("van", Evidence(0, frozenset({"NE"}))) is Why.NAME
    assert decide("rau", Evidence(0, frozenset({"NE"}), True)) is None  # igerman98 inflects it
    assert decide("oh", Evidence()) is None  # no lexicon knows it: the list stands
    assert decide("Xyzzy", Evidence()) is Why.NOT_IN_LIST


@pytest.mark.parametrize("word", ["CHI", "van", "Don", "Sir", "Boy", "HOC", "CUM"])
def test_the_names_and_foreign_words_the_old_list_offered_are_refused(word: str) -> None:
    assert word not in german_lexicon()


def test_the_rulebook_roll_offers_no_name() -> None:
    from companion.games.kniffel.dice import Roll
    from companion.games.kniffel.pad import Box
    from companion.games.kniffel.solver import best_boxes

    best = best_boxes(Roll.parse("T2 O3 R2 E1 I1 C4 H3"), german_lexicon())
    three = best[Box.parse("three")]
    assert three.score is not None and all(p.word.lower() != "chi" for p in three.plays)


@pytest.mark.parametrize("split", ["tune", "report"])
def test_the_labelled_sample(split: str) -> None:
    lex = german_lexicon()
    rows = [r for r in labelled_words() if r[3] == split]
    names = [w for w, label, kind, _ in rows if label == "refuse" and kind != "foreign"]
    refused = [w for w in names if w not in lex]
    assert len(refused) >= 0.98 * len(names), sorted(set(names) - set(refused))
    kept = [w for w, label, _, _ in rows if label == "keep"]
    assert [w for w in kept if w not in lex] == []


def test_check_prints_one_json_line_per_word(tmp_path: Path) -> None:
    src = tmp_path / "words.txt"
    src.write_text("Tor\nUwe\nusw\nhoc\nXylophonspieler\n", encoding="utf-8")
    german_lexicon()  # the index is cached where the CLI looks
    run = subprocess.run(
        [sys.executable, "-m", "companion.cli", "kniffel", "words", "--check", str(src), "--json"],
        capture_output=True, text=True, env={"XDG_CACHE_HOME": str(XDG), "PATH": ""},
    )
    assert run.returncode == 0, run.stderr
    out = [json.loads(line) for line in run.stdout.splitlines()]
    assert out == [
        {"word": "Tor", "allowed": True, "why": None},
        {"word": "Uwe", "allowed": False, "why": "name"},
        {"word": "usw", "allowed": False, "why": "abbreviation"},
        {"word": "hoc", "allowed": False, "why": "foreign"},
        {"word": "Xylophonspieler", "allowed": False, "why": "not in list"},
    ]


@pytest.mark.parametrize("content", [b"two words\n", b"\xff\xfe\n"])
def test_check_refuses_bad_input_in_one_line(tmp_path: Path, content: bytes) -> None:
    src = tmp_path / "bad.txt"
    src.write_bytes(content)
    run = subprocess.run(
        [sys.executable, "-m", "companion.cli", "kniffel", "words", "--check", str(src), "--json"],
        capture_output=True, text=True, env={"XDG_CACHE_HOME": str(XDG), "PATH": ""},
    )
    assert run.returncode == 2 and run.stdout == ""
    assert len(run.stderr.strip().splitlines()) == 1
