"""The tournament's standings across tables and rounds, from the finished games only.

The rules (docs/club.md says the same to people):

- a game counts once it is over by its rules; a game abandoned for another, or still running,
  does not; an end taken back by undo takes the game out again;
- players are their names: the same name at two tables, or in two rounds, is one person;
- Wort-Kniffel: the sum of a player's final totals over their finished games, highest first;
- Finde den Mörder and Murdero: the games a player won (a shared win counts for each winner),
  most first; equal wins: fewer games played first (the better rate);
- equal on every count share a rank (1, 1, 3).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

WINS = ("moerder", "murdero")  # games whose standings count wins
TOTALS = ("kniffel",)  # games whose standings add the final totals


def of(finished: Iterable[Mapping[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """``{"kniffel": [...], "moerder": [...], "murdero": [...]}``, each ranked."""
    played: dict[str, dict[str, int]] = {g: {} for g in TOTALS + WINS}
    points: dict[str, dict[str, int]] = {g: {} for g in TOTALS + WINS}
    for game in finished:
        kind = str(game.get("game"))
        if kind not in played:
            continue
        winners = set(game.get("winners") or ())
        for player in game.get("players") or ():
            name = str(player.get("name"))
            played[kind][name] = played[kind].get(name, 0) + 1
            if kind in TOTALS:
                gained = int(player.get("score") or 0)
            else:
                gained = 1 if name in winners else 0
            points[kind][name] = points[kind].get(name, 0) + gained
    out: dict[str, list[dict[str, Any]]] = {}
    for kind in TOTALS + WINS:
        field = "total" if kind in TOTALS else "wins"
        rows = [{"name": n, "games": played[kind][n], field: points[kind][n]}
                for n in played[kind]]
        out[kind] = _ranked(rows, field)
    return out


def _ranked(rows: list[dict[str, Any]], field: str) -> list[dict[str, Any]]:
    def key(row: dict[str, Any]) -> tuple[int, int]:
        return (-int(row[field]), int(row["games"]) if field == "wins" else 0)

    rows.sort(key=lambda r: (key(r), r["name"]))
    for i, row in enumerate(rows):
        row["rank"] = rows[i - 1]["rank"] if i and key(rows[i - 1]) == key(row) else i + 1
    return rows


__all__ = ["of"]
