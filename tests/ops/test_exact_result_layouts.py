"""Result layouts as torch's: einsum's views (Note [einsum's views]), copies made like
another tensor (clone, to(), the *_like factories), joins, rolls, nonzero, unsafe_split's parts:
in-place ops on the result, ``.view(-1)`` and shared version counters then behave as in torch."""

import numpy as np
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
    # three or more operands: each step laid out as torch's bmm or mul leaves it
    ("nlhd,nhmd,nlh->nlhm", (2, 6, 2, 4), (2, 2, 3, 4), (2, 6, 2)),
    ("bdl,bnl,bdl->bdln", (2, 3, 5), (2, 4, 5), (2, 3, 5)),
    ("Yc,baYd->ac", (4, 3), (2, 4, 4, 2)),
    ("ade,Ya,aXd->Yda", (4, 2, 4), (3, 4), (4, 4, 2)),
    ("eYX,c,YeX->ecYX", (3, 3, 2), (3,), (3, 3, 2)),
    ("cdYa,Yba,ba->Yabc", (2, 1, 2, 3), (2, 3, 3), (3, 3)),
    ("ea,decX,b,Xdc->Xbacd", (3, 4), (2, 3, 2, 2), (4,), (2, 2, 2)),
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


UNSAFE_SPLITS = [
    ("unsafe_split", lambda x: x.unsafe_split(3, 1)),
    ("unsafe_split_with_sizes", lambda x: x.unsafe_split_with_sizes([1, 4], 1)),
    ("unsafe_chunk", lambda x: x.unsafe_chunk(2, 1)),
    ("unsafe_split of a transpose", lambda x: x.t().unsafe_split(2, 0)),
]


@pytest.mark.parametrize("name, fn", UNSAFE_SPLITS, ids=[c[0] for c in UNSAFE_SPLITS])
def test_unsafe_split_parts_lie_in_the_input(name, fn):
    # torch's unsafe_split parts are no views (no base, their own version) but lie in the
    # input's memory with its strides: .view(-1) of a column block raises, a write reaches x
    found = []
    for lib in (numtorch, torch):
        x = lib.arange(10.0).reshape(2, 5) * 1
        parts = fn(x)
        layout = [(p.stride(), p.storage_offset(), p._is_view()) for p in parts]
        try:
            parts[-1].view(-1)
            flattened = "viewed"
        except RuntimeError:
            flattened = "raised"
        parts[-1].mul_(-1)
        found.append((layout, flattened, x.tolist(), x._version, parts[-1]._version))
    assert found[0] == found[1]


def _layouts(lib):
    a = lib.arange(24.0).reshape(2, 3, 4)
    return {
        "expanded first": a[:1].expand(2, 3, 4),
        "expanded middle": a[:, :1].expand(2, 3, 4),
        "expanded two": a[:1, :1].expand(2, 3, 4),
        "expanded, permuted": a[:1].expand(2, 3, 4).permute(2, 0, 1),
        "permuted": a.permute(1, 2, 0),
        "sliced": lib.arange(48.0).reshape(2, 3, 8)[..., ::2],
        "sliced, transposed": lib.arange(48.0).reshape(2, 3, 8)[..., ::2].transpose(0, 2),
    }


PRESERVING = [
    ("clone", lambda lib, x: x.clone()),
    ("erfc", lambda lib, x: lib.special.erfc(x)),
    ("erf of float64", lambda lib, x: lib.erf(x.double())),
    ("empty_like", lambda lib, x: lib.empty_like(x)),
    ("zeros_like", lambda lib, x: lib.zeros_like(x)),
    ("ones_like", lambda lib, x: lib.ones_like(x, dtype=lib.float64)),
    ("full_like", lambda lib, x: lib.full_like(x, 2.0)),
]


@pytest.mark.parametrize("name, fn", PRESERVING, ids=[c[0] for c in PRESERVING])
@pytest.mark.parametrize("layout", list(_layouts(torch)))
def test_preserved_layout_matches_torch(name, fn, layout):
    # torch keeps a dense input's strides and gives any other dense strides in its memory
    # order, stride-0 dims left in place (NumPy's order="K" sorts them innermost)
    found = []
    for lib in (numtorch, torch):
        y = fn(lib, _layouts(lib)[layout])
        found.append(tuple(s for s, n in zip(y.stride(), y.shape) if n > 1))
    assert found[0] == found[1]


