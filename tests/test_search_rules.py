"""The referee, sentence by sentence of the rule text (each quoted)."""

from __future__ import annotations

import json
import random

import pytest

from companion.games import find_game
from companion.games.base import EventError, Refused, fold
from companion.games.search import GAME
from companion.games.search.house import House
from companion.games.search.events import Move, Start
from companion.games.search.view import view
from companion.games.search.rules import (
    DotRule,
    Options,
    Phase,
    Player,
    SearchState,
    Way,
    apply,
    draw_starts,
    legal,
    moves_for,
    new_state,
    team_score,
)

# A1 1a  A2 2b  A3 3c  A4 1d      corridors: A1-B2, A2-B4, A3-C2, A4-C1, B1-C4, B3-C3
# B1 2e  B2 3a  B3 3f  B4 2b      row triangles 1 2 3, column triangles 1 2 3 .
# C1 3d  C2 1c  C3 2f  C4 3e
SMALL = House.parse(
    """search 3x4
    1   2   3   .
1   1a  2b  3c  1d
2   2e  3a  3f  2b
3   3d  1c  2f  3e
"""
)


def state(*paths: str, turn: int = 0, rule: DotRule = DotRule.MATCH) -> SearchState:
    """A position in SMALL: each player's rooms in the order visited, tracks to match."""
    players = []
    for i, path in enumerate(paths):
        rooms = tuple(SMALL.room(n) for n in path.split())
        players.append(Player(f"P{i}", rooms, sum(SMALL.dots[r] for r in rooms)))
    return SearchState(SMALL, Options(rule), tuple(players), Phase.PLAY, turn)


def refused(s: SearchState, room: str, player: int | None = None) -> str:
    with pytest.raises(Refused) as info:
        apply(s, Move(s.turn if player is None else player, room))
    return info.value.code


def test_search_is_registered_and_cooperative() -> None:
    # "Search is a cooperative paper-and-pencil game that appeared in Sackson's book Beyond
    # Competition." One team score for the table, no winner among the players.
    assert find_game("search") is GAME
    s = GAME.new({"players": ["Ann", "Bob"], "seed": 1, "starts": ["A1", "H11"]})
    picture = view(s)
    assert set(picture["score"]) == {"high", "low", "team", "win", "final"}
    json.dumps(picture)


def test_two_to_four_players() -> None:
    # The box: "Players 2-4".
    for names in (["a"], ["a", "b", "c", "d", "e"]):
        with pytest.raises(EventError, match="2 to 4 players"):
            GAME.new({"players": names, "seed": 1})
    assert len(GAME.new({"players": list("abcd"), "seed": 1}).players) == 4
    with pytest.raises(EventError, match="same name"):  # it used to take two "a"s
        GAME.new({"players": ["a", "A"], "seed": 1})


def test_the_playing_field_is_8x11() -> None:
    # "The playing field is an 8x11 grid of squares representing an haunted house."
    s = GAME.new({"players": ["a", "b"], "seed": 4})
    assert (s.house.rows, s.house.cols) == (8, 11)
    assert len(view(s)["house"]["rooms"]) == 88


def test_each_player_has_a_colour_of_their_own() -> None:
    # "Each players uses different colored pencil." Visits are kept per player, so two players
    # may each circle the same room, and the view says whose circles a room holds.
    s = state("B2 A1 A2", "C4 B1", turn=1, rule=DotRule.DIFFERENT)
    s = apply(s, Move(1, "A1")).state  # P0 circled A1 before; P1 may circle it too
    rooms = {r["name"]: r for r in view(s)["house"]["rooms"]}
    assert rooms["A1"]["visited_by"] == [0, 1]
    assert rooms["A2"]["visited_by"] == [0]
    assert rooms["A1"]["occupant"] == 1
    with pytest.raises(EventError):
        GAME.new({"players": ["a", ""], "seed": 1})


def test_start_room_is_where_the_two_cards_triangles_cross() -> None:
    # "Players determine their starting room by drawing two cards from a deck of 24 cards
    # #d 1-6 (4 of each value) then circling the dots in one of the rooms where the row and
    # columns indicated by the triangles correspond to the cards drawn."
    s = new_state(SMALL, ["a", "b"])
    out = apply(s, Start(0, 2, 3))  # row triangle 2 is row B; column triangle 3 is column 3
    first = out.state.players[0]
    assert first.path == (SMALL.room("B3"),)
    assert first.track == 3  # its dots are circled, so they count
    assert out.state.phase is Phase.START and out.state.turn == 1
    with pytest.raises(Refused) as info:
        apply(s, Start(0, 4, 1))  # SMALL has no row triangle 4
    assert info.value.code == "bad_card"
    off = new_state(SMALL, ["a", "b"], Options(start_scores=False))
    assert apply(off, Start(0, 2, 3)).state.players[0].track == 0


