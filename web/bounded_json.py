"""Request bodies parsed with the same depth limit as the command-line tools.

Flask's parser recurses; a body nested a thousand deep ended in a RecursionError and a 500.
Raising ValueError instead lets ``get_json(silent=True)`` give None, so each endpoint answers
its usual 400 with a JSON reason.
"""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.json.provider import DefaultJSONProvider, JSONProvider

from companion.errors import InputError
from companion.inputs import MAX_JSON_DEPTH, json_depth


class BoundedJSONProvider(DefaultJSONProvider):
    """Flask's JSON, refusing documents nested deeper than the tools accept."""

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        text = s.decode("utf-8", "replace") if isinstance(s, bytes) else s
        if json_depth(text) > MAX_JSON_DEPTH:
            raise InputError(f"JSON nested deeper than {MAX_JSON_DEPTH} levels")
        return super().loads(s, **kwargs)


def bounded_json(app: Flask) -> JSONProvider:
    """The provider for ``app.json``, typed as Flask's base so the app's own settings on it stay
    as they were."""
    return BoundedJSONProvider(app)


__all__ = ["BoundedJSONProvider", "bounded_json"]
