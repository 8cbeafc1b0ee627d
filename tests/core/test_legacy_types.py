"""Legacy typed constructors (torch.FloatTensor, ...) and Tensor.type(), against torch."""

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")

NAMES = [
    "FloatTensor", "DoubleTensor", "HalfTensor", "BFloat16Tensor", "LongTensor", "IntTensor",
    "ShortTensor", "CharTensor", "ByteTensor", "BoolTensor",
]  # fmt: skip


def _outcome(lib, fn):
    try:
        value = fn(lib)
    except Exception as e:  # the type is what gets compared
        return ("raised", type(e).__name__)
    if isinstance(value, lib.Tensor):
        return (tuple(value.shape), str(value.dtype), value.float().tolist())
    if isinstance(value, (lib.dtype, lib.Size)):
        return str(value)
    return value


def _same(fn):
    assert _outcome(numtorch, fn) == _outcome(torch, fn)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize(
    "make",
    [
        lambda T, lib: T([1, 0, 2]),
        lambda T, lib: T([[1.7, 2.2], [3.0, 4.5]]),
        lambda T, lib: T(np.array([1, 2])),
        lambda T, lib: T((2, 3)),
        lambda T, lib: T(),
        lambda T, lib: T(2, 3).shape,
        lambda T, lib: T(lib.Size([2, 1])).shape,
        lambda T, lib: T(0),
    ],
)
def test_constructor_from_data_and_sizes(name, make):
    _same(lambda lib: make(getattr(lib, name), lib))


@pytest.mark.parametrize(
    "make",
    [
        lambda lib: lib.FloatTensor([1], requires_grad=True),
        lambda lib: lib.FloatTensor(2, dtype=lib.float64),
        lambda lib: lib.FloatTensor("a"),
        lambda lib: lib.FloatTensor(2.5),
        lambda lib: lib.FloatTensor(-1),
        lambda lib: lib.FloatTensor(lib.tensor([1, 2])),
        lambda lib: lib.LongTensor([[1, 2], [3]]),
        lambda lib: lib.Tensor(-1),
        lambda lib: lib.Tensor(lib.Size([2])).shape,
        lambda lib: lib.Tensor(),
        lambda lib: lib.Tensor([1, 2]),
        lambda lib: lib.Tensor(2, 3).shape,
        lambda lib: lib.cuda.FloatTensor([1.0]),
    ],
)
def test_constructor_errors_and_torch_Tensor_forms(make):
    _same(make)


def test_tensor_argument_of_the_same_dtype_shares_memory():
    x = numtorch.tensor([1.0, 2.0])
    y = numtorch.FloatTensor(x)
    y[0] = 5.0
    assert x.tolist() == [5.0, 2.0]


@pytest.mark.parametrize(
    "make",
    [
        lambda lib: lib.tensor([1.0]).type(),
        lambda lib: lib.tensor([1]).type(),
        lambda lib: lib.tensor([True]).type(),
        lambda lib: lib.tensor([1.5], dtype=lib.bfloat16).type(),
        lambda lib: lib.tensor([1.7]).type(lib.LongTensor),
        lambda lib: lib.tensor([1]).type("torch.DoubleTensor"),
        lambda lib: lib.tensor([1]).type(lib.float16),
        lambda lib: lib.tensor([1]).type(dtype=lib.int32),
        lambda lib: lib.tensor([1.0]).type(lib.BFloat16Tensor),
        lambda lib: lib.tensor([1]).type("foo"),
        lambda lib: lib.tensor([1]).type(int),
        lambda lib: lib.tensor([1]).type(lib.cuda.FloatTensor),
        lambda lib: lib.tensor([1]).type("torch.cuda.FloatTensor"),
        lambda lib: lib.nn.Linear(2, 2).type(lib.DoubleTensor).weight.dtype,
    ],
)
def test_type(make):
    _same(make)


def test_type_keeps_the_graph():
    for lib in (numtorch, torch):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x.type(lib.DoubleTensor)
        assert type(y.grad_fn).__name__ == "ToCopyBackward0"
        assert x.type(lib.FloatTensor) is x


@pytest.mark.parametrize("name", NAMES)
def test_isinstance_compares_dtypes(name):
    for lib in (numtorch, torch):
        T = getattr(lib, name)
        x = T([1])
        assert isinstance(x, T)
        assert isinstance(x, lib.Tensor)
        assert type(x) is lib.Tensor
        others = [n for n in NAMES if n != name]
        assert not any(isinstance(x, getattr(lib, n)) for n in others)
        assert not issubclass(T, lib.Tensor)
        assert T.dtype == getattr(lib, name)([]).dtype
        assert repr(T) == f"<class 'torch.{name}'>"
        assert not isinstance(x, getattr(lib.cuda, name))