def test_starts_go_in_turn_order_then_play_begins() -> None:
    s = new_state(SMALL, ["a", "b"])
    with pytest.raises(Refused) as info:
        apply(s, Start(1, 1, 1))
    assert info.value.code == "not_your_turn"
    assert refused(s, "A1") == "not_started"
    s = apply(s, Start(0, 1, 1)).state
    out = apply(s, Start(1, 3, 3))
    assert out.state.phase is Phase.PLAY
    assert [e.kind for e in out.effects] == ["started", "turn"]
    with pytest.raises(Refused) as info:
        apply(out.state, Start(0, 1, 1))
    assert info.value.code == "already_started"


def test_a_start_in_an_occupied_or_corridor_joined_room_is_drawn_again() -> None:
    # "(if a player would start in such a room, they draw again)"
    s = apply(new_state(SMALL, ["a", "b", "c"]), Start(0, 1, 1)).state  # A1
    for cards, room in (((1, 1), "A1"), ((2, 2), "B2")):  # A1 itself; B2 is A1's corridor
        with pytest.raises(Refused) as info:
            apply(s, Start(1, *cards))
        assert info.value.code == "draw_again"
        assert info.value.details["room"] == room
    assert apply(s, Start(1, 3, 3)).state.players[1].path == (SMALL.room("C3"),)


def test_card_draws_redraw_until_every_player_has_a_free_room() -> None:
    house = House.generate(2)
    redrawn = 0
    for seed in range(300):
        draws = draw_starts(house, 4, random.Random(seed))
        rooms = [room for _, _, room in draws if room is not None]
        assert len(rooms) == 4
        for i, room in enumerate(rooms):
            for other in rooms[:i]:
                assert room != other and house.partner[room] != other
        for a, b, room in draws:
            if room is None:  # both rooms the cards name were taken or joined to a taken room
                redrawn += 1
                for crossing in (house.room_for_cards(a, b), house.room_for_cards(b, a)):
                    assert any(crossing in (r, house.partner[r]) for r in rooms)
            else:  # the cards come back in the order that names the room chosen
                assert room == house.room_for_cards(a, b)
    assert redrawn > 0  # the case happens in practice, so the loop above checked it


def test_either_card_may_name_the_row_so_a_taken_first_room_offers_the_other() -> None:
    # "circling the dots in one of the rooms where the row and columns indicated by the
    # triangles correspond to the cards drawn"
    s = apply(new_state(SMALL, ["a", "b", "c"]), Start(0, 2, 3)).state  # B3; its corridor: C3
    with pytest.raises(Refused) as info:
        apply(s, Start(1, 2, 3))  # B3 is taken, but 3 and 2 also name C2, which is free
    assert info.value.code == "other_room"
    assert info.value.details["room"] == "B3" and info.value.details["alt"] == "C2"
    assert "C2" in info.value.reason
    s = apply(s, Start(1, 1, 3)).state  # A3: its corridor leads to C2
    with pytest.raises(Refused) as info:
        apply(s, Start(2, 3, 2))  # C2 joined to A3, and B3 occupied: both rooms are taken
    assert info.value.code == "draw_again"
    assert SMALL.rooms_for_cards(2, 3) == (SMALL.room("B3"), SMALL.room("C2"))
    assert SMALL.rooms_for_cards(2, 2) == (SMALL.room("B2"),)  # a pair names one room


def test_never_into_an_occupied_room_or_one_joined_to_it_by_corridor() -> None:
    # "A player may never enter a room occupied by another player or connected to such a
    # room by a corridor"
    s = state("A1 B2", "C3 B3")  # P1 in B3; B3's corridor is C3
    assert refused(s, "B3") == "occupied"
    s2 = state("A1 B2", "B3 C3")  # P1 in C3; B3, next to P0, is joined to C3 by corridor
    assert refused(s2, "B3") == "corridor_to_occupied"


def test_players_move_in_turn() -> None:
    # "On subsequent turns, each player must move as follows."
    s = state("A1", "B1")
    assert refused(s, "C4", player=1) == "not_your_turn"
    s = apply(s, Move(0, "B2")).state
    assert s.turn == 1
    s = apply(s, Move(1, "C4")).state
    assert s.turn == 0