def test_clone_of_an_expanded_tensor_flattens_as_in_torch():
    for lib in (numtorch, torch):
        y = lib.arange(3.0).expand(2, 3).clone()
        assert y.view(-1).tolist() == [0.0, 1.0, 2.0] * 2


@pytest.mark.parametrize("name", ["pixel_shuffle", "pixel_unshuffle"])
def test_pixel_shuffles_of_an_expanded_input_are_new_contiguous_tensors(name):
    found = []
    for lib in (numtorch, torch):
        x = lib.tensor(3.0).expand(1, 8, 4, 2)
        y = getattr(lib.nn.functional, name)(x, 2)
        found.append((y.stride(), y.exp_().sum().item()))  # writable: no overlap left
    assert found[0] == found[1]


JOINS = [
    ("cat of a transpose", lambda lib, a, b: lib.cat([a, b], 0)),
    ("cat of expanded", lambda lib, a, b: lib.cat([b, b], 1)),
    ("stack", lambda lib, a, b: lib.stack([a, a])),
    ("hstack", lambda lib, a, b: lib.hstack([a, b])),
    ("dstack", lambda lib, a, b: lib.dstack([a, a])),
]


@pytest.mark.parametrize("name, fn", JOINS, ids=[c[0] for c in JOINS])
def test_joined_tensors_are_row_major_as_in_torch(name, fn):
    found = []
    for lib in (numtorch, torch):
        a, b = lib.arange(6.0).reshape(3, 2).t(), lib.arange(3.0).expand(2, 3)
        found.append(fn(lib, a, b).stride())
    assert found[0] == found[1]


def test_like_factories_honour_contiguous_format():
    for lib in (numtorch, torch):
        x = lib.ones(2, 3).t()
        assert lib.zeros_like(x).stride() == (1, 3)
        assert lib.zeros_like(x, memory_format=lib.contiguous_format).stride() == (2, 1)


ROLLS = [
    ("roll of a transpose", lambda lib, a, b: a.roll(1, 0)),
    ("roll over two dims", lambda lib, a, b: a.roll((1, 1), (0, 1))),
    ("roll of expanded", lambda lib, a, b: b.roll(1, 1)),
    ("fftshift", lambda lib, a, b: lib.fft.fftshift(a)),
]


@pytest.mark.parametrize("name, fn", ROLLS, ids=[c[0] for c in ROLLS])
def test_rolled_tensors_are_row_major_as_in_torch(name, fn):
    found = []
    for lib in (numtorch, torch):
        a, b = lib.arange(12.0).reshape(4, 3).t(), lib.arange(3.0).expand(2, 3)
        found.append(fn(lib, a, b).stride())
    assert found[0] == found[1]


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_weight_norm_of_a_transpose_is_row_major(dim):
    # torch's _weight_norm starts with v.contiguous(), g.contiguous()
    found = []
    for lib in (numtorch, torch):
        v = lib.arange(1.0, 7.0).reshape(2, 3).t()
        g = lib.tensor(2.0) if dim == -1 else lib.ones(*((3, 1) if dim == 0 else (1, 2)))
        found.append(lib._weight_norm(v, g, dim).stride())
    assert found[0] == found[1]


@pytest.mark.parametrize(
    "make",
    [lambda lib: lib.arange(6.0).reshape(2, 3).t(), lambda lib: lib.arange(3.0).expand(2, 3)],
)
def test_take_along_dim_without_dim_flattens_by_view(make):
    # torch runs self.view(-1).gather(0, indices.view(-1)): a layout view(-1) refuses raises
    for lib in (numtorch, torch):
        with pytest.raises(RuntimeError, match="view size is not compatible"):
            lib.take_along_dim(make(lib), lib.tensor([0, 4]))


def test_nonzero_layout_and_tuple_offsets_match_torch():
    # torch's (n, ndim) result is the transpose of an (ndim, n) block; where(x) gives its rows
    found = []
    for lib in (numtorch, torch):
        x = lib.tensor([[1.0, 0.0, 2.0], [0.0, 3.0, 4.0]])
        parts = lib.where(x)
        found.append(
            (
                x.nonzero().stride(),
                lib.argwhere(x).stride(),
                [(p.stride(), p.storage_offset(), p.tolist()) for p in parts],
                tuple(lib.nonzero(lib.tensor(3.0)).shape),
            )
        )
    assert found[0] == found[1]


