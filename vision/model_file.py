"""One file format and one runner for every network the companion ships (letters, dice finder,
dice faces, pad digits): ONNX bytes and a JSON ``meta`` in one ``.npz``, with any extra arrays
(taught prototypes), run by OpenCV's dnn module. Each reader checks its own ``meta``; reading,
writing and running the file is the same for all of them, so it lives here once."""

from __future__ import annotations

import json
import tempfile
import threading
import zipfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.inputs import excerpt

CHUNK = 16  # crops a crop network runs at once
MAX_UNPACKED = 200 * 2**20  # bytes a model or profile file may unpack to (they are 0.1-3 MB)


# OpenCV's dnn logs a shape error on stderr before it raises it; the raised error is told
# in one line (:meth:`OnnxNet.forward`), so its log says nothing more
cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_FATAL)


class OnnxNet:
    """An ONNX network run by cv2.dnn, read once and kept for the object's life.

    Two kinds of network, two ways of running them, measured on one core:
    - Crop networks (letters, dice faces, pad digits and numbers) run on OpenCV's classic
      engine, 16 crops at a time. The classic engine ran them 10-40 % faster than OpenCV 5's
      new one, and far faster in small chunks than in one batch of 560 crops, whose buffers
      (tens of MB) no cache holds. A chunk's buffers are small (the number network's, the
      largest, some 11 MB), so the net is kept: nothing is read again for a call, and a full
      pad's read raises the peak by 11 MB where whole batches raised it by 43.
    - ``frame`` networks (the dice finder) run one whole frame at a time on the new engine,
      3.5 times faster there than the classic one on a 640x480 frame.
    OpenCV reads the classic engine from a file only (from a buffer it takes the new engine),
    so the bytes go through a temporary file when the net is loaded. Calls are serialised.
    ``error`` is the reader's own error class, ``what`` names the network in its one-line
    message.
    """

    def __init__(self, onnx: bytes, what: str, error: type[Exception],
                 frame: bool = False) -> None:
        self.onnx = bytes(onnx)
        self._what, self._error = what, error
        self._chunk = 0 if frame else CHUNK  # 0: the whole input at once
        self._net = self._read(frame)  # a model OpenCV cannot read fails here, when loaded
        self._lock = threading.Lock()

    def _read(self, frame: bool) -> Any:
        try:
            if frame:
                return cv2.dnn.readNetFromONNX(np.frombuffer(self.onnx, np.uint8))
            with tempfile.TemporaryDirectory() as folder:
                path = Path(folder) / "net.onnx"
                path.write_bytes(self.onnx)
                return cv2.dnn.readNetFromONNX(str(path), cv2.dnn.ENGINE_CLASSIC)
        except (cv2.error, OSError) as exc:  # OSError: no temporary file could be written
            raise self._error(
                f"OpenCV cannot load the {self._what}: {exc}".splitlines()[0]) from exc

    def forward(self, x: np.ndarray, outputs: Sequence[str] | None = None) -> list[np.ndarray]:
        """The named outputs (or the only one) for input ``x``, as float32 arrays."""
        x = np.ascontiguousarray(x, np.float32)
        n = max(len(x), 1)  # an empty batch still runs once, as OpenCV answers it
        step = self._chunk or n
        parts = []
        with self._lock:
            for start in range(0, n, step):
                self._net.setInput(x[start:start + step])
                try:
                    out = self._net.forward(list(outputs)) if outputs else [self._net.forward()]
                except cv2.error as exc:  # a network made for other inputs (another model's)
                    raise self._error(f"the {self._what} cannot read this input (a model "
                                      "made for another reader?)") from exc
                parts.append([np.asarray(o, np.float32) for o in out])
        return [np.concatenate(p) for p in zip(*parts)]


def load_npz(path: str | Path, what: str, error: type[Exception]) -> dict[str, np.ndarray]:
    """Every array of an ``.npz`` file (a model, a profile); one line naming the file when it
    is no such file, is damaged, or would unpack to more than ``MAX_UNPACKED`` bytes (its
    directory says how much each member unpacks to, and reading stops there: a 2 MB file of
    compressed zeros once unpacked to 4 GB)."""
    p = Path(path)
    try:
        with zipfile.ZipFile(p) as zf:
            unpacked = sum(i.file_size for i in zf.infolist())
            if unpacked <= MAX_UNPACKED:
                with np.load(p, allow_pickle=False) as z:
                    return {k: np.asarray(z[k]) for k in z.files}
    except (OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile) as exc:
        raise error(f"cannot load {what} {p}: {excerpt(str(exc), 120)}") from exc
    raise error(f"cannot load {what} {p}: it unpacks to {unpacked // 2**20} MB, more than "
                f"{MAX_UNPACKED // 2**20} MB")


def read_model(path: str | Path, what: str,
               error: type[Exception]) -> tuple[dict[str, Any], bytes, dict[str, np.ndarray]]:
    """``(meta, onnx, other arrays)`` of a model file; one line naming the file if unreadable."""
    p = Path(path)
    arrays = load_npz(p, what, error)
    try:
        meta = json.loads(str(arrays.pop("meta")))
        onnx = arrays.pop("onnx").tobytes()
    except (KeyError, ValueError, RecursionError) as exc:
        raise error(f"cannot load {what} {p}: {excerpt(str(exc), 120)}") from exc
    if not isinstance(meta, dict):
        raise error(f"cannot load {what} {p}: its meta is not an object")
    t = meta.get("temperature", 1.0)  # the softmax's: every reader divides its logits by it
    if not isinstance(t, (int, float)) or not 0 < t < float("inf"):
        raise error(f"cannot load {what} {p}: its temperature must be a positive number")
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
