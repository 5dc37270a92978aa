"""One test for each reading of the rule text chosen in companion/games/kniffel/__init__.py."""

from __future__ import annotations

from typing import Any

import pytest

from companion.games.base import Refused, Timeline
from companion.games.kniffel import build_rules
from companion.games.kniffel.dice import Roll
from companion.games.kniffel.lexicon import Lexicon
from companion.games.kniffel.pad import BOXES, Box, Pad
from companion.games.kniffel.events import Enter, KniffelExtra, Throw, TimeUp, Zero
from companion.games.kniffel.rules import KniffelState
from companion.games.kniffel.solver import best_boxes, check_entry


def lex(*words: str) -> Lexicon:
    return Lexicon.from_words(words)


def test_1_words_never_share_a_die_and_are_different_words() -> None:
    roll = Roll.parse("E1 S2 E1 S2 A1 N2 T2")
    best = best_boxes(roll, lex("es", "an"))
    assert best[Box.THREE_WORDS].score is None  # ES, ES, AN would repeat a word
    assert best[Box.PAIR_OF_WORDS].score == 3 + 3
    assert best[Box.TWO].score == 6 and len(best[Box.TWO].plays) == 2
    with pytest.raises(Refused) as err:
        check_entry(roll, Box.TWO, ["ES", "es"], lex("es"))
    assert err.value.code == "same_word"
    with pytest.raises(Refused) as err:  # TEE and TEN both need the one T
        check_entry(roll, Box.PAIR_OF_WORDS, ["TEE", "TEN"], lex("Tee", "ten"))
    assert err.value.code == "cannot_spell"


def test_2_upper_boxes_with_several_words_score_all_their_dice() -> None:
    roll = Roll.parse("E1 S2 A1 N2 I1 N2 T2")
    words = lex("es", "an", "in", "Ast", "Tee")
    assert check_entry(roll, Box.TWO, ["ES", "AN", "IN"], words).score == 3 + 3 + 3
    assert best_boxes(roll, words)[Box.TWO].score == 9
    with pytest.raises(Refused) as err:
        check_entry(roll, Box.TWO, ["ES", "AN", "IN", "AST"], words)
    assert err.value.code == "box_takes_words"
    with pytest.raises(Refused) as err:
        check_entry(roll, Box.TWO, ["AST"], words)
    assert err.value.code == "wrong_length"


def test_3_a_word_has_at_least_two_letters() -> None:
    roll = Roll.parse("A1 O3 E1 S2 N2 T2 U2")
    words = lex("a", "o", "Tee")
    assert "a" not in words
    assert all(len(p.dice) >= 2 for e in best_boxes(roll, lex("es", "an", "so")).values()
               for p in e.plays)
    with pytest.raises(Refused):
        check_entry(roll, Box.PAIR_OF_WORDS, ["A", "O"], None)


def test_4_the_diamond_is_any_letter_worth_nothing_even_a_letter_already_shown() -> None:
    roll = Roll.parse("E1 N2 T2 * R2 O3 L2")
    entry = check_entry(roll, Box.FOUR, ["ENTE"], lex("Ente"))
    assert entry.score == 1 + 2 + 2 + 0 and entry.plays[0].joker == "E"
    fuss = check_entry(Roll.parse("F4 U2 * R2 O3 L2 E1"), Box.THREE, ["FUß"], lex("Fuß"))
    assert fuss.score == 6 and fuss.plays[0].joker == "ß"
    tuer = check_entry(Roll.parse("T2 * R2 O3 L2 E1 N2"), Box.THREE, ["TÜR"], lex("Tür"))
    assert tuer.score == 4 and tuer.plays[0].joker == "U"


def test_5_umlauts_on_a_o_u_dice_and_sharp_s_as_two_s_dice() -> None:
    roll = Roll.parse("F4 U2 S2 S2 E1 N2 T2")
    words = lex("Füße", "Fuß", "Tür")
    assert check_entry(roll, Box.FIVE, ["FÜSSE"], words).score == 4 + 2 + 2 + 2 + 1
    assert check_entry(roll, Box.FOUR, ["Fuß"], words).score == 10  # laid FUSS
    assert best_boxes(roll, words)[Box.FIVE].plays[0].word == "Füße"
    tur = check_entry(Roll.parse("T2 U2 R2 E1 N2 S2 A1"), Box.THREE, ["TUR"], words)
    assert tur.plays[0].word == "Tür"
    half = check_entry(Roll.parse("F4 U2 S2 * E1 N2 T2"), Box.FIVE, ["Füße"], words)
    assert half.score == 4 + 2 + 2 + 0 + 1 and half.plays[0].joker == "S"
    cafe = check_entry(Roll.parse("C4 A1 F4 * R2 O3 L2"), Box.FOUR, ["Café"], lex("Café"))
    assert cafe.score == 9 and cafe.plays[0].joker == "é"
    with pytest.raises(Refused):  # é only as the diamond
        check_entry(Roll.parse("C4 A1 F4 E1 R2 O3 L2"), Box.FOUR, ["Café"], lex("Café"))


