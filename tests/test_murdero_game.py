"""Murdero as a game: hands entered, corrections, new games, undo, and the view the pages use."""

from __future__ import annotations

import json

import pytest
from murdero_support import hand, player

from companion.games import find_game
from companion.games.base import EventError, Refused, Timeline, Undo, fold
from companion.games.murdero import GAME, HandCorrected, HandEntered, NewGame

PLAYERS = {"players": ["Ann", "Bob", "Cid"]}


def won_by(name: str, others: tuple[str, ...] = ("Bob", "Cid")) -> object:
    return hand(player(name, red=[1, 2, 3, 4, 5]), *(player(o, blue=[1]) for o in others))


def test_registered_by_name() -> None:
    assert find_game("murdero") is GAME


def test_hand_entered_scores_and_announces() -> None:
    tl = Timeline.start(GAME, PLAYERS)
    tl, effects = tl.push(HandEntered(won_by("Ann")))  # type: ignore[arg-type]
    kinds = [e.kind for e in effects]
    assert kinds == ["hand_scored", "hand_won", "signal", "turn"]
    assert effects[2].data == {"seat": 0, "tune": "valid", "blink": True}
    assert effects[3].data == {"player": 1}  # the deal passed left: Bob begins hand 2
    assert effects[0].data["points"] == {"Ann": 30, "Bob": 1, "Cid": 1}
    assert effects[1].data["winners"] == ["Ann"]
    assert tl.state.totals == {"Ann": 30, "Bob": 1, "Cid": 1}


def test_game_to_100() -> None:
    # RULE: "The game should be played until a player's score reaches or exceeds 100 points."
    # RULE: "The aim of Murdero is to be the first player to score 100 points or more."
    tl = Timeline.start(GAME, PLAYERS)
    for _ in range(3):
        tl, _ = tl.push(HandEntered(won_by("Ann")))  # type: ignore[arg-type]
    assert tl.state.totals["Ann"] == 90 and not tl.state.over
    tl, effects = tl.push(HandEntered(won_by("Ann")))  # type: ignore[arg-type]
    assert tl.state.over and tl.state.game_winners == ("Ann",)
    assert [e.kind for e in effects][-2:] == ["game_over", "winner"]
    with pytest.raises(Refused) as info:
        tl.push(HandEntered(won_by("Bob", ("Ann", "Cid"))))  # type: ignore[arg-type]
    assert info.value.code == "game_over"


def test_pairs_game_to_200() -> None:
    # RULE: "You and your partner need to reach a combined score of 200 points or more to win."
    tl = Timeline.start(GAME, {"players": ["Ann", "Bob", "Cid", "Dee"], "pairs": True})
    entry = hand(
        player("Ann", red=[1, 2, 3, 4, 5]), player("Bob"), player("Cid", blue=[1, 1]), player("Dee")
    )
    for _ in range(5):
        tl, _ = tl.push(HandEntered(entry))
    assert tl.state.totals == {"Ann & Cid": 170, "Bob & Dee": 0} and not tl.state.over
    tl, _ = tl.push(HandEntered(entry))
    assert tl.state.over and tl.state.game_winners == ("Ann & Cid",)


def test_hand_must_list_the_games_players_in_any_order() -> None:
    tl = Timeline.start(GAME, PLAYERS)
    with pytest.raises(Refused) as info:
        tl.push(HandEntered(won_by("Ann", ("Bob",))))  # type: ignore[arg-type]
    assert info.value.code == "wrong_players"
    tl, _ = tl.push(HandEntered(hand(player("Cid"), player("Ann", red=[1, 2, 3, 4, 5]), player("Bob"))))
    assert [p.name for p in tl.state.hands[0].entry.players] == ["Ann", "Bob", "Cid"]


def test_invalid_hand_is_refused_with_reason_and_state_kept() -> None:
    tl = Timeline.start(GAME, PLAYERS)
    with pytest.raises(Refused) as info:
        tl.push(HandEntered(hand(player("Ann", red=[2]), player("Bob"), player("Cid"))))
    assert info.value.code == "hand_invalid" and "Crime Scene" in info.value.reason
    assert tl.state.hands == ()


def test_correction_replaces_a_hand() -> None:
    tl = Timeline.start(GAME, PLAYERS)
    tl, _ = tl.push(HandEntered(won_by("Ann")))  # type: ignore[arg-type]
    tl, _ = tl.push(HandEntered(won_by("Bob", ("Ann", "Cid"))))  # type: ignore[arg-type]
    tl, effects = tl.push(HandCorrected(1, won_by("Cid", ("Ann", "Bob"))))  # type: ignore[arg-type]
    assert tl.state.totals == {"Ann": 2, "Bob": 31, "Cid": 31}
    assert effects[0].data["number"] == 1
    with pytest.raises(Refused) as info:
        tl.push(HandCorrected(3, won_by("Ann")))  # type: ignore[arg-type]
    assert info.value.code == "no_such_hand"


