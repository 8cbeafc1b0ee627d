"""Bad input raises torch's exception type with a message naming the op and shapes; with
torch installed the types are also checked against it."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch

CASES = {
    "view_bad_size": (RuntimeError, lambda t: t.ones(2, 3).view(4), "invalid for input of size 6"),
    "view_non_contiguous": (RuntimeError, lambda t: t.ones(2, 3).t().view(6), "reshape"),
    "broadcast": (RuntimeError, lambda t: t.ones(2, 3) + t.ones(3, 2), "must match the size"),
    "mm_shapes": (RuntimeError, lambda t: t.ones(2, 3) @ t.ones(2, 3), "cannot be multiplied"),
    "mm_not_matrix": (RuntimeError, lambda t: t.ones(2, 3).mm(t.ones(2)), "matrix"),
    "mm_dtypes": (
        RuntimeError,
        lambda t: t.ones(2, 2).mm(t.ones(2, 2, dtype=t.float64)),
        "same dtype",
    ),
    "dim_out_of_range": (IndexError, lambda t: t.ones(2, 3).sum(2), "Dimension out of range"),
    "index_out_of_range": (IndexError, lambda t: t.ones(2, 3)[2], "out of bounds"),
    "advanced_index_out_of_range": (
        IndexError,
        lambda t: t.ones(3)[t.tensor([5])],
        "out of bounds",
    ),
    "cat_sizes": (RuntimeError, lambda t: t.cat([t.ones(2, 3), t.ones(3, 2)]), "Sizes of tensors"),
    "cat_empty": (ValueError, lambda t: t.cat([]), "non-empty"),
    "stack_empty": (RuntimeError, lambda t: t.stack([]), "non-empty"),
    "stack_sizes": (RuntimeError, lambda t: t.stack([t.ones(2), t.ones(3)]), "equal size"),
    "reshape_bad": (RuntimeError, lambda t: t.ones(2, 3).reshape(5), "invalid"),
    "infer_twice": (RuntimeError, lambda t: t.ones(2, 3).view(-1, -1), "only one dimension"),
    "permute_len": (RuntimeError, lambda t: t.ones(2, 3).permute(0), "number of dimensions"),
    "expand_bad": (RuntimeError, lambda t: t.ones(2, 3).expand(3, 3), "must match"),
    "squeeze_dim": (IndexError, lambda t: t.ones(2, 3).squeeze(3), "Dimension out of range"),
    "gather_float_index": (
        RuntimeError,
        lambda t: t.ones(2, 3).gather(0, t.ones(2, 3)),
        "int32/int64",
    ),
    "index_select_float": (
        RuntimeError,
        lambda t: t.ones(2, 3).index_select(0, t.tensor([0.0])),
        "int64",
    ),
    "ragged": (ValueError, lambda t: t.tensor([[1, 2], [3]]), "expected sequence"),
    "string": (TypeError, lambda t: t.tensor("abc"), "invalid data type"),
    "item_many": (RuntimeError, lambda t: t.ones(2).item(), "cannot be converted"),
    "split_zero": (RuntimeError, lambda t: t.ones(2, 3).split(0), "split_size"),
    "masked_fill_float_mask": (
        RuntimeError,
        lambda t: t.ones(2, 3).masked_fill(t.ones(2, 3), 0),
        "boolean masks",
    ),
    "dot_sizes": (RuntimeError, lambda t: t.dot(t.ones(2), t.ones(3)), "inconsistent"),
    "bmm_dims": (RuntimeError, lambda t: t.ones(2, 3).bmm(t.ones(2, 3)), "3D"),
    "int_requires_grad": (
        RuntimeError,
        lambda t: t.ones(2, 3).long().requires_grad_(),
        "floating point",
    ),
    "add_str": (TypeError, lambda t: t.ones(2) + "a", "unsupported operand"),
    "add_ndarray": (TypeError, lambda t: np.ones(2) * t.ones(2), "unsupported operand"),
    "dims_repeated": (RuntimeError, lambda t: t.ones(2, 3).sum(dim=(0, 0)), "multiple times"),
    "softmax_no_dim": (TypeError, lambda t: t.ones(2, 3).softmax(), "dim"),
    "mean_int": (RuntimeError, lambda t: t.tensor([1, 2]).mean(), "floating point"),
    "int_negative_pow": (RuntimeError, lambda t: t.tensor(3) ** -1, "negative integer powers"),
    "bool_sub": (RuntimeError, lambda t: t.tensor([True]) - t.tensor([True]), "bool tensor"),
    "bool_neg": (RuntimeError, lambda t: -t.tensor([True]), "bool tensor"),
    "leaf_inplace": (
        RuntimeError,
        lambda t: t.ones(2, requires_grad=True).add_(1),
        "leaf Variable that requires grad",
    ),
    "view_of_leaf_inplace": (
        RuntimeError,
        lambda t: t.ones(2, requires_grad=True)[0].mul_(2),
        "view of a leaf Variable",
    ),
    # as_strided with a stride of 0 shares memory between elements as expand does
    "as_strided_overlap_inplace": (
        RuntimeError,
        lambda t: t.ones(2).as_strided((2, 2), (0, 1)).add_(1),
        "more than one element of the written-to tensor",
    ),
    "as_strided_inplace_overlap_then_inplace": (
        RuntimeError,
        lambda t: t.ones(2).as_strided_((2, 2), (0, 1)).mul_(2),
        "more than one element of the written-to tensor",
    ),
    "setitem_leaf": (
        RuntimeError,
        lambda t: t.ones(2, requires_grad=True).__setitem__(0, 1.0),
        "view of a leaf Variable",
    ),
    "inplace_broadcast_up": (
        RuntimeError,
        lambda t: t.ones(3).add_(t.ones(2, 3)),
        "doesn't match the broadcast shape",
    ),
    "inplace_float_into_int": (
        RuntimeError,
        lambda t: t.ones(3, dtype=t.int64).add_(1.5),
        "can't be cast",
    ),
    "maximum_number": (TypeError, lambda t: t.maximum(t.ones(2), 1.0), "must be Tensor"),
    "exp_of_float": (TypeError, lambda t: t.exp(2.0), "must be Tensor"),
    "topk_too_big": (RuntimeError, lambda t: t.ones(3).topk(5), "out of range"),
    "unbind_0d": (IndexError, lambda t: t.tensor(1.0).unbind(), "no dimensions"),
    "chunk_zero": (RuntimeError, lambda t: t.ones(3).chunk(0), "greater than 0"),
    "t_3d": (RuntimeError, lambda t: t.ones(2, 2, 2).t(), "<= 2 dimensions"),
    "matmul_0d": (RuntimeError, lambda t: t.matmul(t.tensor(1.0), t.ones(2)), "at least 1D"),
    "clamp_no_bounds": (RuntimeError, lambda t: t.ones(2).clamp(), "At least one"),
    "backward_twice": (RuntimeError, lambda t: _backward_twice(t), "second time"),
    "backward_non_scalar": (
        RuntimeError,
        lambda t: (t.ones(2, requires_grad=True) * 2).backward(),
        "scalar outputs",
    ),
    "grad_unused": (RuntimeError, lambda t: _grad_unused(t), "not have been used"),
    "version_mismatch": (RuntimeError, lambda t: _modified_saved(t), "modified by an inplace"),
}


# Triangles, scans, extra pointwise ops, selection, counting, construction, linalg.
CASES.update(
    {
        "tril_1d": (RuntimeError, lambda t: t.ones(3).tril(), "at least 2 dimensions"),
        "diagonal_same_dims": (
            RuntimeError,
            lambda t: t.ones(2, 2).diagonal(0, 1, 1),
            "cannot be identical",
        ),
        "diag_3d": (RuntimeError, lambda t: t.ones(2, 2, 2).diag(), "Supports 1D or 2D"),
        "trace_3d": (RuntimeError, lambda t: t.ones(2, 2, 2).trace(), "expected a matrix"),
        "trace_bool": (NotImplementedError, lambda t: t.ones(2, 2).bool().trace(), "'Bool'"),
        "logcumsumexp_int": (
            NotImplementedError,
            lambda t: t.tensor([1, 2]).logcumsumexp(0),
            "'Long'",
        ),
        "diff_0d": (RuntimeError, lambda t: t.tensor(1.0).diff(), "at least one-dimensional"),
        "hypot_int": (
            NotImplementedError,
            lambda t: t.hypot(t.ones(2).long(), t.ones(2).long()),
            "hypot",
        ),
        "heaviside_dtypes": (
            RuntimeError,
            lambda t: t.heaviside(t.ones(2), t.ones(2).long()),
            "different dtypes",
        ),
        "heaviside_backward": (RuntimeError, lambda t: _heaviside_backward(t), "heaviside"),
        "kthvalue_range": (RuntimeError, lambda t: t.ones(3).kthvalue(4), "out of range"),
        "median_empty_dim": (IndexError, lambda t: t.ones(0, 3).median(0), "non-zero size"),
        "quantile_q_range": (RuntimeError, lambda t: t.ones(3).quantile(1.5), "[0, 1]"),
        "quantile_int": (RuntimeError, lambda t: t.tensor([1, 2]).quantile(0.5), "float or double"),
        "quantile_interpolation": (
            RuntimeError,
            lambda t: t.ones(3).quantile(0.5, interpolation="cubic"),
            "interpolation must be one of",
        ),
        "unique_backward": (NotImplementedError, lambda t: _unique_backward(t), "_unique2"),
        "scatter_reduce_src_backward": (
            RuntimeError,
            lambda t: _scatter_reduce_src_backward(t),
            "derivative for aten::scatter is not implemented",
        ),
        "bincount_negative": (
            RuntimeError,
            lambda t: t.bincount(t.tensor([-1, 2])),
            "non-negative integral",
        ),
        "bincount_float": (NotImplementedError, lambda t: t.bincount(t.ones(2)), "'Float'"),
        "histc_range": (
            RuntimeError,
            lambda t: t.histc(t.ones(2), bins=3, min=2, max=1),
            "max must be larger than min",
        ),
        "searchsorted_sides": (
            RuntimeError,
            lambda t: t.searchsorted(t.ones(3), t.ones(2), side="left", right=True),
            "opposites",
        ),
        "bucketize_2d_boundaries": (
            RuntimeError,
            lambda t: t.bucketize(t.ones(2), t.ones(2, 2)),
            "must be 1 dimension",
        ),
        "meshgrid_indexing": (
            RuntimeError,
            lambda t: t.meshgrid(t.ones(2), t.ones(3), indexing="ji"),
            "indexing must be",
        ),
        "block_diag_3d": (RuntimeError, lambda t: t.block_diag(t.ones(2, 2, 2)), "2 or fewer"),
        "rot90_one_dim": (RuntimeError, lambda t: t.ones(2, 2).rot90(1, [0]), "rotation dims"),
        "unfold_too_big": (RuntimeError, lambda t: t.ones(2, 3).unfold(1, 4, 1), "maximum size"),
        "tensordot_sizes": (
            RuntimeError,
            lambda t: t.tensordot(t.ones(2, 3), t.ones(2, 3), dims=1),
            "contracted dimensions",
        ),
        "cross_length": (RuntimeError, lambda t: t.linalg.cross(t.ones(2), t.ones(2)), "length 3"),
        "cdist_negative_p": (
            RuntimeError,
            lambda t: t.cdist(t.ones(2, 3), t.ones(2, 3), p=-1),
            "non-negative p",
        ),
        "cdist_int": (
            RuntimeError,
            lambda t: t.cdist(t.ones(2, 3).long(), t.ones(2, 3).long()),
            "floating-point",
        ),
        "take_along_dim_ndim": (
            RuntimeError,
            lambda t: t.take_along_dim(t.ones(2, 3), t.tensor([0]), 1),
            "same number of dimensions",
        ),
        "index_fill_float_index": (
            IndexError,
            lambda t: t.ones(2, 3).index_fill(0, t.tensor([0.0]), 1),
            "int64",
        ),
        "index_copy_slices": (
            RuntimeError,
            lambda t: t.ones(3, 4).index_copy(0, t.tensor([0]), t.ones(1, 2)),
            "same slice shapes",
        ),
        "masked_scatter_short_source": (
            RuntimeError,
            lambda t: t.ones(3).masked_scatter(t.ones(3).bool(), t.ones(2)),
            "Number of elements of source",
        ),
        "inv_singular": (RuntimeError, lambda t: t.linalg.inv(t.zeros(2, 2)), "singular"),
        "inv_not_square": (RuntimeError, lambda t: t.linalg.inv(t.ones(2, 3)), "square matrices"),
        "inv_int": (RuntimeError, lambda t: t.linalg.inv(t.eye(2).long()), "floating point"),
        "solve_shapes": (
            RuntimeError,
            lambda t: t.linalg.solve(t.eye(3), t.ones(2)),
            "Incompatible shapes",
        ),
        "cholesky_not_positive_definite": (
            RuntimeError,
            lambda t: t.linalg.cholesky(-t.eye(2)),
            "not positive-definite",
        ),
        "matrix_norm_order": (
            RuntimeError,
            lambda t: t.linalg.matrix_norm(t.ones(2, 2), 3),
            "not supported",
        ),
        "linalg_norm_3d_ord": (
            RuntimeError,
            lambda t: t.linalg.norm(t.ones(2, 2, 2), 2),
            "must be 1D or 2D",
        ),
        "qr_r_backward": (RuntimeError, lambda t: _qr_r_backward(t), "mode='r'"),
        "multi_dot_shapes": (
            RuntimeError,
            lambda t: t.linalg.multi_dot([t.ones(2, 3), t.ones(2, 3)]),
            "cannot be multiplied",
        ),
        "vander_small_N": (RuntimeError, lambda t: t.linalg.vander(t.ones(3), N=1), "N must be"),
        "matrix_exp_not_square": (
            RuntimeError,
            lambda t: t.linalg.matrix_exp(t.ones(2, 3)),
            "square matrices",
        ),
        "tensorinv_shape": (
            RuntimeError,
            lambda t: t.linalg.tensorinv(t.ones(2, 3), ind=1),
            "prod(self.shape[ind:])",
        ),
        "vecdot_dtypes": (
            RuntimeError,
            lambda t: t.linalg.vecdot(t.ones(2), t.ones(2).double()),
            "same dtype",
        ),
    }
)


def _heaviside_backward(t):
    x = t.ones(2, requires_grad=True)
    t.heaviside(x, t.ones(2)).sum().backward()


def _scatter_reduce_src_backward(t):
    # only the src requires grad: it still reaches scatter's NotImplemented node
    src = t.ones(1, 2, requires_grad=True)
    out = t.zeros(2, 2).scatter(0, t.zeros(1, 2, dtype=t.long), src, reduce="add")
    assert out.requires_grad
    out.sum().backward()


def _unique_backward(t):
    x = t.tensor([1.0, 2.0, 1.0], requires_grad=True)
    t.unique(x).sum().backward()


def _qr_r_backward(t):
    x = t.ones(3, 2, requires_grad=True)
    t.linalg.qr(x, mode="r")[1].sum().backward()


def _backward_twice(t):
    y = (t.ones(2, requires_grad=True) ** 2).sum()
    y.backward()
    y.backward()


def _grad_unused(t):
    a, b = t.ones(2, requires_grad=True), t.ones(2, requires_grad=True)
    t.autograd.grad((a * 2).sum(), [a, b])


def _modified_saved(t):
    x = t.ones(2, 3, requires_grad=True)
    a = x.exp()
    a.add_(1)
    a.sum().backward()


@pytest.mark.parametrize("name", sorted(CASES))
def test_error_type_and_message(name):
    kind, call, text = CASES[name]
    with pytest.raises(kind) as info:
        call(numtorch)
    assert text in str(info.value)


@pytest.mark.parametrize("name", sorted(CASES))
def test_error_type_matches_torch(name):
    torch = pytest.importorskip("torch")
    kind, call, _ = CASES[name]
    with pytest.raises(Exception) as theirs:
        call(torch)
    assert isinstance(theirs.value, kind), f"torch raised {type(theirs.value).__name__}"


def test_version_error_message_matches_torch_word_for_word():
    torch = pytest.importorskip("torch")
    messages = []
    for lib in (numtorch, torch):
        with pytest.raises(RuntimeError) as info:
            _modified_saved(lib)
        messages.append(str(info.value))
    assert messages[0] == messages[1]


def test_failed_overlapping_write_leaves_storage_unchanged():
    base = numtorch.ones(2)
    view = base.as_strided((2, 2), (0, 1))
    with pytest.raises(RuntimeError):
        view.add_(1)
    assert base.tolist() == [1.0, 1.0] and base._version == 0


def test_failed_inplace_leaves_data_and_version_unchanged():
    x = numtorch.ones(2, requires_grad=True)
    for attempt in (lambda: x.add_(1), lambda: x.__setitem__(0, 5.0), lambda: x.view(-1).mul_(2)):
        with pytest.raises(RuntimeError):
            attempt()
        assert x.tolist() == [1.0, 1.0] and x._version == 0
