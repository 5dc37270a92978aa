"""At the table, the cells still open (unsure, or the victim by the one-picture rule) are
read again with each turn's changed cells: a letter the reader cannot read, turned alone, is
no longer held to be the victim once a second one shows."""

from __future__ import annotations

from companion.games.moerder.board import Board
from vision import synth
from vision.letters import LetterReader
from vision.observation import Observation, TableReader
from vision.tiles import TileReader


def _ends_of_turns(style_name: str, seed: int, turns: int) -> list[tuple[Observation, Board]]:
    """The table's reading at the end of each turn of a rendered game, and the board."""
    style = next(s for s in synth.styles("train") if s.name == style_name)
    size = (1640, 1232)
    boards = synth.game_boards(seed, turns)
    layout = synth.make_layout(style, seed, size)
    ref, _ = synth.render_table(Board(), style, seed, layout=layout, frame=10_000)
    reader = TableReader(TileReader(LetterReader.load()), still_frames=2)
    reader.learn_reference(ref)
    frames = list(synth.render_game(boards, style, seed, size=size, still_frames=2))
    out: list[tuple[Observation, Board]] = []
    last = None
    for k, fr in enumerate(frames):
        obs = reader.read(fr.image)
        last = obs if obs is not None else last
        if (k + 1 == len(frames) or frames[k + 1].turn != fr.turn) and last is not None:
            out.append((last, boards[fr.turn]))
    return out


def test_a_letter_the_reader_cannot_read_is_not_held_for_the_victim() -> None:
    """A dotted italic Ö (a train style) turned first, then a dotted D: the Ö alone was the
    one face-up cell the reader saw no letter in, and stayed the victim for the rest of the
    game; read again with the D, neither is claimed to be the picture, and no cell is read
    wrong."""
    ends = _ends_of_turns("train-98-LiberationMono-Italic-font-dots", 4, 3)
    assert len(ends) == 4
    assert all("X" not in str(board) for _, board in ends)
    # turned alone, it is the one face-up cell the reader sees no letter in: the rule says
    # victim, and a person who could not read it could say no more
    assert ends[1][0].grid.count("X") == 1
    for obs, board in ends[2:]:
        assert "X" not in obs.grid  # the set's one picture is not on the table
        for got, want in zip(obs.grid, str(board), strict=True):
            assert got in ("?", want)  # unsure at worst, never wrong
    assert ends[-1][0].grid.count("?") == 2  # the Ö and the D, both unread
