"""The board's words in German and English (the dashboard's own come from ``web.i18n``)."""

from __future__ import annotations

from typing import Final

BOARD_LABELS: Final[dict[str, dict[str, str]]] = {
    "en": {
        "board.title": "Club board",
        "board.tables": "Tables",
        "board.tournament": "Tournament",
        "board.none": "No table has reported yet.",
        "board.online": "online",
        "board.offline": "offline",
        "board.no_game": "No game yet",
        "board.events": "{n} events",
        "board.event": "{n} event",
        "board.broker_lost": "The broker cannot be reached — trying again",
        "board.stand.kniffel": "Wort-Kniffel: totals",
        "board.stand.moerder": "Finde den Mörder: wins",
        "board.stand.murdero": "Murdero: wins",
        "board.stand.empty": "No finished game yet",
        "board.col.rank": "#",
        "board.col.name": "Player",
        "board.col.games": "Games",
        "board.col.total": "Total",
        "board.col.wins": "Wins",
        "board.rules": "Finished games only; the same name at any table is one player.",
    },
    "de": {
        "board.title": "Club-Übersicht",
        "board.tables": "Tische",
        "board.tournament": "Turnier",
        "board.none": "Noch hat sich kein Tisch gemeldet.",
        "board.online": "verbunden",
        "board.offline": "getrennt",
        "board.no_game": "Noch kein Spiel",
        "board.events": "{n} Ereignisse",
        "board.event": "{n} Ereignis",
        "board.broker_lost": "Der Broker ist nicht erreichbar — versuche erneut",
        "board.stand.kniffel": "Wort-Kniffel: Summen",
        "board.stand.moerder": "Finde den Mörder: Siege",
        "board.stand.murdero": "Murdero: Siege",
        "board.stand.empty": "Noch kein Spiel beendet",
        "board.col.rank": "#",
        "board.col.name": "Spieler",
        "board.col.games": "Spiele",
        "board.col.total": "Summe",
        "board.col.wins": "Siege",
        "board.rules": "Nur beendete Spiele; derselbe Name an jedem Tisch ist ein Spieler.",
    },
}

# the dashboard's labels the board's page also shows
SHARED = ("app", "lang.switch", "live.connecting", "live.on", "live.off", "turn.of",
          "phase.over", "winner.is", "winner.none", "player.on_turn", "player.winner")


def labels(lang: str) -> dict[str, str]:
    """Every label the board's page draws, in ``lang``."""
    from web.i18n import translate

    return {**{k: translate(lang, k) for k in SHARED}, **BOARD_LABELS[lang]}


__all__ = ["BOARD_LABELS", "SHARED", "labels"]