def test_rule_1_any_adjacent_room_once_the_corridor_room_is_visited() -> None:
    # "1) if they are in a room and they have already visited the connecting room, they my
    # move to any adjacent room (obeying the rule above) and circle the dots in that room."
    s = state("A1 B2", "C2 A3")  # P0 at B2 (3 dots), P1 at A3 (3 dots): 3-dot rooms only
    rooms, way = legal(s)
    assert way is Way.DOOR
    assert [SMALL.name(r) for r in rooms] == ["B3"]
    out = apply(s, Move(0, "B3"))
    assert out.state.players[0].room == SMALL.room("B3")
    assert out.effects[0].data["by"] == "door"
    assert refused(s, "A4") == "not_adjacent"
    assert refused(s, "C3") == "not_adjacent"  # across a corner is not adjacent
    assert refused(s, "B2") == "stay"
    assert refused(s, "A1") == "already_visited"


def test_rule_1_dot_sentence_default_reading_may_only_match_a_current_room() -> None:
    # "Except that they may move to room that has the same number of dots that are in ANY
    # player's (including their own) current room." Default reading: *only* such rooms.
    s = state("A1 B2", "C1 A4")  # P0 at B2: 3 dots; P1 at A4: 1 dot
    rooms, _ = legal(s)
    assert sorted(SMALL.name(r) for r in rooms) == ["B3", "C2"]  # 3 like own, 1 like P1's
    assert refused(s, "A2") == "dots_unmatched"
    assert refused(s, "B1") == "dots_unmatched"
    assert apply(s, Move(0, "C2")).state.players[0].track == 1 + 3 + 1


def test_rule_1_dot_sentence_house_rule_may_not_match_any_current_room() -> None:
    # The other reading of the same sentence, as a house rule: never such rooms.
    s = state("A1 B2", "C1 A4", rule=DotRule.DIFFERENT)
    rooms, _ = legal(s)
    assert sorted(SMALL.name(r) for r in rooms) == ["A2", "B1"]
    assert refused(s, "B3") == "same_dots"  # like its own room: "(including their own)"
    assert refused(s, "C2") == "same_dots"  # like P1's room: "ANY player's"


def test_the_dot_rule_is_chosen_in_the_set_up() -> None:
    s = GAME.new({"players": ["a", "b"], "seed": 1, "dot_rule": "different"})
    assert s.options.dot_rule is DotRule.DIFFERENT
    assert GAME.new({"players": ["a", "b"], "seed": 1}).options.dot_rule is DotRule.MATCH
    with pytest.raises(EventError, match="dot_rule"):
        GAME.new({"players": ["a", "b"], "seed": 1, "dot_rule": "odd"})


def test_rule_2_the_corridor_first_regardless_of_dots() -> None:
    # "2) if they are in a room and they have not visited the connecting room, they must
    # circle the dots in the connecting room, regardless of the number of dots in that room."
    s = state("A4", "C3")  # P0 at A4 (1 dot) has not visited C1 (3 dots); P1 in C3 (2 dots)
    rooms, way = legal(s)
    assert way is Way.CORRIDOR and [SMALL.name(r) for r in rooms] == ["C1"]
    assert refused(s, "A3") == "must_take_corridor"  # an adjacent room is not allowed
    out = apply(s, Move(0, "C1"))  # 3 dots, which no current room has: allowed anyway
    assert out.effects[0].data["by"] == "corridor"
    assert out.state.players[0].track == 1 + 3
    d = state("A4", "C3", rule=DotRule.DIFFERENT)
    s3 = state("A3", "B3", rule=DotRule.DIFFERENT)  # C2 has 1 dot, no current room has 1
    assert apply(d, Move(0, "C1")).state.players[0].room == SMALL.room("C1")
    s4 = state("B3", "C1 A4", rule=DotRule.DIFFERENT)  # C3: 2 dots; rooms have 3 and 1
    assert apply(s3, Move(0, "C2")).state.players[0].room == SMALL.room("C2")
    assert apply(s4, Move(0, "C3")).state.players[0].room == SMALL.room("C3")
    m = state("B1", "A1 B2")  # C4 has 3 dots like P1's B2 ... and under DIFFERENT too:
    dm = state("B1", "A1 B2", rule=DotRule.DIFFERENT)
    assert apply(m, Move(0, "C4")).state.players[0].room == SMALL.room("C4")
    assert apply(dm, Move(0, "C4")).state.players[0].room == SMALL.room("C4")


