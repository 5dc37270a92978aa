"""The pages: the live table, the history with replays, the camera view.

Pages are plain templates; everything live is drawn by the static scripts from the JSON API.
The table page loads one renderer per game (``static/js/games/<game>.js``) and picks it by the
snapshot's ``game``, so another game adds its page by adding one script.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, g, render_template, request, url_for

from companion.games import find_game, game_names
from web.i18n import LABELS, choose_language, login_error, translate
from web.state import web_state

bp = Blueprint("pages", __name__)

LANG_COOKIE = "companion_lang"


def _language() -> str:
    lang: str | None = g.get("lang")
    if lang is None:
        lang = choose_language(
            request.args.get("lang"),
            request.cookies.get(LANG_COOKIE),
            [tag for tag, _ in request.accept_languages],
            web_state().config.language,
        )
        g.lang = lang
    return lang


def available_games() -> list[dict[str, str]]:
    """Every registered game whose package is installed: ``[{"name", "title"}]``.

    A game whose package is not there yet (another branch) is left out, not an error.
    """
    out = []
    for name in game_names():
        try:
            rules = find_game(name)
        except (ImportError, AttributeError):
            continue
        out.append({"name": rules.name, "title": rules.title})
    return out


def install(app: Flask) -> None:
    @app.context_processor
    def _i18n() -> dict[str, Any]:
        lang = _language()
        labels = {**LABELS["en"], **LABELS.get(lang, {})}
        return {
            "lang": lang,
            "other_lang": "en" if lang == "de" else "de",
            "labels": labels,
            "t": lambda key, **values: translate(lang, key, **values),
            "login_error": lambda body: login_error(lang, body),
            "renderers": web_state().renderers,
            "words": web_state().words,
            "parts": web_state().parts,
            "games": available_games(),
            # a new release changes the address, so phones never run yesterday's cached script
            "static_url": lambda filename: url_for("static", filename=filename,
                                                   v=web_state().asset_version),
        }

    @app.after_request
    def _remember_language(response: Any) -> Any:
        chosen = request.args.get("lang")
        if chosen in LABELS:
            response.set_cookie(LANG_COOKIE, chosen, max_age=365 * 24 * 3600,
                                samesite="Strict", httponly=True)
        return response


@bp.get("/")
def table() -> Any:
    return render_template("table.html", page="table")


@bp.get("/history")
def history() -> Any:
    return render_template("history.html", page="history", game_id=None)


@bp.get("/history/<int:game_id>")
def history_game(game_id: int) -> Any:
    return render_template("history.html", page="history", game_id=game_id)


@bp.get("/camera")
def camera() -> Any:
    return render_template("camera.html", page="camera")