def test_6_street_and_chance_need_no_words() -> None:
    vowels = Roll.parse("A1 E1 I1 O3 U2 * E1")
    nothing = lex()
    best = best_boxes(vowels, nothing)
    assert best[Box.STREET].score == 30 and best[Box.CHANCE].score == vowels.total
    assert check_entry(vowels, Box.STREET, [], nothing).score == 30
    with pytest.raises(Refused) as err:
        check_entry(Roll.parse("A1 E1 I1 O3 U2 N2 E1"), Box.STREET, [], nothing)
    assert err.value.code == "not_vowels"


def test_7_full_house_is_two_words_using_all_dice_and_word_boxes_take_exact_counts() -> None:
    roll = Roll.parse("T2 O3 R2 E1 I1 C4 H3")
    words = lex("Tor", "Ei", "ich", "Ohr", "reicht", "Chor", "reich", "tot")
    with pytest.raises(Refused) as err:
        check_entry(roll, Box.FULL_HOUSE, ["TOR", "EI"], words)
    assert err.value.code == "not_all_dice"
    with pytest.raises(Refused) as err:
        check_entry(roll, Box.FULL_HOUSE, ["TOR", "EI", "CH"], words)
    assert err.value.code == "box_takes_words"
    assert best_boxes(roll, words)[Box.FULL_HOUSE].score is None
    words2 = lex("Tor", "Ei", "ich", "Ohr", "Tee", "Chor", "Eitor")
    assert check_entry(roll, Box.FULL_HOUSE, ["CHOR", "TEI"], words2, table_ok=True).score == 25
    with pytest.raises(Refused) as err:
        check_entry(roll, Box.THREE_WORDS, ["TOR", "EI"], words)
    assert err.value.code == "box_takes_words"


def test_8_the_upper_bonus_counts_as_soon_as_50_are_reached() -> None:
    pad = Pad().write(Box.TWO, 20).write(Box.THREE, 29)
    assert pad.bonus == 0
    pad = pad.write(Box.FOUR, 1)
    assert pad.bonus == 35 and Box.FIVE in pad.open_boxes
    assert pad.total == 50 + 35


RULES = build_rules(lex("Abdruck", "Tor", "Ei"))
KNIFFEL = "A1 B3 D2 R2 U2 C4 K4"


def _game() -> Timeline[KniffelState]:
    return Timeline.start(RULES, {"players": ["Ann", "Ben"]})


def _push(tl: Timeline[KniffelState], *events: Any) -> Timeline[KniffelState]:
    for e in events:
        tl, _ = tl.push(e)
    return tl


def test_9_a_further_wort_kniffel_is_100_extra_and_a_zero_of_the_players_choice() -> None:
    tl = _game()
    tl = _push(tl, Throw(KNIFFEL))
    with pytest.raises(Refused) as err:  # first goes in its box
        tl.push(KniffelExtra("ABDRUCK", Box.SIX))
    assert err.value.code == "no_first_kniffel"
    tl = _push(tl, Enter(Box.KNIFFEL, ("ABDRUCK",)), Throw(KNIFFEL), Zero(Box.KNIFFEL))
    tl = _push(tl, Throw(KNIFFEL))
    tl, effects = tl.push(KniffelExtra("ABDRUCK", Box.SIX))
    ann = tl.state.pads[0]
    assert ann.kniffel_extra == 100 and ann[Box.SIX] == 0 and ann.total == 50 + 100
    assert effects[0].kind == "kniffel_extra"
    # or enter it normally: chance
    tl = _push(tl, Throw(KNIFFEL))  # Ben
    with pytest.raises(Refused) as err:  # Ben's Wort-Kniffel box was struck
        tl.push(KniffelExtra("ABDRUCK", Box.TWO))
    assert err.value.code == "no_first_kniffel"
    tl = _push(tl, Enter(Box.CHANCE), Throw(KNIFFEL), Enter(Box.CHANCE))
    assert tl.state.pads[0][Box.CHANCE] == Roll.parse(KNIFFEL).total
    with pytest.raises(Refused) as err:  # the word must use all seven dice
        check_entry(Roll.parse("T2 O3 R2 E1 I1 C4 H3"), Box.KNIFFEL, ["TOR"], lex("Tor"))
    assert err.value.code == "not_all_dice"


def test_10_any_open_box_may_be_struck_after_throwing() -> None:
    tl = _push(_game(), Throw("T2 O3 R2 E1 I1 C4 H3"))
    tl = _push(tl, Zero(Box.CHANCE))
    assert tl.state.pads[0][Box.CHANCE] == 0
    with pytest.raises(Refused) as err:
        tl.push(Zero(Box.CHANCE))  # Ben has not thrown yet
    assert err.value.code == "no_roll"


def test_11_after_the_hourglass_only_a_zero_of_the_players_choice_is_left() -> None:
    tl = _push(_game(), Throw(KNIFFEL), TimeUp(0))
    with pytest.raises(Refused) as err:
        tl.push(Enter(Box.KNIFFEL, ("ABDRUCK",)))
    assert err.value.code == "time_up"
    tl = _push(tl, Zero(Box.THREE))
    assert tl.state.pads[0][Box.THREE] == 0 and tl.state.pads[0][Box.KNIFFEL] is None


def test_12_a_roll_the_set_cannot_show_is_refused() -> None:
    with pytest.raises(Refused) as err:
        _game().push(Throw("H3 H3 E1 I1 C4 T2 R2"))  # only one die has an H
    assert err.value.code == "impossible_roll"
    assert all(b in Pad().open_boxes for b in BOXES)