def test_the_room_left_is_coloured_and_never_entered_again() -> None:
    # "Each time player moves to new room (by either method), they color in the circle of
    # room they left, so that the room with the circled dots always represents their current
    # position."
    s = state("A1", "C3")
    s = apply(s, Move(0, "B2")).state
    p = view(s)["players"][0]
    assert p["room"] == "B2" and p["path"] == ["A1", "B2"]
    rooms = {r["name"]: r for r in view(s)["house"]["rooms"]}
    assert rooms["B2"]["occupant"] == 0 and rooms["A1"]["occupant"] is None
    back = state("C2 A3 B3 C3", "A1", rule=DotRule.DIFFERENT)  # at C3: B3 and C2 are next door but coloured in
    assert refusal_code(back, "B3") == "already_visited"
    assert refusal_code(back, "C2") == "already_visited"
    assert [SMALL.name(r) for r in legal(back)[0]] == ["C4"]


def refusal_code(s: SearchState, room: str) -> str:
    from companion.games.search.rules import refusal

    why = refusal(s, s.turn, SMALL.room(room))
    assert why is not None
    return why.code


def test_the_track_advances_by_the_dots_circled() -> None:
    # "They also check off a number of boxes on their score track equal to the number of dots
    # they circled."
    s = state("A1", "C3")
    before = s.players[0].track
    out = apply(s, Move(0, "B2"))
    assert out.state.players[0].track - before == SMALL.dots[SMALL.room("B2")] == 3
    assert out.effects[0].data["track"] == out.state.players[0].track


def play_random(seed: int, players: int, rule: DotRule) -> list[tuple[SearchState, list[str]]]:
    """A seeded random game on a generated house: (state, effect kinds) after every event."""
    rng = random.Random(seed)
    house = House.generate(seed)
    rooms = [r for *_, r in draw_starts(house, players, rng) if r is not None]
    s = new_state(house, [f"P{i}" for i in range(players)], Options(rule), rooms)
    out = [(s, [])]
    while s.phase is Phase.PLAY:
        moves, _ = legal(s)
        o = apply(s, Move(s.turn, house.name(rng.choice(moves))))
        s = o.state
        out.append((s, [e.kind for e in o.effects]))
    return out


def test_a_player_who_cannot_move_loses_turns_until_able() -> None:
    # "If they are unable to move to a room, they lose their turn and continue to lose their
    # turn until they can move to another room or until the game ends."
    skipped_then_moved = 0
    for seed in range(12):
        for rule in DotRule:
            history = play_random(seed, 3, rule)
            stuck_since: dict[int, int] = {}
            for step, (s, _) in enumerate(history):
                masks = s.visited_masks()
                for q in range(len(s.players)):
                    can = bool(moves_for(s.house, rule, s.positions, masks, q)[0])
                    if s.phase is Phase.PLAY and q == s.turn:
                        assert can  # the turn never rests with a player who cannot move
                    if not can:
                        stuck_since.setdefault(q, step)
                    elif q in stuck_since:
                        stuck_since.pop(q)
                        skipped_then_moved += 1
            # every turn_lost effect names a player with no move at that moment
            for (before, _), (after, kinds) in zip(history, history[1:]):
                if "turn_lost" in kinds:
                    assert after.phase is Phase.PLAY
    assert skipped_then_moved > 0  # some player was stuck and later could move again


def test_turn_lost_is_announced_and_skipped() -> None:
    found = 0
    for seed in range(20):
        rng = random.Random(seed)
        house = House.generate(seed)
        rooms = [r for *_, r in draw_starts(house, 3, rng) if r is not None]
        s = new_state(house, ["a", "b", "c"], Options(), rooms)
        while s.phase is Phase.PLAY:
            moves, _ = legal(s)
            mover = s.turn
            o = apply(s, Move(mover, house.name(rng.choice(moves))))
            lost = [e.data["player"] for e in o.effects if e.kind == "turn_lost"]
            if lost and o.state.phase is Phase.PLAY:
                found += 1
                expected = [(mover + k) % 3 for k in range(1, 4)]
                assert expected[: len(lost)] == lost  # skipped in turn order
                assert o.state.turn == expected[len(lost)]
                for q in lost:
                    assert not moves_for(
                        house, Options().dot_rule, o.state.positions, o.state.visited_masks(), q
                    )[0]
            s = o.state
    assert found > 0


def test_players_must_move_if_able_there_is_no_pass() -> None:
    # "Players must move if they are able to."
    with pytest.raises(EventError, match="unknown event type"):
        GAME.decode({"type": "pass", "player": 0})
    s = state("A1", "C3")
    assert legal(s)[0]  # able to move, so the turn is theirs until they do