def test_undo_is_generic() -> None:
    tl = Timeline.start(GAME, PLAYERS)
    tl, _ = tl.push(HandEntered(won_by("Ann")))  # type: ignore[arg-type]
    tl, _ = tl.push(Undo())
    assert tl.state.hands == () and tl.state.totals == {"Ann": 0, "Bob": 0, "Cid": 0}


def test_new_game_keeps_the_table_and_remembers_the_last() -> None:
    tl = Timeline.start(GAME, PLAYERS)
    for _ in range(4):
        tl, _ = tl.push(HandEntered(won_by("Ann")))  # type: ignore[arg-type]
    tl, effects = tl.push(NewGame())
    assert tl.state.hands == () and tl.state.players == ("Ann", "Bob", "Cid")
    assert effects[0].kind == "new_game"
    view = GAME.view(tl.state)
    assert view["earlier_games"] == [
        {"totals": {"Ann": 120, "Bob": 4, "Cid": 4}, "winners": ["Ann"], "hands": 4}
    ]
    tl, _ = tl.push(NewGame(players=("Ann", "Bob", "Cid", "Dee"), pairs=True))
    assert tl.state.sides == (("Ann", "Cid"), ("Bob", "Dee"))
    with pytest.raises(Refused) as info:
        tl.push(NewGame(players=("Ann", "Bob"), pairs=True))
    assert info.value.code == "bad_setup"


@pytest.mark.parametrize(
    ("setup", "fragment"),
    [
        ({"players": ["Ann"]}, "2 to 4 players"),
        ({"players": ["Ann", "Ann"]}, "same name"),
        ({"players": ["A", "B", "C"], "pairs": True}, "four players"),
        ({"players": ["A", "B"], "pair": True}, "unknown field"),
        ({"players": "Ann,Bob"}, "list of names"),
    ],
)
def test_bad_setup(setup: dict[str, object], fragment: str) -> None:
    with pytest.raises(EventError, match=fragment):
        GAME.new(setup)


def test_view_has_what_the_pages_need() -> None:
    tl = Timeline.start(GAME, PLAYERS)
    tl, _ = tl.push(HandEntered(won_by("Ann")))  # type: ignore[arg-type]
    tl, _ = tl.push(
        HandEntered(
            hand(
                player("Ann", red=[1]),
                player("Bob", green=[1, 2], held=("R4",)),
                player("Cid"),
                ended="overtime",
            )
        )
    )
    view = GAME.view(tl.state)
    json.dumps(view)  # JSON-ready
    assert view["target"] == 100 and view["over"] is False
    assert [h["number"] for h in view["hands"]] == [1, 2]
    assert view["hands"][0]["totals"] == {"Ann": 30, "Bob": 1, "Cid": 1}
    assert view["hands"][1]["totals"] == {"Ann": 31, "Bob": 0, "Cid": 1}
    bob = next(s for s in view["hands"][1]["sides"] if s["label"] == "Bob")
    assert bob["points"] == -1 and [ln["points"] for ln in bob["lines"]] == [3, -4]
    assert view["hands"][1]["table"][1]["held"] == ["R4"]
    assert view["totals"] == {"Ann": 31, "Bob": 0, "Cid": 1}
    assert len(view["reference"]) == 13 and view["deck"]["action_cards"] == 15


def test_fold_rebuilds_from_encoded_log() -> None:
    events = [
        HandEntered(won_by("Ann")),
        HandEntered(won_by("Bob", ("Ann", "Cid"))),
        HandCorrected(2, won_by("Cid", ("Ann", "Bob"))),
    ]  # type: ignore[arg-type]
    logged = [json.loads(json.dumps(GAME.encode(e))) for e in events]
    assert (
        fold(GAME, PLAYERS, [GAME.decode(d) for d in logged]).state == fold(GAME, PLAYERS, events).state
    )


def test_documented_game_log_folds() -> None:
    from pathlib import Path

    log = json.loads(
        (Path(__file__).resolve().parent.parent / "docs/examples/murdero-game.json").read_text()
    )
    timeline = fold(GAME, log["setup"], [GAME.decode(e) for e in log["events"]])
    assert len(timeline.state.hands) == 3 and not timeline.state.over
    assert [GAME.encode(GAME.decode(e)) for e in log["events"]] == log["events"]
