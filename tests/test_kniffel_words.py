"""The word list: cleaning, house rules, ``--words`` lists, the index and its disk cache."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from kniffel_support import german_lexicon

from companion.games.kniffel.lexicon import Lexicon, code, key, letters_of, spellings
from companion.wordlist import (
    WordListError,
    clean,
    is_clean,
    load_lexicon,
    shipped_block_list,
)


@pytest.mark.parametrize(
    "entry",
    ["ADAC", "AG", "ABC", "kW", "GmbH", "LEDs", "MwSt", "Abk.", "usw.", "km", "Nr", "Hz",
     "Café", "Señor", "E-Mail", "x2", "A", "o"],
)
def test_cleaning_drops_abbreviations_units_and_foreign_letters(entry: str) -> None:
    assert not is_clean(entry)


@pytest.mark.parametrize("entry", ["Haus", "haus", "Tür", "Fuß", "ja", "Ei", "Öl", "Rohheit"])
def test_cleaning_keeps_words(entry: str) -> None:
    assert is_clean(entry)
    assert list(clean([f"  {entry}\n"])) == [entry]


def test_spellings_fold_umlauts_and_offer_two_readings_of_sharp_s() -> None:
    assert spellings("Tür") == ("tur",)
    assert spellings("Fuß") == ("fuß", "fuss")
    assert spellings("Füße") == ("fuße", "fusse")
    assert spellings("Straße") == ("straße", "strasse")
    assert spellings("Straßen") == ("straßen",)  # STRASSEN needs 8 dice
    assert spellings("Café") == ("café",)  # é only as the diamond
    assert spellings("Crêpé") == ()  # two letters no die shows
    assert spellings("a") == () and spellings("Rohheiten") == ()


@given(st.lists(st.text("abcdefghiklmnorstuäöüß", min_size=2, max_size=6), max_size=30))
def test_index_finds_every_word_by_every_spelling(words: list[str]) -> None:
    lex = Lexicon.from_words(words)
    for i, w in enumerate(lex.words):
        for form in spellings(w):
            assert i in lex.find(form)
            if all(ch in "abcdefghijklmnopqrstuvwxyz" for ch in form):
                assert i in lex.exact[key(form)]
            for ch in set(form):
                rest = key(form).replace(ch, "", 1)
                if all(c in "abcdefghijklmnopqrstuvwxyz" for c in rest):
                    assert i in lex.joker[rest]


def test_index_round_trips_through_its_data() -> None:
    lex = Lexicon.from_words(["Haus", "Fuß", "Tür", "ja", "Café"]).amend(block=["ja"])
    back = Lexicon.from_data(lex.to_data())
    assert back.words == lex.words and dict(back.exact) == dict(lex.exact)
    assert dict(back.joker) == dict(lex.joker) and back.removed == lex.removed
    assert list(back) == ["Haus", "Fuß", "Tür", "Café"]
    with pytest.raises(ValueError):
        Lexicon.from_data({"words": 3})


@given(st.text("abcdefghijklmnopqrstuvwxyz", max_size=7))
def test_a_key_and_its_number_round_trip(k: str) -> None:
    assert letters_of(code(k)) == k
    assert code(k + "e") == code(k) * 27 + code("e")  # what the solver builds subsets by


def test_only_dice_letters_have_a_key_number() -> None:
    assert code("aé") == code("aB") == -1
    assert len({code(k) for k in ("a", "aa", "z", "az", "za", "zzzzzzz")}) == 6


def test_an_index_with_a_key_that_is_not_dice_letters_is_refused() -> None:
    data = Lexicon.from_words(["Haus", "Maus"]).to_data()
    keys, slots, pool = data["exact"]  # type: ignore[misc]
    for bad in (keys.replace("a", "A", 1), keys.replace("a", "ä", 1), keys + "x" * 8):
        with pytest.raises(ValueError):
            Lexicon.from_data({**data, "exact": [bad, slots, pool]})


def test_house_rules_allow_and_block(tmp_path: Path) -> None:
    lex = Lexicon.from_words(["Haus", "Maus", "Aachen"])
    ruled = lex.amend(allow=["Psst", "haus"], block=["AACHEN"])
    assert "aachen" not in ruled and "Aachen" not in list(ruled)
    assert "psst" in ruled and len(ruled) == 3
    assert not any(ruled.words.index("Aachen") in ids for ids in ruled.exact.values())
    again = ruled.amend(allow=["Aachen"])  # the table changes its mind
    assert "Aachen" in again


def test_plain_list_is_used_as_given_and_cached(tmp_path: Path) -> None:
    src = tmp_path / "mine.txt"
    src.write_text("# my table\nABC\nkW\nHaus\n\nTOR\n", encoding="utf-8")
    cache = tmp_path / "cache"
    lex = load_lexicon(src, plain_list=True, cache=cache)
    assert set(lex) == {"ABC", "kW", "Haus", "TOR"}
    files = list(cache.iterdir())
    assert len(files) == 1
    # the cache answers next time: prove it by changing the cached file's words
    data = Lexicon.from_words(["Maus"]).to_data()
    import marshal

    old = marshal.loads(files[0].read_bytes())
    files[0].write_bytes(marshal.dumps({"ident": old["ident"], **data}))
    assert set(load_lexicon(src, plain_list=True, cache=cache)) == {"Maus"}
    # a changed source (size and mtime) is rebuilt
    src.write_text("Haus\nMaus\nBlume\n", encoding="utf-8")
    os.utime(src, ns=(1, 1))
    assert set(load_lexicon(src, plain_list=True, cache=cache)) == {"Haus", "Maus", "Blume"}
    # a damaged cache is rebuilt, not fatal
    for f in cache.iterdir():
        f.write_bytes(b"garbage")
    assert set(load_lexicon(src, plain_list=True, cache=cache)) == {"Haus", "Maus", "Blume"}


def test_building_shows_progress_and_loading_from_the_cache_does_not(tmp_path: Path) -> None:
    src = tmp_path / "list.txt"
    src.write_text("\n".join(f"Wort{i}" for i in range(50_000)), encoding="utf-8")
    first, second = io.StringIO(), io.StringIO()
    load_lexicon(src, plain_list=True, cache=tmp_path / "c", progress_to=first)
    load_lexicon(src, plain_list=True, cache=tmp_path / "c", progress_to=second)
    assert "kniffel: indexing list.txt" in first.getvalue() and "3/3" in first.getvalue()
    assert second.getvalue() == ""


def test_missing_or_binary_lists_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(WordListError, match="nope.txt"):
        load_lexicon(tmp_path / "nope.txt", plain_list=True, cache=False)
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"\xff\xfe\x00bad")
    with pytest.raises(WordListError, match="UTF-8"):
        load_lexicon(bad, plain_list=True, cache=False)


def test_the_real_german_list() -> None:
    lex = german_lexicon()
    assert len(lex) > 25_000
    for word in ("Haus", "Tür", "Fuß", "ich", "Rohheit", "Kaserne", "Ei"):
        assert word.lower() in lex, word
    for gone in ("ADAC", "kW", "GmbH", "km", "usw", "etc", "Uwe", "Aachen", "chi"):
        assert gone not in lex, gone
    assert all(len(w) <= 7 for w in lex)
    assert set(shipped_block_list()).isdisjoint(set(lex))
    assert lex.find("TUR") == lex.find("Tür") and lex.find("FUSS") == lex.find("Fuß")


def test_the_word_index_is_built_before_the_table_runs_only_when_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    from kniffel_support import XDG, german_lexicon

    from companion.commands import word_index
    from companion.wordlist import index_cached

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert not index_cached()  # a fresh machine: the first Wort-Kniffel game would build it
    german_lexicon()  # builds it where the tests keep it
    monkeypatch.setenv("XDG_CACHE_HOME", str(XDG))
    assert index_cached()
    word_index()
    assert "Building" not in capsys.readouterr().out  # on disk already: nothing to do
