"""einsum returns views where torch's does, with torch's strides: in-place ops on the result,
``.view(-1)`` and shared version counters then behave as in torch (Note [einsum's views])."""

import pytest

import numtorch

torch = pytest.importorskip("torch")

EQUATIONS = [
    ("ij->ij", (2, 3)),
    ("ij->ji", (2, 3)),
    ("ii->i", (3, 3)),
    ("iij->ji", (2, 2, 3)),
    ("ijk->kj", (2, 3, 4)),
    ("ijk->ki", (2, 3, 4)),
    ("ij->", (2, 3)),
    ("ij,jk->ik", (2, 3), (3, 4)),
    ("ij,jk->ki", (2, 3), (3, 4)),
    ("bij,bjk->kib", (2, 2, 3), (2, 3, 4)),
    ("ijk,jl->lki", (2, 3, 4), (3, 5)),
    ("ij,kj->ki", (2, 3), (4, 3)),
    ("ij,ij->ji", (2, 3), (2, 3)),
    ("bi,bi->b", (3, 4), (3, 4)),
    ("i,i->", (3,), (3,)),
    ("ii,ij->j", (3, 3), (3, 4)),
    ("ij,jk->ijk", (2, 3), (3, 4)),
    ("...ij,...jk->...ik", (2, 2, 3), (3, 4)),
    ("ij,jk->ik", (2, 0), (0, 4)),
    ("ii,jkk->ij", (3, 3), (2, 4, 4)),
    ("ij,jk->ik", (2, 1), (1, 4)),
    ("xij,jk->ikx", (2, 2, 3), (3, 4)),
    ("jk,ij->ik", (3, 4), (2, 3)),
]


def _layout(lib, equation, shapes):
    lib.manual_seed(0)
    operands = [lib.randn(*shape, dtype=lib.float64).requires_grad_() for shape in shapes]
    out = lib.einsum(equation, *operands)
    base = out._base
    return {
        "view": out._is_view(),
        "of_operand": base is not None and base.grad_fn is None,
        "stride": tuple(out.stride()),
        "contiguous": out.is_contiguous(),
    }


@pytest.mark.parametrize("case", EQUATIONS, ids=lambda c: c[0])
def test_einsum_views_and_strides_match_torch(case):
    equation, *shapes = case
    assert _layout(numtorch, equation, shapes) == _layout(torch, equation, shapes)


def _inplace_after(lib, equation, shapes):
    lib.manual_seed(0)
    operands = [lib.randn(*shape, dtype=lib.float64).requires_grad_() for shape in shapes]
    out = lib.einsum(equation, *[x * 1 for x in operands]).tan_()
    out.sum().backward()
    return out.grad_fn.name(), [v for x in operands for v in x.grad.flatten().tolist()]


@pytest.mark.parametrize(
    "equation, shapes", [("ij,jk->ki", ((2, 3), (3, 4))), ("ii->i", ((3, 3),))]
)
def test_inplace_on_einsum_view_records_as_strided(equation, shapes):
    name, grads = _inplace_after(numtorch, equation, shapes)
    expected_name, expected = _inplace_after(torch, equation, shapes)
    assert name == expected_name == "AsStridedBackward0"
    assert grads == pytest.approx(expected)


@pytest.mark.parametrize("lib", [numtorch, torch], ids=["numtorch", "torch"])
def test_einsum_permutation_shares_the_operand(lib):
    x = lib.zeros(2, 3)
    lib.einsum("ij->ji", x).add_(1)  # writes through to x, as a permute would
    assert x.sum().item() == 6
    assert x._version == 1


@pytest.mark.parametrize("equation", ["ij,jk->ki", "ij->ji", "ij,ij->ji"])
def test_flattening_view_succeeds_or_raises_like_torch(equation):
    def flatten(lib):
        a, b = lib.ones(2, 3), lib.ones(3, 4) if equation == "ij,jk->ki" else lib.ones(2, 3)
        try:
            lib.einsum(equation, *([a] if equation == "ij->ji" else [a, b])).view(-1)
        except RuntimeError:
            return "raised"
        return "viewed"

    assert flatten(numtorch) == flatten(torch)


# Note [FFT layout]: the transformed dims innermost, the others in the input's memory order
FFT_CASES = [
    ("fft", {"dim": 0}),
    ("ifft", {"dim": 1}),
    ("rfft", {"dim": 0}),
    ("irfft", {"dim": 0}),
    ("hfft", {"dim": 0}),
    ("ihfft", {"dim": 1}),
    ("fftn", {"dim": (2, 0)}),
    ("ifftn", {"dim": (3, 1)}),
    ("rfftn", {"dim": (2, 0, 1)}),
    ("irfftn", {"dim": (3, 0, 1)}),
    ("hfftn", {"dim": (0, 2)}),
    ("hfftn", {}),
    ("ihfftn", {"dim": (2, 0, 1)}),
    ("fft2", {"dim": (0, 1)}),
    ("rfft2", {"dim": (0, 1)}),
    ("irfft2", {"dim": (0, 1)}),
]
COMPLEX_INPUT = {"ifft", "irfft", "hfft", "ifftn", "irfftn", "hfftn", "irfft2"}


