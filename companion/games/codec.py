"""A small codec for frozen-dataclass events: JSON in and out, refusing what does not fit.

Kept apart from :mod:`companion.games.base` (the contract) because it is machinery: every
game's ``events`` module builds its ``CODEC`` from it.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.base import EventError, Undo, json_ready


class EventCodec:
    """Encode and decode frozen-dataclass events by their class name in snake_case.

    Field types drive decoding: tuples (also nested and variadic), enums (by value, then by
    name), nested dataclasses, ``X | None``, int, float, str and bool. Anything else is an
    :class:`EventError` naming the field, so a bad phone request becomes a 400, never a crash.
    """

    def __init__(self, classes: Sequence[type]) -> None:
        self._by_name: dict[str, type] = {}
        self._names: dict[type, str] = {}
        for cls in (*classes, Undo):
            name = _snake(cls.__name__)
            self._by_name[name] = cls
            self._names[cls] = name

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._by_name)

    def encode(self, event: Any) -> dict[str, Any]:
        name = self._names.get(type(event))
        if name is None:
            raise EventError(f"not an event of this game: {type(event).__name__}")
        out: dict[str, Any] = {"type": name}
        for f in dataclasses.fields(event):
            out[f.name] = json_ready(getattr(event, f.name))
        return out

    def decode(self, obj: Mapping[str, Any]) -> Any:
        if not isinstance(obj, Mapping):
            raise EventError("an event must be a JSON object")
        name = obj.get("type")
        cls = self._by_name.get(name) if isinstance(name, str) else None
        if cls is None:
            known = ", ".join(sorted(self._by_name))
            raise EventError(f"unknown event type {name!r}; known: {known}")
        hints = typing.get_type_hints(cls)
        kwargs: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            if f.name in obj:
                kwargs[f.name] = _from_json(obj[f.name], hints[f.name], f"{name}.{f.name}")
            elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise EventError(f"{name}: missing field {f.name!r}")
        extra = set(obj) - {"type"} - {f.name for f in dataclasses.fields(cls)}
        if extra:
            raise EventError(f"{name}: unknown field(s) {', '.join(sorted(extra))}")
        try:
            return cls(**kwargs)
        except (TypeError, ValueError) as exc:
            raise EventError(f"{name}: {exc}") from None


def _snake(name: str) -> str:
    out = [name[0].lower()]
    for ch in name[1:]:
        out.append("_" + ch.lower() if ch.isupper() else ch)
    return "".join(out)


def _from_json(value: Any, hint: Any, where: str) -> Any:
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        errors = []
        for arg in args:
            if arg is type(None):
                continue
            try:
                return _from_json(value, arg, where)
            except EventError as exc:
                errors.append(str(exc))
        raise EventError(errors[0] if errors else f"{where}: bad value {value!r}")
    if hint is Any:
        return value
    if origin is tuple:
        if not isinstance(value, (list, tuple)):
            raise EventError(f"{where}: expected a list, got {value!r}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_from_json(v, args[0], f"{where}[{i}]") for i, v in enumerate(value))
        if len(args) != len(value):
            raise EventError(f"{where}: expected {len(args)} items, got {len(value)}")
        return tuple(_from_json(v, a, f"{where}[{i}]") for i, (a, v) in enumerate(zip(args, value)))
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        for member in hint:
            if value == member.value or value == member.name:
                return member
        raise EventError(f"{where}: {value!r} is not one of {[m.value for m in hint]}")
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        if not isinstance(value, Mapping):
            raise EventError(f"{where}: expected an object")
        sub = typing.get_type_hints(hint)
        try:
            return hint(**{k: _from_json(v, sub[k], f"{where}.{k}") for k, v in value.items()})
        except (KeyError, TypeError, ValueError) as exc:
            raise EventError(f"{where}: {exc}") from None
    if hint is bool:
        if not isinstance(value, bool):
            raise EventError(f"{where}: expected true or false, got {value!r}")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise EventError(f"{where}: expected a whole number, got {value!r}")
        return value
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise EventError(f"{where}: expected a number, got {value!r}")
        return float(value)
    if hint is str:
        if not isinstance(value, str):
            raise EventError(f"{where}: expected a string, got {value!r}")
        return value
    raise EventError(f"{where}: cannot decode a value of type {hint!r}")


__all__ = ["EventCodec"]
