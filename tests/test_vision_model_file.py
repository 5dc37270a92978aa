"""The one runner of every shipped network (``vision.model_file.OnnxNet``)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import pytest

from vision.kniffel_pad.digits import CLASSES, MODEL_PATH, SIDE
from vision.model_file import CHUNK, OnnxNet, read_model


class NetError(ValueError):
    pass


def _digits(frame: bool = False) -> OnnxNet:
    _, onnx, _ = read_model(MODEL_PATH, "digit model", NetError)
    return OnnxNet(onnx, "digit network", NetError, frame=frame)


def test_bytes_opencv_cannot_read_fail_when_loaded_with_the_readers_error() -> None:
    for frame in (False, True):
        with pytest.raises(NetError, match="OpenCV cannot load the digit network"):
            OnnxNet(b"not an onnx model", "digit network", NetError, frame=frame)


@pytest.mark.parametrize("frame", [False, True])
def test_a_call_gives_what_the_input_alone_gives(frame: bool) -> None:
    """A kept net answers an input the same whatever ran before it: a larger batch run in
    between (which sizes the net's buffers anew) changes nothing in the next answer. The two
    engines agree to rounding."""
    rng = np.random.default_rng(5)
    small = rng.random((3, 1, SIDE, SIDE), dtype=np.float32)
    large = rng.random((40, 1, SIDE, SIDE), dtype=np.float32)
    net = _digits(frame)
    (first,) = net.forward(small)
    net.forward(large)
    (again,) = net.forward(small)
    assert first.dtype == np.float32 and first.shape == (3, len(CLASSES))
    np.testing.assert_array_equal(first, again)
    np.testing.assert_allclose(first, _digits(not frame).forward(small)[0], atol=1e-3)


def test_a_batch_longer_than_a_chunk_is_answered_whole_and_in_order() -> None:
    """Crops run CHUNK at a time; the answer is the batch's, each row its own crop's."""
    rng = np.random.default_rng(6)
    batch = rng.random((2 * CHUNK + 5, 1, SIDE, SIDE), dtype=np.float32)
    net = _digits()
    (whole,) = net.forward(batch)
    assert whole.shape == (len(batch), len(CLASSES))
    for i in (0, CHUNK - 1, CHUNK, 2 * CHUNK + 4):
        np.testing.assert_array_equal(whole[i], net.forward(batch[i:i + 1])[0][0])
    assert not np.array_equal(whole[0], whole[CHUNK])


def test_a_crop_network_with_nowhere_to_write_its_file_fails_with_the_readers_error(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The classic engine reads a file: a folder for temporary files that cannot be written
    is the reader's one-line error, not a traceback."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "missing"))
    _, onnx, _ = read_model(MODEL_PATH, "digit model", NetError)
    with pytest.raises(NetError, match="OpenCV cannot load the digit network"):
        OnnxNet(onnx, "digit network", NetError)
