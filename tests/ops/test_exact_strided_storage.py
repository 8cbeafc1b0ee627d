"""as_strided reads a tensor's storage as torch does: the storage of an expanded tensor is
the one it was expanded from, that of a ``view_as_real`` is counted in real elements, and
``as_strided_scatter``'s gradient of ``src`` takes its region of a dense gradient."""

import pytest

import numtorch

torch = pytest.importorskip("torch")


def _outcome(fn):
    try:
        return fn().tolist()
    except RuntimeError:
        return "raised"


CASES = [
    ("view_as_real", lambda lib: lib.view_as_real(lib.ones(2, 3, dtype=lib.complex64) * 2)
     .reshape(-1)[:6].as_strided((3, 3), (1, 1), 2)),
    ("view_as_real, past the end", lambda lib: lib.view_as_real(lib.ones(3, dtype=lib.complex64))
     .as_strided((7,), (1,))),
    ("view_as_complex", lambda lib: lib.view_as_complex(lib.arange(12.0).reshape(6, 2))[1:]
     .as_strided((2,), (1,), 4)),
    ("expanded", lambda lib: lib.arange(6.0).reshape(2, 3)[0].expand(2, 3)
     .as_strided((3,), (1,), 3)),
    ("expanded 0-d", lambda lib: lib.tensor(2.0).expand(3, 4).as_strided((2,), (1,))),
    ("soft margin loss of one", lambda lib: lib.nn.functional.soft_margin_loss(
        lib.ones(1, dtype=lib.float64), lib.ones(1, dtype=lib.float64), reduction="sum")
     .as_strided((2,), (1,))),
]  # fmt: skip


@pytest.mark.parametrize("name, fn", CASES, ids=[c[0] for c in CASES])
def test_as_strided_storage_matches_torch(name, fn):
    assert _outcome(lambda: fn(numtorch)) == _outcome(lambda: fn(torch))


@pytest.mark.parametrize("reduction", ["mean", "sum"])
def test_reduced_soft_margin_loss_keeps_the_losses_in_its_storage_as_torch(reduction):
    # torch writes the elementwise losses into its output, resizes it to 0-d over the same
    # storage and copies the reduction into element 0: as_strided reads the losses behind it
    def read(lib):
        x = lib.linspace(-2, 2, 12, dtype=lib.float64)
        loss = lib.nn.functional.soft_margin_loss(
            x, lib.ones(12, dtype=lib.float64), reduction=reduction
        )
        return loss.expand(2, 3).as_strided((2, 6), (6, 1)).flatten().tolist()

    assert read(numtorch) == pytest.approx(read(torch), rel=1e-15)


def _scatter_grads(lib):
    x = lib.arange(6.0, dtype=lib.float64).requires_grad_()
    src = lib.ones(2, 2, dtype=lib.float64, requires_grad=True)
    y = lib.as_strided_scatter(x * 1, src * 3, (2, 2), (1, 2), 1)
    gx, gs = lib.autograd.grad(y.sum(), (x, src), create_graph=True)  # expanded gradients
    (g2,) = lib.autograd.grad((gs * src).sum(), src)
    return gx.tolist(), gs.tolist(), g2.tolist()


def test_as_strided_scatter_gradient_of_an_expanded_gradient():
    assert _scatter_grads(numtorch) == _scatter_grads(torch)


EXPANDED_INPUTS = [
    ("expand", lambda x: x.expand(2, 3)),
    ("unsqueeze, expand", lambda x: x.unsqueeze(1).expand(3, 2)),
    ("plain", lambda x: x),
]
VIEWS = [
    ("as_strided", lambda lib, e: e.as_strided((2, 2), (1, 1), 0)),
    ("as_strided_copy", lambda lib, e: lib.as_strided_copy(e, (3,), (1,), 0)),
    ("stride 0", lambda lib, e: e.as_strided((2,), (0,), 1)),
]


@pytest.mark.parametrize(
    "make", [c[1] for c in EXPANDED_INPUTS], ids=[c[0] for c in EXPANDED_INPUTS]
)
@pytest.mark.parametrize("view", [c[1] for c in VIEWS], ids=[c[0] for c in VIEWS])
def test_as_strided_gradient_of_an_expanded_input(make, view):
    # torch divides each storage element's gradient by the number of times the (overlapping)
    # input shows it: the expand's backward then adds the copies up to it once
    found = []
    for lib in (numtorch, torch):
        x = lib.tensor([1.0, 2.0, 3.0], dtype=lib.float64, requires_grad=True)
        y = view(lib, make(x * 1))
        w = lib.arange(1.0, y.numel() + 1, dtype=lib.float64).reshape(y.shape)
        found.append(lib.autograd.grad((y * w).sum(), x)[0].tolist())
    assert found[0] == found[1]


def _scatter_cases(lib):
    base = lib.arange(30.0)
    src = lib.tensor([[-1.0, -2.0], [-3.0, -4.0]])
    inputs = {
        "offset 1": (base[1:13].reshape(3, 4), (1, 2), 1),
        "offset 0 before the input": (base[1:13].reshape(3, 4), (1, 2), 0),
        "default offset": (base[1:13].reshape(3, 4), (1, 2), None),
        "transposed": (base[:12].reshape(3, 4).t(), (1, 2), 3),
        "expanded": (base[:4].expand(3, 4), (1, 2), 1),
        "sliced, past the input's end": (base.reshape(5, 6)[1:, 2:], (6, 1), 20),
    }
    for name, (x, stride, offset) in inputs.items():
        args = ((2, 2), stride) if offset is None else ((2, 2), stride, offset)
        out = lib.as_strided_scatter(x, src, *args)
        yield name, (out.tolist(), out.stride(), out.storage_offset())


def test_as_strided_scatter_counts_the_offset_in_the_input_storage():
    # torch clones the input with its strides and offset (its whole storage) and writes into
    # as_strided of that clone: an offset before the input's first element writes nothing
    # it shows, and the result keeps the input's layout
    ours = dict(_scatter_cases(numtorch))
    assert ours["offset 1"][0][0] == [-1.0, -3.0, -2.0, -4.0]
    assert ours == dict(_scatter_cases(torch))