def _empty_complex_backward(lib):
    x = lib.ones(2, 0, requires_grad=True)
    y = lib.tensor(1.0, requires_grad=True)
    z = lib.view_as_real(lib.complex(x, y))
    (z * 2).sum().backward()  # view_as_real's backward views the gradient as complex
    return tuple(x.grad.shape), tuple(y.grad.shape)


def test_view_as_real_backward_of_an_empty_result():
    assert _empty_complex_backward(numtorch) == _empty_complex_backward(torch)


@pytest.mark.parametrize("axis", [0, 1])
def test_view_as_complex_of_an_empty_array_refuses_its_zero_strides(axis):
    # torch.tensor() keeps NumPy's zero strides of an empty array: view_as_complex refuses
    array = np.take(np.ones((2, 2, 2)), [], axis=axis)
    for lib in (numtorch, torch):
        with pytest.raises(RuntimeError, match="last dimension with stride 1"):
            lib.view_as_complex(lib.tensor(array, dtype=lib.float32))


def test_roll_of_a_0d_tensor_stays_0d():
    assert numtorch.tensor(3.0).roll(1).shape == torch.tensor(3.0).roll(1).shape == ()


REDUCTIONS = [
    ("sum", lambda x: x.sum(1)),
    ("sum, keepdim", lambda x: x.sum(1, keepdim=True)),
    ("mean", lambda x: x.mean(1)),
    ("nansum", lambda x: x.nansum(1)),
    ("prod", lambda x: x.prod(1)),
    ("logsumexp", lambda x: x.logsumexp(1)),
    ("cumsum", lambda x: x.cumsum(1)),
    ("sum of all", lambda x: x.sum()),
    ("amax", lambda x: x.amax(1)),
    ("amin, keepdim", lambda x: x.amin(1, keepdim=True)),
    ("var", lambda x: x.var(1)),
    ("std", lambda x: x.std(1)),
    ("softmax", lambda x: x.softmax(1)),
    ("log_softmax", lambda x: x.log_softmax(1)),
]


@pytest.mark.parametrize("name, fn", REDUCTIONS, ids=[c[0] for c in REDUCTIONS])
@pytest.mark.parametrize("order", [(2, 1, 0), (1, 2, 0), (1, 0, 2)])
def test_reductions_are_row_major_as_in_torch(name, fn, order):
    found = []
    for lib in (numtorch, torch):
        y = fn(lib.arange(24.0).reshape(2, 3, 4).permute(*order))
        found.append(tuple(s for s, n in zip(y.stride(), y.shape) if n > 1))  # (as views see)


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


ROT90_INPUTS = {
    "expanded row": lambda lib: lib.arange(3.0).expand(2, 3),
    "expanded column": lambda lib: lib.arange(3.0).reshape(3, 1).expand(3, 4),
    "sliced": lambda lib: lib.arange(12.0).reshape(4, 3)[::2],
    "transposed": lambda lib: lib.arange(12.0).reshape(4, 3).t(),
    "expanded 3-d": lambda lib: lib.arange(6.0).reshape(2, 1, 3).expand(2, 4, 3).transpose(0, 2),
}


@pytest.mark.parametrize("k", [0, 1, 2, 3])
@pytest.mark.parametrize("name", list(ROT90_INPUTS))
def test_rot90_lays_its_copy_out_like_torchs_empty_like(name, k):
    # an expanded input's flipped copy is dense in C order (NumPy's order="K" put the
    # broadcast dim innermost), so ``.view(-1)`` of the result fails or works as in torch
    layouts = []
    for lib in (numtorch, torch):
        y = lib.rot90(ROT90_INPUTS[name](lib), k)
        layouts.append((tuple(y.shape), tuple(y.stride()), y.tolist()))
    assert layouts[0] == layouts[1]


INDEX_PUT_INPUTS = {
    "transposed": lambda lib: lib.arange(6.0).reshape(2, 3).t(),
    "expanded": lambda lib: lib.arange(3.0).expand(2, 3),
    "sliced": lambda lib: lib.arange(12.0).reshape(3, 4)[:, ::2],
    "permuted": lambda lib: lib.arange(24.0).reshape(2, 3, 4).permute(2, 0, 1),
}


