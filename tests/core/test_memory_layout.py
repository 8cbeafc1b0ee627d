"""torch.empty_permuted, empty(memory_format=...) and Tensor.dim_order against torch."""

from __future__ import annotations

import pytest

import numtorch

torch = pytest.importorskip("torch")

# tensors laid out every way a program makes them: permuted, sliced, expanded, size-1 dims
LAYOUTS = {
    "contiguous": lambda lib: lib.zeros(2, 3, 5, 7),
    "transposed": lambda lib: lib.zeros(2, 3, 5, 7).transpose(1, 2),
    "permuted": lambda lib: lib.zeros(2, 3, 5, 7).permute(3, 0, 2, 1),
    "channels_last": lambda lib: lib.empty(2, 3, 5, 7, memory_format=lib.channels_last),
    "channels_last_3d": lambda lib: lib.empty(2, 3, 4, 5, 6, memory_format=lib.channels_last_3d),
    "singleton": lambda lib: lib.zeros(1, 2, 3, 4),
    "singleton_channels": lambda lib: lib.zeros(2, 1, 3, 4).permute(0, 2, 3, 1),
    "sliced": lambda lib: lib.zeros(3, 8)[:, ::2],
    "expanded": lambda lib: lib.zeros(3, 4).t().expand(2, 4, 3),
    "equal_strides": lambda lib: lib.zeros(3, 1, 3).expand(3, 3, 3).transpose(0, 2),
    "scalar": lambda lib: lib.zeros(()),
    "vector": lambda lib: lib.zeros(5),
    "permuted_empty": lambda lib: lib.empty_permuted((2, 3, 4), (2, 0, 1)),
}
CHECKS = {
    "none": {},
    "true": {"ambiguity_check": True},
    "formats": {"ambiguity_check": "contiguous+channels_last"},
    "preserve": {"ambiguity_check": "preserve"},
}


def _dim_order(lib, layout, check):
    kwargs = dict(CHECKS[check])
    if kwargs.get("ambiguity_check") == "contiguous+channels_last":
        kwargs["ambiguity_check"] = [lib.contiguous_format, lib.channels_last]
    elif kwargs.get("ambiguity_check") == "preserve":
        kwargs["ambiguity_check"] = [lib.preserve_format]
    t = LAYOUTS[layout](lib)
    try:
        return t.stride(), t.dim_order(**kwargs)
    except Exception as e:  # torch's error, compared below
        return t.stride(), (type(e).__name__, str(e))


@pytest.mark.parametrize("check", sorted(CHECKS))
@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_dim_order_matches_torch(layout, check):
    assert _dim_order(numtorch, layout, check) == _dim_order(torch, layout, check)


@pytest.mark.parametrize("bad", ["ILLEGAL", 1, ("contiguous",), [1]])
def test_dim_order_rejects_what_torch_rejects(bad):
    with pytest.raises(TypeError, match="must be a bool or a list of memory formats"):
        numtorch.zeros(2, 3).dim_order(ambiguity_check=bad)
    with pytest.raises(TypeError, match="must be a bool or a list of memory formats"):
        torch.zeros(2, 3).dim_order(ambiguity_check=bad)


@pytest.mark.parametrize(
    "order", [(0, 1, 2, 3), (0, 2, 3, 1), (3, 2, 1, 0), (1, 3, 0, 2), (2, 0, 3, 1)]
)
def test_empty_permuted_strides_match_torch(order):
    ours = numtorch.empty_permuted((2, 3, 5, 7), order, dtype=numtorch.float64)
    theirs = torch.empty_permuted((2, 3, 5, 7), order, dtype=torch.float64)
    assert ours.stride() == theirs.stride()
    assert tuple(ours.shape) == tuple(theirs.shape)
    assert str(ours.dtype) == str(theirs.dtype)
    assert ours.is_contiguous() == theirs.is_contiguous()
    assert (ours + 1).stride() == (theirs + 1).stride()


@pytest.mark.parametrize(
    "args", [((2, 3), (0, 0)), ((2, 3), (0,)), ((2, 3), (0, 2)), ((2, 3), (1, -2))]
)
def test_empty_permuted_errors_match_torch(args):
    with pytest.raises(RuntimeError) as ours:
        numtorch.empty_permuted(*args)
    with pytest.raises(RuntimeError) as theirs:
        torch.empty_permuted(*args)
    assert str(ours.value) == str(theirs.value)


@pytest.mark.parametrize("name", ["channels_last", "channels_last_3d", "preserve_format"])
@pytest.mark.parametrize("shape", [(2, 3), (2, 3, 4, 5), (2, 3, 4, 5, 6)])
def test_empty_memory_format_matches_torch(name, shape):
    def run(lib):
        try:
            return lib.empty(shape, memory_format=getattr(lib, name)).stride()
        except RuntimeError as e:
            return str(e)

    assert run(numtorch) == run(torch)
