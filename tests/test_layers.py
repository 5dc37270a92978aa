"""Layers point one way: the pure games import nothing of the edges, the table names no game
and never imports the web. Every import statement is walked, those inside functions too."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
GAMES = ("moerder", "kniffel", "murdero", "serialkiller", "search")


def _imports(path: Path) -> list[tuple[int, str]]:
    """Every module an import statement in ``path`` names (relative ones made absolute)."""
    package = ".".join(path.relative_to(REPO).with_suffix("").parts[:-1])
    out: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            out.append((node.lineno, base))
    return out


def _sources(folder: str) -> list[Path]:
    return sorted((REPO / folder).rglob("*.py"))


@pytest.mark.parametrize("path", _sources("companion/games"), ids=lambda p: p.name)
def test_a_game_imports_only_the_standard_library_numpy_and_the_games(path: Path) -> None:
    allowed = ("companion.games", "companion.errors", "numpy")
    for line, name in _imports(path):
        top = name.split(".")[0]
        ok = top in sys.stdlib_module_names or top == "__future__" or any(
            name == a or name.startswith(a + ".") for a in allowed
        )
        assert ok, f"{path.relative_to(REPO)}:{line} imports {name}"


@pytest.mark.parametrize("path", _sources("companion/table"), ids=lambda p: p.name)
def test_the_table_names_no_game_and_never_imports_the_web(path: Path) -> None:
    for line, name in _imports(path):
        assert not (name == "web" or name.startswith("web.")), f"{path.name}:{line} imports {name}"
        assert not name.startswith("companion.games.") or name.split(".")[2] in (
            "base", "readings"), f"{path.name}:{line} imports a game: {name}"
    text = path.read_text(encoding="utf-8").lower()
    words = ("mörder", "moerder", "kniffel", "murdero", "serial killer", "serialkiller",
             "sackson")
    named = [w for w in words if re.search(rf"\b{w}\b", text)]
    assert not named, f"{path.name} names {named}"


@pytest.mark.parametrize("folder", ["companion", "vision", "hardware"])
def test_the_core_does_not_import_the_web(folder: str) -> None:
    edges = {REPO / "companion" / "commands.py"}  # the command line starts the web server
    for path in _sources(folder):
        if path in edges:
            continue
        for line, name in _imports(path):
            bad = name == "web" or name.startswith("web.") or name.split(".")[0] == "flask"
            assert not bad, f"{path.relative_to(REPO)}:{line} imports {name}"


def test_every_game_has_the_same_shape() -> None:
    from companion.games import find_game
    from companion.games.base import GameRules, RuleError

    for game in GAMES:
        folder = REPO / "companion" / "games" / game
        for module in ("__init__", "rules", "events", "view", "errors"):
            assert (folder / f"{module}.py").exists(), f"{game} has no {module}.py"
        assert not (folder / "cli.py").exists(), f"{game} keeps a command line in the core"
        package = __import__(f"companion.games.{game}", fromlist=["GAME"])
        assert isinstance(package.GAME, GameRules) and find_game(game) is package.GAME
        assert "GAME =" not in (folder / "rules.py").read_text(encoding="utf-8")
        errors = __import__(f"companion.games.{game}.errors", fromlist=["x"])
        roots = [v for v in vars(errors).values()
                 if isinstance(v, type) and issubclass(v, RuleError) and v is not RuleError]
        assert len(roots) == 1, f"{game} has {len(roots)} root errors"
        events = __import__(f"companion.games.{game}.events", fromlist=["CODEC"])
        assert package.GAME.decode == events.CODEC.decode