@pytest.mark.parametrize("name, kwargs", FFT_CASES, ids=lambda c: str(c))
def test_fft_result_strides_match_torch(name, kwargs):
    def layout(lib):
        dtype = lib.complex128 if name in COMPLEX_INPUT else lib.float64
        out = getattr(lib.fft, name)(lib.ones(2, 3, 4, 5, dtype=dtype), **kwargs)
        return tuple(out.shape), tuple(out.stride()), out.is_contiguous()

    assert layout(numtorch) == layout(torch)


def _linalg_results(lib):
    a = lib.linspace(-1, 1, 18, dtype=lib.float64).reshape(2, 3, 3) + 3 * lib.eye(3)
    return {
        "eig vectors": lib.linalg.eig(a).eigenvectors,
        "householder_product": lib.linalg.householder_product(
            lib.linspace(-1, 1, 24, dtype=lib.float64).reshape(2, 4, 3),
            lib.ones(2, 3, dtype=lib.float64),
        ),
        "ormqr": lib.ormqr(
            lib.linspace(-1, 1, 24, dtype=lib.float64).reshape(2, 4, 3),
            lib.ones(2, 3, dtype=lib.float64),
            lib.ones(2, 4, 2, dtype=lib.float64),
        ),
        "solve, batch of vectors": lib.linalg.solve(a, lib.ones(2, 3, dtype=lib.float64)),
        "solve, broadcast vector": lib.linalg.solve(a, lib.ones(3, dtype=lib.float64)),
    }


@pytest.mark.parametrize(
    "name",
    [
        "eig vectors",
        "householder_product",
        "ormqr",
        "solve, batch of vectors",
        "solve, broadcast vector",
    ],
)
def test_lapack_result_strides_match_torch(name):
    ours, theirs = _linalg_results(numtorch)[name], _linalg_results(torch)[name]
    assert tuple(ours.stride()) == tuple(theirs.stride())


COPY_CASES = [
    ("expand_copy", lambda lib, x: lib.expand_copy(x[:1], (3, 4))),
    ("as_strided_copy", lambda lib, x: lib.as_strided_copy(x, (2, 3), (1, 2), 1)),
    ("permute_copy", lambda lib, x: lib.permute_copy(x, (1, 0))),
    ("t_copy", lambda lib, x: lib.t_copy(x)),
    ("transpose_copy", lambda lib, x: lib.transpose_copy(x, 0, 1)),
    ("alias_copy", lambda lib, x: lib.alias_copy(x.t())),
    ("unsqueeze_copy", lambda lib, x: lib.unsqueeze_copy(x.t(), 0)),
    ("squeeze_copy", lambda lib, x: lib.squeeze_copy(x.t()[None])),
    ("split_copy", lambda lib, x: lib.split_copy(x.t(), 2)[0]),
    ("unbind_copy", lambda lib, x: lib.unbind_copy(x.t(), 1)[0]),
]


@pytest.mark.parametrize("name, fn", COPY_CASES, ids=[c[0] for c in COPY_CASES])
def test_view_copy_ops_return_contiguous_tensors(name, fn):
    # torch's *_copy results are contiguous whatever the view's strides: .view(-1) works
    found = []
    for lib in (numtorch, torch):
        y = fn(lib, lib.arange(12.0).reshape(3, 4))
        found.append((tuple(y.shape), y.stride(), y.view(-1).tolist()))
    assert found[0] == found[1]


@pytest.mark.parametrize("layout", ["contiguous", "expanded", "transposed"])
@pytest.mark.parametrize("with_weight", [False, True])
def test_rms_norm_copies_a_permuted_result_as_torch_does(layout, with_weight):
    # torch's composite returns a contiguous result: a permuted input's is cloned
    found = []
    for lib in (numtorch, torch):
        x = lib.arange(12.0, dtype=lib.float64).reshape(2, 3, 2)
        if layout == "expanded":
            x = x[0].expand(2, 3, 2)
        elif layout == "transposed":
            x = x.reshape(2, 2, 3).transpose(1, 2)
        weight = lib.ones(3, 2, dtype=lib.float64, requires_grad=True) if with_weight else None
        out = lib.nn.functional.rms_norm(x.requires_grad_(), (3, 2), weight)
        found.append((out.grad_fn.name(), out.stride()))
    assert found[0] == found[1]
