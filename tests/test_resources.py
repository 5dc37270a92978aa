"""A game's resources are loaded at the edge, by the name the game gives them, once."""

from __future__ import annotations

import pytest

from companion import resources
from companion.games import find_game
from companion.games.base import Refused, Timeline
from companion.games.kniffel import Lexicon


def test_a_game_that_needs_nothing_is_its_registered_rules() -> None:
    assert resources.table_rules("moerder") is find_game("moerder")


def test_kniffel_at_the_table_checks_words_against_the_loaded_list(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    loaded: list[str] = []

    def tiny() -> Lexicon:
        loaded.append("lexicon")
        return Lexicon.from_words(["Tor", "Ei"])

    monkeypatch.setitem(resources.LOADERS, "lexicon", tiny)
    resources.resource.cache_clear()
    try:
        assert find_game("kniffel").needs == ("lexicon",)
        rules = resources.table_rules("kniffel")
        rules_again = resources.table_rules("kniffel")
        assert loaded == ["lexicon"]  # loaded once, however often the table asks
        tl = Timeline.start(rules, {"players": ["Ana", "Ben"]})
        tl, _ = tl.push(rules.decode({"type": "throw", "dice": "T2 O3 R2 E1 I1 C4 H3"}))
        tl, _ = tl.push(rules.decode({"type": "enter", "box": "pair_of_words",
                                      "words": ["TOR", "EI"]}))
        tl2 = Timeline.start(rules_again, {"players": ["Ana", "Ben"]})
        tl2, _ = tl2.push(rules.decode({"type": "throw", "dice": "T2 O3 R2 E1 I1 C4 H3"}))
        with pytest.raises(Refused) as refused:  # not in the loaded list
            tl2.push(rules.decode({"type": "enter", "box": "three", "words": ["ICH"]}))
        assert refused.value.code == "not_a_word"
        # the pure registered rules take any word the dice can lay
        pure = Timeline.start(find_game("kniffel"), {"players": ["Ana", "Ben"]})
        pure, _ = pure.push(rules.decode({"type": "throw", "dice": "T2 O3 R2 E1 I1 C4 H3"}))
        pure.push(rules.decode({"type": "enter", "box": "three", "words": ["ICH"]}))
    finally:
        resources.resource.cache_clear()
