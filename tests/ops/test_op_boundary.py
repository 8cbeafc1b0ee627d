"""The boundary of numtorch's functions: torch's error types instead of NumPy's or Python's
(huge allocations, out-of-range scatter indices, non-tensor arguments, malformed dims and
repeats, unknown norm types), and torch's ``out=`` argument."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest

import numtorch as torch
import numtorch.nn as nn

HUGE = (10**7, 10**7)  # 400 TB of float32


@pytest.mark.parametrize(
    "make",
    [
        lambda: torch.zeros(*HUGE),
        lambda: torch.ones(HUGE),
        lambda: torch.empty(2**62),
        lambda: torch.full(HUGE, 1.0),
        lambda: torch.randn(*HUGE),
        lambda: torch.arange(10**15),
        lambda: torch.ones(10**6, 1) + torch.ones(1, 10**7),
        lambda: torch.ones(10**5).repeat(10**7),
    ],
    ids=["zeros", "ones", "empty", "full", "randn", "arange", "broadcast_add", "repeat"],
)
def test_a_huge_allocation_raises_runtime_error(make):
    with pytest.raises(RuntimeError, match="can't allocate memory"):
        make()


@pytest.mark.parametrize("index", [5, -1])
@pytest.mark.parametrize(
    "op",
    [
        lambda x, i: x.scatter(0, i, torch.ones(1)),
        lambda x, i: x.scatter(0, i, 1.0),
        lambda x, i: x.scatter_(0, i, 1.0),
        lambda x, i: x.scatter_add(0, i, torch.ones(1)),
        lambda x, i: x.scatter_reduce(0, i, torch.ones(1), "sum"),
    ],
    ids=["scatter", "scatter_value", "scatter_", "scatter_add", "scatter_reduce"],
)
def test_scatter_out_of_range_index_raises_runtime_error(op, index):
    # a negative index is out of range too (NumPy would wrap it around)
    with pytest.raises(RuntimeError, match=f"index {index} is out of bounds for dimension 0"):
        op(torch.zeros(3), torch.tensor([index]))


@pytest.mark.parametrize(
    "call, argument",
    [
        (lambda: torch.exp(None), "'input' (position 1)"),
        (lambda: torch.sum(None), "'input' (position 1)"),
        (lambda: torch.matmul(torch.ones(2), None), "'other' (position 2)"),
        (lambda: torch.exp(object()), "'input' (position 1)"),
        # a number or a dtype where the function failed on it: torch's parser wants a tensor
        (lambda: torch.argmin(True), "'input' (position 1)"),
        (lambda: torch.amax(torch.float32), "'input' (position 1)"),
        (lambda: torch.logsumexp(torch.float32, 0), "'input' (position 1)"),
        (lambda: torch.msort(False), "'input' (position 1)"),
    ],
    ids=["exp", "sum", "matmul", "object", "bool", "dtype", "dtype_with_dim", "msort"],
)
def test_a_non_tensor_argument_raises_type_error(call, argument):
    with pytest.raises(TypeError, match=re.escape(f"argument {argument} must be Tensor")):
        call()


def test_the_argument_types_are_checked_before_an_ops_own_dtype_check():
    # torch's parser runs first; its message names the NumPy scalar's type
    with pytest.raises(TypeError, match=re.escape("must be Tensor, not numpy.float64")):
        torch.frac(np.float64(1.5))


@pytest.mark.parametrize("dim", ["a", 1.5, ["a"]])
def test_a_malformed_dim_raises_type_error(dim):
    with pytest.raises(TypeError, match="invalid combination of arguments"):
        torch.ones(2).sum(dim=dim)
    with pytest.raises(TypeError, match="invalid combination of arguments"):
        torch.ones(2).mean(dim=dim)


def test_a_negative_repeat_raises_runtime_error():
    with pytest.raises(RuntimeError, match=r"negative dimension -2: \[-2\]"):
        torch.ones(2).repeat(-1)
    with pytest.raises(RuntimeError, match=r"negative dimension -2: \[2, -2\]"):
        torch.ones(2).repeat(2, -1)


def test_clip_grad_norm_refuses_an_unknown_norm_type():
    p = nn.Parameter(torch.ones(2))
    with pytest.raises(ValueError, match="could not convert string to float"):
        nn.utils.clip_grad_norm_([p], 1.0, norm_type="foo")
    p.grad = torch.ones(2)
    with pytest.raises(ValueError, match="could not convert string to float"):
        nn.utils.clip_grad_norm_([p], 1.0, norm_type="foo")
    assert nn.utils.clip_grad_norm_([p], 1.0, norm_type="inf").item() == 1.0


# -- out= --------------------------------------------------------------------------------------
def test_out_receives_the_result_and_is_returned():
    out = torch.empty(2)
    version = out._version
    assert torch.exp(torch.zeros(2), out=out) is out
    np.testing.assert_array_equal(out.numpy(), [1.0, 1.0])
    assert out._version > version
    assert torch.matmul(torch.ones(2, 3), torch.ones(3, 4), out=torch.empty(2, 4)).sum() == 24
    assert torch.zeros(2, out=torch.ones(2)).tolist() == [0.0, 0.0]
    assert torch.exp(torch.zeros(2), out=None).tolist() == [1.0, 1.0]


def test_out_is_resized_with_torch_warning_unless_empty():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert torch.add(torch.ones(2), 1, out=torch.empty(0)).shape == (2,)
    with pytest.warns(UserWarning, match="was resized since it had shape \\[3\\]"):
        out = torch.add(torch.ones(2), 1, out=torch.empty(3))
    assert out.tolist() == [2.0, 2.0]


def test_out_dtype_follows_torch_casting_rules():
    assert torch.add(torch.ones(2), 1, out=torch.empty(2, dtype=torch.float64)).dtype == (
        torch.float64
    )
    assert torch.mul(torch.ones(2, dtype=torch.int64), 2, out=torch.empty(2)).tolist() == [2, 2]
    with pytest.raises(RuntimeError, match="Float can't be cast to the desired output type Long"):
        torch.add(torch.ones(2), 1, out=torch.empty(2, dtype=torch.int64))


def test_out_refuses_autograd():
    message = "functions with out=... arguments don't support automatic differentiation"
    with pytest.raises(RuntimeError, match=message):
        torch.add(torch.ones(2, requires_grad=True), 1, out=torch.empty(2))
    with pytest.raises(RuntimeError, match=message):
        torch.add(torch.ones(2), 1, out=torch.empty(2, requires_grad=True))
    with torch.no_grad():  # torch allows both without grad mode
        torch.add(torch.ones(2, requires_grad=True), 1, out=torch.empty(2))


def test_out_in_the_linalg_special_fft_and_functional_namespaces():
    matrix = torch.tensor([[2.0, 1.0], [1.0, 3.0]])
    out = torch.empty(())
    assert torch.linalg.det(matrix, out=out) is out and out.item() == pytest.approx(5.0)
    out = torch.empty(2)
    assert torch.special.erfcx(torch.zeros(2), out=out) is out and out.tolist() == [1.0, 1.0]
    out = torch.empty(2, dtype=torch.complex64)
    assert torch.fft.fft(torch.ones(2), out=out) is out and out.tolist() == [2, 0]
    out = torch.empty(2)
    assert torch.nn.functional.softplus(torch.zeros(2), out=out) is out
    with pytest.raises(RuntimeError, match="out=... arguments don't support automatic"):
        torch.linalg.inv(matrix.requires_grad_(), out=torch.empty(2, 2))


def test_out_of_an_op_keeping_its_dtype_must_have_that_dtype():
    # torch's abs, neg, floor, sign check their out; the promoting ops (add, sin) cast
    with pytest.raises(RuntimeError, match="Found dtype Float but expected Double"):
        torch.abs(torch.ones(2, dtype=torch.float64), out=torch.empty(2))
    assert torch.sin(torch.zeros(2, dtype=torch.float64), out=torch.empty(2)).dtype == (
        torch.float32
    )
    assert torch.logical_not(torch.zeros(2), out=torch.empty(2)).tolist() == [1.0, 1.0]


def test_out_of_a_kernel_checking_its_dtype_must_have_that_dtype():
    # torch's products, linear algebra, sorting and view copies check; cat raises TypeError
    doubles = torch.ones(2, 2, dtype=torch.float64)
    with pytest.raises(RuntimeError, match="Found dtype Float but expected Double"):
        torch.mm(doubles, doubles, out=torch.empty(2, 2))
    with pytest.raises(RuntimeError, match="Found dtype Float but expected Double"):
        torch.linalg.inv(doubles + torch.eye(2, dtype=torch.float64), out=torch.empty(2, 2))
    with pytest.raises(RuntimeError, match="Found dtype Float but expected Double"):
        torch.sort(doubles, out=(torch.empty(2, 2), torch.empty(2, 2, dtype=torch.int64)))
    with pytest.raises(TypeError, match="input types can't be cast to the desired output type"):
        torch.stack([torch.ones(2)], out=torch.empty(1, 2, dtype=torch.int64))
    assert torch.cat([doubles], out=torch.empty(2, 2)).dtype == torch.float32  # cat casts


def test_a_factory_makes_the_dtype_of_its_out():
    assert torch.ones(2, out=torch.empty(2, dtype=torch.int64)).tolist() == [1, 1]
    assert torch.linspace(0, 1, 3, out=torch.empty(3, dtype=torch.int64)).tolist() == [0, 0, 1]
    torch.manual_seed(0)
    expected = torch.randn(3, dtype=torch.float64)
    torch.manual_seed(0)
    assert torch.randn(3, out=torch.empty(3, dtype=torch.float64)).tolist() == expected.tolist()
    with pytest.raises(RuntimeError, match="dtype Double does not match dtype of out parameter"):
        torch.zeros(2, dtype=torch.float64, out=torch.empty(2))


def test_sums_and_products_run_in_the_dtype_of_their_out():
    x = torch.tensor([[0.6, 0.6]], dtype=torch.float64)
    assert torch.sum(x, 1, out=torch.empty(1, dtype=torch.int64)).tolist() == [0]  # of longs
    assert torch.cumsum(x, 1, out=torch.empty(0)).dtype == torch.float32
    with pytest.raises(RuntimeError, match="Expected out tensor to have dtype Double"):
        torch.sum(x, 1, dtype=torch.float64, out=torch.empty(1))


def test_values_and_indices_out_must_have_the_results_dtypes():
    x = torch.ones(2, 2, dtype=torch.float64)
    with pytest.raises(RuntimeError, match="Found dtype Float but expected Double"):
        torch.max(x, 1, out=(torch.empty(2), torch.empty(2, dtype=torch.int64)))
    assert torch.max(x, x, out=torch.empty(2, 2)).dtype == torch.float32  # max(a, b) casts


def test_out_of_a_list_of_tensors_is_written_and_nothing_returned():
    parts = torch.empty(2), torch.empty(2)
    assert torch.split_copy(torch.arange(4.0), 2, out=parts) is None
    assert parts[1].tolist() == [2.0, 3.0]


def test_factories_resize_their_out_without_a_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert torch.eye(2, out=torch.empty(7)).shape == (2, 2)
        assert torch.ones(3, out=torch.empty(7)).shape == (3,)
    with pytest.warns(UserWarning, match="was resized"):
        torch.arange(3.0, out=torch.empty(7))  # torch's arange warns


def test_out_with_several_outputs_and_wrong_types():
    values, indices = torch.empty(2), torch.empty(2, dtype=torch.int64)
    result = torch.max(torch.tensor([[1.0, 3.0], [4.0, 2.0]]), 1, out=(values, indices))
    assert result.values is values and result.indices is indices
    assert values.tolist() == [3.0, 4.0] and indices.tolist() == [1, 0]
    with pytest.raises(TypeError, match="argument 'out' must be Tensor, not list"):
        torch.exp(torch.ones(2), out=[1])
