"""The one runner of every shipped network (``vision.model_file.OnnxNet``)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.kniffel_pad.digits import MODEL_PATH, SIDE
from vision.model_file import OnnxNet, read_model


class NetError(ValueError):
    pass


def _digits(keep: bool = False) -> OnnxNet:
    _, onnx, _ = read_model(MODEL_PATH, "digit model", NetError)
    return OnnxNet(onnx, "digit network", NetError, keep=keep)


def test_bytes_opencv_cannot_read_fail_when_loaded_with_the_readers_error() -> None:
    with pytest.raises(NetError, match="OpenCV cannot load the digit network"):
        OnnxNet(b"not an onnx model", "digit network", NetError)


@pytest.mark.parametrize("keep", [False, True])
def test_a_call_gives_what_the_input_alone_gives(keep: bool) -> None:
    """Read afresh or kept, a net answers an input the same: a larger batch run in between
    (which sizes a kept net's buffers anew) changes nothing in the next answer."""
    rng = np.random.default_rng(5)
    small = rng.random((3, 1, SIDE, SIDE), dtype=np.float32)
    large = rng.random((40, 1, SIDE, SIDE), dtype=np.float32)
    net = _digits(keep)
    (first,) = net.forward(small)
    net.forward(large)
    (again,) = net.forward(small)
    assert first.dtype == np.float32 and first.shape[0] == 3
    np.testing.assert_array_equal(first, again)
    np.testing.assert_array_equal(first, _digits(not keep).forward(small)[0])
