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
    """An ONNX network run by cv2.dnn, read afresh for every call unless ``keep``.

    OpenCV keeps a net's working buffers, sized for the largest input it ran, for as long as
    the net lives: 3-4 MB for a batch of crops, some 20 MB for the dice finder's 640x480
    frame. Kept between calls, the crop networks' buffers sat under the finder's while a
    throw was read. Read for each
    call, they go with the call, for 1-2 ms of CPU. ``keep`` is for a network run on one
    whole frame at a time (the finder): the next frame reuses its buffers as they are, so
    keeping them adds nothing while it runs, and reading it again would cost 10-20 ms of CPU
    a frame (fresh pages); the tile letter reader keeps its network too, being run several
    times for every frame it reads. Calls are serialised, so one call's buffers exist at a time.
    ``error`` is the reader's own error class, ``what`` names the network in its one-line
    message.
    """

    def __init__(self, onnx: bytes, what: str, error: type[Exception], keep: bool = False) -> None:
        self.onnx = bytes(onnx)
        self._what, self._error = what, error
        net = self._net()  # a model OpenCV cannot read fails here, when it is loaded
        self._kept = net if keep else None
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
            net = self._kept if self._kept is not None else self._net()
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
