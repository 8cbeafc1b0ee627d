"""torch.quasirandom.SobolEngine against torch: the same points in every tabulated
dimension, draw/draw_base2/fast_forward/reset bookkeeping, dtypes and errors."""

import numpy as np
import pytest

import numtorch
from numtorch.quasirandom import MAX_DIMENSION

torch = pytest.importorskip("torch")


def test_points_match_torch_in_every_tabulated_dimension():
    ours = numtorch.quasirandom.SobolEngine(MAX_DIMENSION).draw(300, dtype=numtorch.float64)
    theirs = torch.quasirandom.SobolEngine(MAX_DIMENSION).draw(300, dtype=torch.float64)
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


def test_bookkeeping_matches_torch():
    results = []
    for lib in (numtorch, torch):
        engine = lib.quasirandom.SobolEngine(3)
        engine.fast_forward(5)
        a = engine.draw(2)
        count = engine.num_generated
        engine.reset()
        b = engine.draw(1)
        c = engine.draw_base2(0)
        d = engine.draw(3)
        out = lib.empty(0)
        engine.draw(2, out=out)
        results.append(([t.numpy() for t in (a, b, c, d, out)], count, str(a.dtype), repr(engine)))
    for ours, theirs in zip(results[0][0], results[1][0]):
        np.testing.assert_array_equal(ours, theirs)
    assert results[0][1:] == results[1][1:]


def test_errors_match_torch():
    for lib in (numtorch, torch):
        for dimension in (0, 21202):
            with pytest.raises(ValueError, match="Supported range of dimensionality"):
                lib.quasirandom.SobolEngine(dimension)
        engine = lib.quasirandom.SobolEngine(2)
        engine.draw(1)
        with pytest.raises(ValueError, match="balance properties"):
            engine.draw_base2(2)


def test_untabulated_dimensions_say_so():
    with pytest.raises(NotImplementedError, match="dimensions up to"):
        numtorch.quasirandom.SobolEngine(MAX_DIMENSION + 1)


def test_scrambled_points_match_torch():
    # seeded engines use their own generator; unseeded ones draw from the global stream,
    # which must be left where torch leaves it
    results = []
    for lib in (numtorch, torch):
        seeded = lib.quasirandom.SobolEngine(MAX_DIMENSION, scramble=True, seed=123)
        a = seeded.draw(40, dtype=lib.float64)
        seeded.reset()
        b = seeded.fast_forward(4).draw_base2(2)
        lib.manual_seed(5)
        unseeded = lib.quasirandom.SobolEngine(5, scramble=True)
        c = unseeded.draw(1)
        d = unseeded.draw(6)
        results.append([t.numpy() for t in (a, b, c, d, lib.rand(3))] + [repr(seeded)])
    for ours, theirs in zip(*results):
        if isinstance(theirs, str):
            assert ours == theirs
        else:
            assert ours.dtype == theirs.dtype
            np.testing.assert_array_equal(ours, theirs)


def test_draw_takes_the_default_dtype_and_keeps_the_first_point_of_construction():
    def run(lib):
        engine = lib.quasirandom.SobolEngine(dimension=2, scramble=True, seed=7)
        lib.set_default_dtype(lib.float64)
        try:  # the first point was rounded in the dtype that was the default at construction
            return [engine.draw(2), engine.draw(2, dtype=lib.float32), engine.draw_base2(2)]
        finally:
            lib.set_default_dtype(lib.float32)

    for ours, theirs in zip(run(numtorch), run(torch)):
        assert str(ours.dtype) == str(theirs.dtype)
        np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
