"""The front door: every group is listed, usage errors exit 2 on one line."""

from __future__ import annotations

import pytest

from companion.cli import main


def test_help_lists_every_game_group(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    for group in ("moerder", "kniffel", "murdero", "serialkiller", "search", "vision"):
        assert group in out


@pytest.mark.parametrize("group", ["moerder", "search", "kniffel"])
def test_group_without_sub_command_is_a_usage_error(
    group: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([group]) == 2
    assert f"companion {group}" in capsys.readouterr().err


def test_no_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2


def test_bad_input_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moerder", "analyse", "--board", "bad"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("companion: error: ") and err.count("\n") == 1


def test_missing_file_names_the_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["murdero", "score", "/nonexistent/hand.json"]) == 2
    assert "/nonexistent/hand.json" in capsys.readouterr().err
