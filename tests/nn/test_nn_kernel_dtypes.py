"""The dtypes torch's nn kernels run (Note [Kernel dtypes]): each function below raises
torch's exception, with torch's message, for the dtypes its kernel has no loop for, and
computes the others as torch does."""

from __future__ import annotations

import warnings

import pytest

import numtorch

torch = pytest.importorskip("torch")


def _ones(lib, shape, dtype):
    return lib.ones(shape, dtype=getattr(lib, dtype))


CALLS = {
    "elu": lambda lib, d: lib.nn.functional.elu(_ones(lib, (2, 3), d)),
    "logsigmoid": lambda lib, d: lib.nn.functional.logsigmoid(_ones(lib, (2, 3), d)),
    "silu": lambda lib, d: lib.nn.functional.silu(_ones(lib, (2, 3), d)),
    "prelu": lambda lib, d: lib.nn.functional.prelu(_ones(lib, (2, 3), d), _ones(lib, 1, d)),
    "huber_loss": lambda lib, d: lib.nn.functional.huber_loss(
        _ones(lib, (2, 3), d), _ones(lib, (2, 3), d)
    ),
    "adaptive_avg_pool2d": lambda lib, d: lib.nn.functional.adaptive_avg_pool2d(
        _ones(lib, (1, 2, 4, 4), d), (2, 2)
    ),
    "adaptive_avg_pool2d_global": lambda lib, d: lib.nn.functional.adaptive_avg_pool2d(
        _ones(lib, (1, 2, 4, 4), d), 1
    ),
    "adaptive_max_pool1d": lambda lib, d: lib.nn.functional.adaptive_max_pool1d(
        _ones(lib, (2, 4), d), 2
    ),
    "interpolate_nearest": lambda lib, d: lib.nn.functional.interpolate(
        _ones(lib, (1, 2, 3, 4, 5), d), scale_factor=1.7, mode="nearest"
    ),
    "interpolate_nearest-exact": lambda lib, d: lib.nn.functional.interpolate(
        _ones(lib, (1, 2, 5), d), scale_factor=1.7, mode="nearest-exact"
    ),
    "interpolate_antialias": lambda lib, d: lib.nn.functional.interpolate(
        _ones(lib, (1, 2, 4, 5), d), scale_factor=0.6, mode="bilinear", antialias=True
    ),
    "max_unpool1d": lambda lib, d: lib.nn.functional.max_unpool1d(
        _ones(lib, (1, 1, 2), d), lib.tensor([[[0, 3]]]), 2
    ),
    "max_unpool3d": lambda lib, d: lib.nn.functional.max_unpool3d(
        _ones(lib, (1, 1, 1, 2, 2), d), lib.tensor([[[[[0, 3], [8, 11]]]]]), (1, 2, 2)
    ),
    "pad_reflect": lambda lib, d: lib.nn.functional.pad(
        _ones(lib, (1, 2, 4), d), (1, 1), "reflect"
    ),
    "pad_replicate": lambda lib, d: lib.nn.functional.pad(
        _ones(lib, (1, 2, 4, 4), d), (1, 1, 1, 1), "replicate"
    ),
    "native_group_norm": lambda lib, d: lib.native_group_norm(
        _ones(lib, (2, 4, 3), d), None, None, 2, 4, 3, 2, 1e-5
    )[0],
    "_weight_norm": lambda lib, d: lib._weight_norm(_ones(lib, (2, 3), d), _ones(lib, (2, 1), d)),
    "embedding_bag": lambda lib, d: lib.nn.functional.embedding_bag(
        lib.tensor([0, 1]), _ones(lib, (3, 2), d), lib.tensor([0]), mode="max"
    ),
    "scaled_dot_product_attention": lambda lib, d: lib.nn.functional.scaled_dot_product_attention(
        _ones(lib, (1, 2, 3, 4), d), _ones(lib, (1, 2, 3, 4), d), _ones(lib, (1, 2, 3, 4), d)
    ),
}

# the names torch's messages give these dtypes differ from the kernel's scalar names
LOOSE_MESSAGES = {"embedding_bag"}
# torch's fixed-point byte interpolation, which numtorch refuses (dtype_support_known.py)
UNSUPPORTED = {("interpolate_antialias", "uint8")}


def _outcome(lib, name, dtype):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            out = CALLS[name](lib, dtype)
        except (RuntimeError, NotImplementedError) as error:
            return type(error).__name__, str(error) if name not in LOOSE_MESSAGES else ""
    return str(out.dtype), out.detach().to(lib.complex128).reshape(-1).tolist()


@pytest.mark.parametrize("dtype", ["bool", "uint8", "int32", "bfloat16", "float32", "complex64"])
@pytest.mark.parametrize("name", CALLS)
def test_nn_kernels_run_torchs_dtypes(name, dtype):
    if (name, dtype) in UNSUPPORTED:
        pytest.skip("a dtype numtorch refuses")
    ours, theirs = _outcome(numtorch, name, dtype), _outcome(torch, name, dtype)
    assert ours[0] == theirs[0]
    assert ours[1] == (theirs[1] if isinstance(theirs[1], str) else pytest.approx(theirs[1]))