@pytest.mark.parametrize("accumulate", [False, True])
@pytest.mark.parametrize("name", list(INDEX_PUT_INPUTS))
def test_index_put_keeps_the_inputs_layout(name, accumulate):
    # torch writes into clone(): a transposed input gives a transposed result, whose
    # ``.view(-1)`` fails as torch's does
    layouts = []
    for lib in (numtorch, torch):
        x = INDEX_PUT_INPUTS[name](lib)
        y = lib.index_put(x, (lib.tensor([0, 1]),), lib.tensor(1.0), accumulate=accumulate)
        layouts.append((tuple(y.stride()), y.tolist()))
    assert layouts[0] == layouts[1]


def _kron_operand(lib, kind):
    return {
        "contiguous": lambda: lib.arange(6.0).reshape(2, 3),
        "transposed": lambda: lib.arange(6.0).reshape(3, 2).t(),
        "expanded": lambda: lib.tensor(2.0).expand(2, 3),
        "strided": lambda: lib.arange(12.0).reshape(2, 6)[:, ::2],
        "vector": lambda: lib.arange(3.0),
        "scalar": lambda: lib.tensor(3.0),
    }[kind]()


KINDS = ["contiguous", "transposed", "expanded", "strided", "vector", "scalar"]


@pytest.mark.parametrize("a", KINDS)
@pytest.mark.parametrize("b", KINDS)
def test_kron_views_its_product_or_raises_like_torch(a, b):
    # torch views the elementwise product in the layout its kernel gave it (the operands'
    # memory order): a transposed operand makes that view impossible
    def run(lib):
        try:
            return lib.kron(_kron_operand(lib, a), _kron_operand(lib, b)).numpy().tolist()
        except RuntimeError as error:
            return str(error)

    assert run(numtorch) == run(torch)


@pytest.mark.parametrize("n", [0, 1])
def test_matrix_power_zero_and_one_are_row_major_as_torch(n):
    # torch clones into a row-major tensor; numtorch's clone kept a column-major input's
    # layout, so a later .view() worked only in numtorch
    torch = pytest.importorskip("torch")

    def run(lib):
        column_major = lib.eye(3).mT.contiguous().mT.requires_grad_()
        out = lib.linalg.matrix_power(column_major * 1, n)
        return out.stride(), out.grad_fn.name()

    assert run(numtorch) == run(torch)


VIEWS_WITH_UNIT_DIMS = {
    "unsqueeze-last": lambda x: x.transpose(0, 2).unsqueeze(-1),
    "unsqueeze-inner": lambda x: x.transpose(0, 2).unsqueeze(1),
    "view-trailing-one": lambda x: x.transpose(0, 2).view(4, 3, 2, 1),
    "view-heads": lambda x: x.reshape(2, 12, 1).transpose(0, 1).view(3, 4, 2, 1),
    "view-ones-between": lambda x: x.transpose(0, 2).view(1, 4, 1, 3, 2, 1),
    "reshape-alias": lambda x: x[:, :, 1:2].transpose(1, 2).reshape(2, 1, 3),
    "reshape-alias-one-inside": lambda x: x.transpose(0, 2).reshape(4, 3, 1, 2),
}


@pytest.mark.parametrize("name", sorted(VIEWS_WITH_UNIT_DIMS))
def test_views_of_a_strided_tensor_give_size_1_dims_torchs_strides(name):
    # Note [Strides of size-1 dims]: NumPy picks its own stride there
    strides = []
    for lib in (numtorch, torch):
        x = lib.arange(24.0).reshape(2, 3, 4)
        strides.append(VIEWS_WITH_UNIT_DIMS[name](x).stride())
    assert strides[0] == strides[1]


def test_attention_heads_of_size_1_take_the_fused_kernel_as_in_torch():
    # multi_head_attention_forward's head views have torch's last stride 1, so the fused
    # kernel runs, whose gradient has no derivative of its own
    names = []
    for lib in (numtorch, torch):
        lib.manual_seed(0)
        attention = lib.nn.MultiheadAttention(2, 2, bias=False, kdim=3, vdim=2, dtype=lib.float64)
        query = lib.randn(1, 2, 2, dtype=lib.float64)
        key = lib.randn(2, 2, 3, dtype=lib.float64)
        value = lib.randn(2, 2, 2, dtype=lib.float64)
        out, _ = attention(query, key, value, need_weights=False)
        node = out.grad_fn
        while node.next_functions and "Attention" not in type(node).__name__:
            node = node.next_functions[0][0]
        names.append(type(node).__name__)
    assert names[0] == names[1] == "ScaledDotProductFlashAttentionForCpuBackward0"
