"""One file format and one runner for every network the companion ships (letters, dice finder,
dice faces, pad digits): ONNX bytes and a JSON ``meta`` in one ``.npz``, with any extra arrays
(taught prototypes), run by OpenCV's dnn module. Each reader checks its own ``meta``; reading,
writing and running the file is the same for all of them, so it lives here once."""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np


class OnnxNet:
    """An ONNX network run by cv2.dnn, read afresh for every call.

    OpenCV keeps a net's working buffers, sized for the input it last ran, for as long as the
    net lives: 3-4 MB for a batch of crops, some 20 MB for the dice finder's whole frame.
    Kept between calls, the dice reader's three networks held 27 MB while the table waited
    for the next throw, and a read's own buffers came on top. Read for each call, the
    buffers go with the call, for a little CPU (one core: the finder 30 -> 40 ms a frame,
    mostly faulting in fresh pages; the crop networks 1-2 ms). Calls are serialised, so one
    call's buffers exist at a time. ``error`` is the reader's own error class, ``what`` names
    the network in its one-line message.
    """

    def __init__(self, onnx: bytes, what: str, error: type[Exception]) -> None:
        self.onnx = bytes(onnx)
        self._what, self._error = what, error
        self._net()  # a model OpenCV cannot read fails here, when it is loaded
        self._lock = threading.Lock()

    def _net(self) -> Any:
        try:
            return cv2.dnn.readNetFromONNX(np.frombuffer(self.onnx, np.uint8))
        except cv2.error as exc:
            raise self._error(
                f"OpenCV cannot load the {self._what}: {exc}".splitlines()[0]) from exc

    def forward(self, x: np.ndarray, outputs: Sequence[str] | None = None) -> list[np.ndarray]:
        """The named outputs (or the only one) for input ``x``, as float32 arrays."""
        with self._lock:
            net = self._net()
            net.setInput(np.ascontiguousarray(x, np.float32))
            out = net.forward(list(outputs)) if outputs else [net.forward()]
        return [np.asarray(o, np.float32) for o in out]


def read_model(path: str | Path, what: str,
               error: type[Exception]) -> tuple[dict[str, Any], bytes, dict[str, np.ndarray]]:
    """``(meta, onnx, other arrays)`` of a model file; one line naming the file if unreadable."""
    p = Path(path)
    try:
        with np.load(p, allow_pickle=False) as z:
            meta = json.loads(str(z["meta"]))
            onnx = z["onnx"].tobytes()
            arrays = {k: np.asarray(z[k]) for k in z.files if k not in ("meta", "onnx")}
    except (OSError, KeyError, ValueError, EOFError) as exc:
        raise error(f"cannot load {what} {p}: {exc}") from exc
    if not isinstance(meta, dict):
        raise error(f"cannot load {what} {p}: its meta is not an object")
    return meta, onnx, arrays


def write_model(path: str | Path, onnx: bytes, meta: Mapping[str, Any],
                arrays: Mapping[str, np.ndarray] | None = None) -> None:
    """Write a model file (the folder made if needed)."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    every: dict[str, np.ndarray] = {"onnx": np.frombuffer(onnx, np.uint8),
                                    "meta": np.array(json.dumps(dict(meta))), **(arrays or {})}
    with open(p, "wb") as fh:  # np.savez_compressed would append .npz to a bare name
        np.savez_compressed(fh, **every)  # type: ignore[arg-type]