def test_the_game_ends_when_no_player_can_move() -> None:
    # "The game ends when no player is able to move."
    for seed in range(6):
        history = play_random(seed, 2, DotRule.MATCH)
        final, kinds = history[-1]
        assert final.phase is Phase.OVER and kinds[-1] == "game_over"
        masks = final.visited_masks()
        for q in range(2):
            assert not moves_for(final.house, DotRule.MATCH, final.positions, masks, q)[0]
        for s, _ in history[:-1]:
            assert s.phase is Phase.PLAY
        with pytest.raises(Refused) as info:
            apply(final, Move(0, "A1"))
        assert info.value.code == "game_over"


def test_team_score_formula() -> None:
    # "The players' is equal to the number of the highest checked box of the player who has
    # advanced the farthest on their track minus five times the difference between that
    # player's position and the position of the player who has advanced the fewest spaces."
    assert team_score([40, 37]) == 40 - 5 * 3
    assert team_score([30, 10, 20]) == 30 - 5 * 20
    assert team_score([12, 12, 12, 12]) == 12


def test_positive_score_wins_otherwise_the_table_loses() -> None:
    # "If that score is positive, the player's win; else they lose."
    for seed in range(10):
        final, kinds = play_random(seed, 2, DotRule.MATCH)[-1]
        picture = view(final)
        score = team_score(final.tracks)
        assert picture["score"]["team"] == score
        assert picture["score"]["win"] is (score > 0)
        assert picture["score"]["final"] is True
    even = state("A1 B2", "A4 C1")  # tracks 1+3 and 1+3
    assert view(even)["score"] == {"high": 4, "low": 4, "team": 4, "win": True, "final": False}
    zero = state("A1 B2", "B1 C4")  # tracks 4 and 5: 5 - 5 * 1 = 0, which is not positive
    assert view(zero)["score"]["team"] == 0 and view(zero)["score"]["win"] is False
    assert view(state("A1", "B1 C4 B4"))["score"]["win"] is False  # 1 vs 7: 7 - 30 < 0


def test_game_over_effect_carries_score_and_verdict() -> None:
    for seed in range(4):
        rng = random.Random(seed)
        house = House.generate(seed)
        rooms = [r for *_, r in draw_starts(house, 2, rng) if r is not None]
        s = new_state(house, ["a", "b"], Options(), rooms)
        while s.phase is Phase.PLAY:
            moves, _ = legal(s)
            o = apply(s, Move(s.turn, house.name(rng.choice(moves))))
            s = o.state
        end = o.effects[-1]
        assert end.kind == "game_over"
        assert end.data["score"] == team_score(s.tracks)
        assert end.data["win"] is (end.data["score"] > 0)


def test_events_round_trip_and_fold_rebuilds_the_game() -> None:
    setup = {"players": ["Ann", "Bob"], "seed": 3}
    rng = random.Random(3)
    s = GAME.new(setup)
    events: list[object] = []
    for a, b, room in draw_starts(s.house, 2, rng):
        if room is not None:
            events.append(Start(len(events), a, b))
            s = GAME.apply(s, events[-1]).state
    while s.phase is Phase.PLAY:
        moves, _ = legal(s)
        events.append(Move(s.turn, s.house.name(rng.choice(moves))))
        s = GAME.apply(s, events[-1]).state
    decoded = [GAME.decode(json.loads(json.dumps(GAME.encode(e)))) for e in events]
    assert decoded == events
    assert fold(GAME, setup, decoded).state == s


def test_view_lists_legal_moves_and_why_others_are_refused() -> None:
    s = state("A1 B2", "C1 A4")
    picture = view(s)
    assert picture["turn"] == 0 and picture["phase"] == "play"
    assert sorted(m["room"] for m in picture["legal"]) == ["B3", "C2"]
    assert picture["refusals"]["A2"]["code"] == "dots_unmatched"
    assert picture["refusals"]["A4"]["code"] == "occupied"
    assert picture["refusals"]["C1"]["code"] == "corridor_to_occupied"  # C1-A4, P1 in A4
    assert "B3" not in picture["refusals"]
    assert all(r["reason"] for r in picture["refusals"].values())


def test_bad_moves_are_refused_with_a_code() -> None:
    s = state("A1", "C3")
    assert refused(s, "Q9") == "no_such_room"
    assert refused(s, "A2", player=5) == "no_such_player"
