"""JSON error answers: every refusal is a 4xx with a stable ``error`` word and a ``reason``."""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify

from companion.errors import CompanionError


class WebError(CompanionError, RuntimeError):
    """Root of the errors the web edge raises (a server that cannot start, say)."""


def json_error(status: int, error: str, reason: str, **details: Any) -> Response:
    """``{"error": word, "reason": text, ...}`` with ``status``; never an HTML error page."""
    response = jsonify({"error": error, "reason": reason, **details})
    response.status_code = status
    response.headers["Cache-Control"] = "no-store"
    return response
