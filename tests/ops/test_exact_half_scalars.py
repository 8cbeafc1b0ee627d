"""A half-precision tensor with a number or 0-d tensor (Note [Half-precision scalars]): mul
and div read the scalar unrounded in float32 and round once; add and sub read it rounded to
the half, bfloat16 as float16."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")

_VALUES = np.random.RandomState(0).randn(64) * 3

_SCALARS = {
    "float": lambda lib: 0.1,
    "third": lambda lib: 1 / 3,
    "int": lambda lib: 3001,
    "zero_dim_float32": lambda lib: lib.tensor(0.1),
    "zero_dim_float64": lambda lib: lib.tensor(1 / 3, dtype=lib.float64),
}

_OPS = {
    "mul": lambda lib, x, s: x * s,
    "rmul": lambda lib, x, s: s * x,
    "div": lambda lib, x, s: x / s,
    "rdiv": lambda lib, x, s: s / x,
    "add": lambda lib, x, s: x + s,
    "sub": lambda lib, x, s: x - s,
    "mul_": lambda lib, x, s: x.mul_(s),
    "div_": lambda lib, x, s: x.div_(s),
}


@pytest.mark.parametrize("name", ["deg2rad", "rad2deg"])
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_angle_conversions_multiply_by_an_unrounded_constant(dtype, name):
    def bits(lib):
        x = lib.tensor(_VALUES * 30, dtype=getattr(lib, dtype))
        return getattr(x, name)().float().numpy().tolist()

    assert bits(numtorch) == bits(torch)


def _bits(lib, dtype, scalar, op):
    x = lib.tensor(_VALUES, dtype=getattr(lib, dtype))
    y = _OPS[op](lib, x, _SCALARS[scalar](lib))
    return str(y.dtype), y.float().numpy().tolist()


@pytest.mark.parametrize("op", sorted(_OPS))
@pytest.mark.parametrize("scalar", sorted(_SCALARS))
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_half_with_scalar_rounds_as_torch(dtype, scalar, op):
    assert _bits(numtorch, dtype, scalar, op) == _bits(torch, dtype, scalar, op)
