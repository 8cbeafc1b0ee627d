"""Arguments of the wrong kind raise torch's exception type at the op boundary, before any
shape or dtype check, and never a Python or NumPy internal error (AttributeError, a NumPy
scalar "not iterable"). Calls torch accepts (a NumPy integer or a 0-d integer tensor as a
dim) run. With torch installed each outcome is also checked against it."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch


def _outcome(call, lib):
    try:
        out = call(lib)
    except Exception as error:  # the exception type is the outcome
        return type(error).__name__
    return tuple(out.shape) if isinstance(out, lib.Tensor) else "ok"


# name -> (outcome: an exception type's name or the result's shape, call)
CASES = {
    # a dim is an int: a bool, a float, a string or a 1-D tensor is refused by type, even
    # where its value would be in range (True as dim 1) or out of range (1.0 on a 1-D tensor)
    "transpose_bool_dim": ("TypeError", lambda t: t.ones(2, 3).transpose(True, 0)),
    "gather_bool_dim": ("TypeError", lambda t: t.ones(2, 1).gather(True, t.zeros(5, 5).long())),
    "flatten_float_dim": ("TypeError", lambda t: t.ones(4).flatten(1.0, -2)),
    "softmax_float_dim": ("TypeError", lambda t: t.ones(2, 3).softmax(1.0)),
    "cumsum_bool_dim": ("TypeError", lambda t: t.ones(2, 3).cumsum(True)),
    "max_bool_dim": ("TypeError", lambda t: t.ones(2, 3).max(True)),
    "median_bool_dim": ("TypeError", lambda t: t.ones(2, 3).median(True)),
    "select_bool_dim": ("TypeError", lambda t: t.ones(2, 3).select(True, 0)),
    "transpose_str_dim": ("TypeError", lambda t: t.ones(2, 3).transpose(1, "0")),
    "unsqueeze_1d_tensor_dim": ("TypeError", lambda t: t.ones(2, 3).unsqueeze(t.tensor([0]))),
    "transpose_numpy_bool_dim": ("TypeError", lambda t: t.ones(2, 3).transpose(np.bool_(1), 0)),
    "reduce_lone_bool_dim": ("TypeError", lambda t: t.ones(2, 3).sum(True)),
    "all_lone_bool_dim": ("TypeError", lambda t: t.ones(2, 3).all(True)),
    "count_nonzero_bool_dim": ("TypeError", lambda t: t.ones(2, 3).count_nonzero(True)),
    # ... and what converts to an index is one
    "transpose_numpy_dim": ((3, 2), lambda t: t.ones(2, 3).transpose(np.int64(0), 1)),
    "transpose_tensor_dim": ((3, 2), lambda t: t.ones(2, 3).transpose(t.tensor(0), 1)),
    "softmax_tensor_dim": ((2, 3), lambda t: t.ones(2, 3).softmax(t.tensor(1))),
    "sum_tensor_dim": ((3,), lambda t: t.ones(2, 3).sum(t.tensor(0))),
    "sum_tensor_in_dims": ((3,), lambda t: t.ones(2, 3).sum([t.tensor(0)])),
    "amin_tensor_dim": ((3,), lambda t: t.ones(2, 3).amin(t.tensor(0))),
    "sum_bool_in_dims": ((), lambda t: t.ones(2, 3).sum((0, True))),
    # movedim: an int each or a sequence each, as many sources as destinations, none twice
    "movedim_numpy_dim": ((2, 3, 4), lambda t: t.ones(2, 3, 4).movedim(np.int64(0), -3)),
    "movedim_tensor_dim": ((3, 2, 4), lambda t: t.ones(2, 3, 4).movedim(t.tensor(0), 1)),
    "movedim_mixed_kinds": ("TypeError", lambda t: t.ones(2, 3).movedim(0, [1])),
    "movedim_lengths": ("RuntimeError", lambda t: t.ones(2, 3, 4).movedim((0, 0), (0,))),
    "movedim_repeated_source": ("RuntimeError", lambda t: t.ones(2, 3, 4).movedim((0, -3), (1, 2))),
    "movedim_repeated_destination": (
        "RuntimeError",
        lambda t: t.ones(2, 3, 4).movedim((0, 1), (2, 2)),
    ),
    # a number, a list or None where a tensor goes is refused by type, before any rank or
    # shape check of the other operands (2-D outer names the None, not the rank) and never
    # as the AttributeError of reading the object's tensor fields: the functions' boundary
    # finds the argument from the object the read failed on ...
    "take_list_index": ("TypeError", lambda t: t.take(t.ones(2, 2), [0])),
    "gather_list_index": ("TypeError", lambda t: t.gather(t.ones(2, 2), 0, [[0]])),
    "index_select_list": ("TypeError", lambda t: t.index_select(t.ones(2, 2), 0, [0])),
    "index_add_number_source": (
        "TypeError",
        lambda t: t.index_add(t.ones(2, 2), 0, t.tensor([0]), 1),
    ),
    "masked_scatter_number": ("TypeError", lambda t: t.masked_scatter(t.ones(2), t.ones(2) > 0, 1)),
    "bucketize_number_boundaries": ("TypeError", lambda t: t.bucketize(t.ones(2), 1)),
    "solve_number": ("TypeError", lambda t: t.linalg.solve(t.eye(2), 1)),
    "allclose_number": ("TypeError", lambda t: t.allclose(t.ones(2), 1)),
    "equal_number": ("TypeError", lambda t: t.equal(t.ones(2), 1)),
    # (torch's functions written in Python read the fields themselves: its AttributeError)
    "tensordot_number": ("AttributeError", lambda t: t.tensordot(t.ones(2, 2), 1)),
    "split_number": ("AttributeError", lambda t: t.split(1, 1)),
    "norm_number": ("AttributeError", lambda t: t.norm(1)),
    "multi_dot_element": ("TypeError", lambda t: t.linalg.multi_dot([t.ones(2, 2), 1])),
    "block_diag_element": ("TypeError", lambda t: t.block_diag(t.ones(2, 2), 1)),
    "cartesian_prod_element": ("TypeError", lambda t: t.cartesian_prod(t.ones(2), 1)),
    # ... and the products, whose methods are not wrapped, check their operands first
    "outer_none_of_matrix": ("TypeError", lambda t: t.ones(2, 2).outer(None)),
    "outer_number": ("TypeError", lambda t: t.outer(t.ones(2), 1)),
    "bmm_none": ("TypeError", lambda t: t.ones(2, 2, 2).bmm(None)),
    "bmm_number_of_matrix": ("TypeError", lambda t: t.bmm(t.ones(2, 2), 1)),
    "dot_number": ("TypeError", lambda t: t.ones(2).dot(1)),
    "vdot_number": ("TypeError", lambda t: t.vdot(t.ones(2), 1)),
    "mv_list": ("TypeError", lambda t: t.ones(2, 2).mv([1.0, 2.0])),
    "kron_number": ("TypeError", lambda t: t.ones(2, 2).kron(2.5)),
    "inner_number": ("TypeError", lambda t: t.ones(2, 2).inner(2.5)),
    "addmm_number": ("TypeError", lambda t: t.ones(2, 2).addmm(t.ones(2, 2), 1)),
    "addmm_number_input": ("TypeError", lambda t: t.addmm(1.0, t.ones(2, 2), t.ones(2, 2))),
    "baddbmm_number": ("TypeError", lambda t: t.ones(2, 2, 2).baddbmm(t.ones(2, 2, 2), 1)),
    "addbmm_number": ("TypeError", lambda t: t.addbmm(t.ones(2, 2), t.ones(2, 2, 2), 1)),
    "addmv_number": ("TypeError", lambda t: t.addmv(t.ones(2), t.ones(2, 2), 1)),
    "addr_none": ("TypeError", lambda t: t.ones(2, 2).addr(t.ones(2), None)),
    # indexing: a slice's step is checked before any dim is counted (a 0-d tensor has none)
    "getitem_step_zero": ("ValueError", lambda t: t.ones(2, 3)[::0]),
    "getitem_step_zero_later": ("ValueError", lambda t: t.ones(2, 3)[0, ::0]),
    "getitem_negative_step_0d": ("ValueError", lambda t: t.tensor(1.0)[::-1]),
    "setitem_step_zero": (
        "ValueError",
        lambda t: t.ones(2, 3).__setitem__(slice(None, None, 0), 1),
    ),
    # a 0-d byte tensor is a mask (a new dim), as a 1-D one is
    "getitem_byte_0d_mask": ((1, 2, 3), lambda t: t.ones(2, 3)[t.tensor(1, dtype=t.uint8)]),
    # the value is read before the key: a string, list or None is refused by type first
    "setitem_str_bad_index": ("TypeError", lambda t: t.ones(2, 3).__setitem__(9, "x")),
    "setitem_list_empty_index": (
        "TypeError",
        lambda t: t.ones(2).__setitem__(t.tensor([], dtype=t.long), [1.0, 2.0]),
    ),
    "setitem_none_bool_key": ("TypeError", lambda t: t.ones(2).__setitem__(True, None)),
    "setitem_list_mask": ("TypeError", lambda t: t.ones(2).__setitem__([True, False], [1.0])),
    # index_put_ refuses a leaf that requires grad before it reads a float index
    "setitem_leaf_float_index": (
        "RuntimeError",
        lambda t: t.ones(2, requires_grad=True).__setitem__(t.tensor([0.0]), 1.0),
    ),
    # keepdim is a bool: 1, None or a NumPy bool is refused before the dims are read (a
    # repeated or out-of-range dim beside it raises the TypeError, not its own error)
    "sum_keepdim_int_repeated_dims": ("TypeError", lambda t: t.ones(2, 3).sum([0, 0], keepdim=1)),
    "sum_keepdim_int_bad_dim": ("TypeError", lambda t: t.sum(t.ones(2, 3), dim=-4, keepdim=1)),
    "mean_keepdim_none": ("TypeError", lambda t: t.ones(2, 3).mean(0, None)),
    "max_keepdim_int": ("TypeError", lambda t: t.max(t.ones(2), dim=-3, keepdim=1)),
    "amax_keepdim_int": ("TypeError", lambda t: t.ones(2, 3).amax(0, 1)),
    "argmax_keepdim_none": ("TypeError", lambda t: t.ones(2, 3).argmax(0, None)),
    "aminmax_keepdim_int": ("TypeError", lambda t: t.ones(2, 3).aminmax(dim=0, keepdim=1)),
    "var_keepdim_int": ("TypeError", lambda t: t.var(t.ones(2), dim=-2, keepdim=1)),
    "logsumexp_keepdim_none": ("TypeError", lambda t: t.ones(2, 3).logsumexp([0, 0], None)),
    "nansum_keepdim_none": ("TypeError", lambda t: t.ones(2, 3).nansum([0], keepdim=None)),
    "all_keepdim_int": ("TypeError", lambda t: t.all(t.ones(2, 3), dim=5, keepdim=1)),
    "any_keepdim_numpy_bool": ("TypeError", lambda t: t.ones(2, 3).any(0, np.bool_(True))),
    "median_keepdim_int": ("TypeError", lambda t: t.ones(2, 3).median(0, 1)),
    "mode_keepdim_none": ("TypeError", lambda t: t.mode(t.ones(2, 3), 0, keepdim=None)),
    "kthvalue_keepdim_int": ("TypeError", lambda t: t.ones(2, 3).kthvalue(1, 0, 1)),
    "quantile_keepdim_int": ("TypeError", lambda t: t.quantile(t.ones(2, 3), 0.5, 0, 1)),
    "vector_norm_keepdim_int": ("TypeError", lambda t: t.linalg.vector_norm(t.ones(2), 2, 0, 1)),
    "sum_keepdim_bool": ((2, 1), lambda t: t.ones(2, 3).sum(1, True)),
    # other int arguments likewise: a count, a start, a length, a power
    "topk_float_k": ("TypeError", lambda t: t.ones(2, 3).topk(2.0)),
    "topk_bool_k": ("TypeError", lambda t: t.ones(2, 3).topk(True)),
    "topk_tensor_k": ("ok", lambda t: t.ones(2, 3).topk(t.tensor(2))),
    "kthvalue_float_k": ("TypeError", lambda t: t.ones(2, 3).kthvalue(1.0)),
    "narrow_float_start": ("TypeError", lambda t: t.ones(2, 3).narrow(0, 1.0, -1)),
    "narrow_float_length": ("TypeError", lambda t: t.ones(2, 3).narrow(-5, 0, 1.0)),
    "narrow_numpy_arguments": ((1, 3), lambda t: t.ones(2, 3).narrow(0, np.int64(0), np.int64(1))),
    "matrix_power_float": ("TypeError", lambda t: t.linalg.matrix_power(t.ones(3), 1.5)),
    "matrix_power_numpy": ((2, 2), lambda t: t.linalg.matrix_power(t.eye(2), np.int64(2))),
    # None for an operand: a Number is never None (where, eq, masked_fill and fill_ ran with
    # it), and a None a NumPy loop fails on is named, not an AttributeError of the loop
    "where_none_other": ("TypeError", lambda t: t.where(t.ones(2) > 0, t.ones(2), None)),
    "eq_none": ("TypeError", lambda t: t.ones(2).eq(None)),
    "masked_fill_none": ("TypeError", lambda t: t.ones(2).masked_fill(t.ones(2) > 0, None)),
    "fill_none": ("TypeError", lambda t: t.ones(2).fill_(None)),
    "atan2_none": ("TypeError", lambda t: t.ones(2).atan2(None)),
    "remainder_none": ("TypeError", lambda t: t.ones(2).remainder(None)),
    "xlogy_none": ("TypeError", lambda t: t.xlogy(t.ones(2), None)),
    "bitwise_and_none": ("TypeError", lambda t: t.ones(2).bitwise_and(None)),
    "clamp_optional_none": ((2,), lambda t: t.ones(2).clamp(min=None, max=1)),
    # a string or a list where a Number goes (the Number arguments of the ops, alpha, the
    # bounds of clamp) is refused by type, not read by NumPy (a ValueError, a dtype error)
    "fill_str": ("TypeError", lambda t: t.ones(2).fill_("x")),
    "masked_fill_str": ("TypeError", lambda t: t.ones(2).masked_fill(t.ones(2) > 0, "x")),
    "eq_str": ("TypeError", lambda t: t.ones(2).eq("x")),
    "add_list": ("TypeError", lambda t: t.ones(3).add([1.0, 2.0, 3.0])),
    "where_list": ("TypeError", lambda t: t.where(t.ones(2) > 0, t.ones(2), [1.0])),
    "add_alpha_none_bad_shapes": (
        "TypeError",
        lambda t: t.add(t.ones(2, 3), t.ones(2), alpha=None),
    ),
    "sub_alpha_str": ("TypeError", lambda t: t.ones(2).sub(t.ones(2), alpha="x")),
    "add_alpha_tensor": ((2,), lambda t: t.ones(2).add(t.ones(2), alpha=t.tensor(2))),
    "add_alpha_numpy": ((2,), lambda t: t.ones(2).add(t.ones(2), alpha=np.float32(2))),
    "clamp_str_bound": ("TypeError", lambda t: t.ones(2).clamp_(min="x")),
    "clamp_list_bound": ("TypeError", lambda t: t.ones(2).clamp(0, [1])),
    "clamp_numpy_bounds": ((2,), lambda t: t.ones(2).clamp(np.float32(0), True)),
    # requires_grad is a bool: requires_grad_ and the factories refuse 1 or None by type,
    # the attribute's setter with torch's RuntimeError (a module's requires_grad_ passes on)
    "requires_grad_int": ("TypeError", lambda t: t.ones(2).requires_grad_(1)),
    "requires_grad_numpy_bool": ("TypeError", lambda t: t.ones(2).requires_grad_(np.bool_(1))),
    "module_requires_grad_int": ("TypeError", lambda t: t.nn.Linear(2, 2).requires_grad_(5)),
    "requires_grad_setter_none": (
        "RuntimeError",
        lambda t: setattr(t.ones(2), "requires_grad", None),
    ),
    "ones_requires_grad_int": ("TypeError", lambda t: t.ones(2, requires_grad=1)),
    "tensor_requires_grad_none": ("TypeError", lambda t: t.tensor([1.0], requires_grad=None)),
    # the gathers and scatters: the index (and src) must be tensors, and dim is wrapped
    # before the index's dtype or the operands' dtypes are compared
    "gather_bad_dim_float_index": ("IndexError", lambda t: t.ones(2, 3).gather(5, t.zeros(2, 2))),
    "scatter_add_bad_dim_float_index": (
        "IndexError",
        lambda t: t.ones(2, 3).scatter_add(5, t.zeros(2, 2), t.ones(2, 3)),
    ),
    "scatter_bad_dim_float_index": (
        "IndexError",
        lambda t: t.ones(2, 3).scatter(5, t.zeros(2, 2), t.ones(2, 3)),
    ),
    "scatter_reduce_bad_dim": (
        "IndexError",
        lambda t: t.ones(2, 3).scatter_reduce(-3, t.zeros(2, 2), t.ones(2, 3), "sum"),
    ),
    "index_select_bad_dim_float_index": (
        "IndexError",
        lambda t: t.ones(2, 3).index_select(5, t.tensor([0.0])),
    ),
    "index_add_bad_dim_dtypes": (
        "IndexError",
        lambda t: t.ones(2, 3).index_add(5, t.tensor([0]), t.ones(2, 3).double()),
    ),
    "gather_list_index_method": ("TypeError", lambda t: t.ones(2, 3).gather(0, [[0]])),
    "index_select_list_method": ("TypeError", lambda t: t.ones(2, 3).index_select(0, [0])),
    "scatter_add_number_src": (
        "TypeError",
        lambda t: t.ones(2, 3).scatter_add(0, t.zeros(2, 2).long(), 1.0),
    ),
    "scatter_reduce_str_src": (
        "TypeError",
        lambda t: t.ones(2, 3).scatter_reduce(1, t.zeros(1, 1).long(), "x", "sum"),
    ),
    "index_add_number_source_method": (
        "TypeError",
        lambda t: t.ones(2, 3).index_add(0, t.tensor([0]), 1.0),
    ),
    "scatter_number_src": ((2, 3), lambda t: t.ones(2, 3).scatter(0, t.zeros(1, 1).long(), 2.0)),
    # two dims: both kinds are checked before either range
    "flatten_bad_start_none_end": ("TypeError", lambda t: t.ones(2, 3).flatten(6, None)),
    "flatten_bad_start_list_end": ("TypeError", lambda t: t.ones(2, 3).flatten(-3, [0, 0])),
    "transpose_bad_dim0_str_dim1": ("TypeError", lambda t: t.ones(2, 3).transpose(5, "0")),
    # torch's Tensor has no var_mean or std_mean method (the functions only)
    "var_mean_method": ("AttributeError", lambda t: t.ones(2).var_mean()),
    "std_mean_method": ("AttributeError", lambda t: t.ones(2).std_mean(0)),
    "var_mean_function": ("ok", lambda t: t.var_mean(t.ones(2))),
    # vector_norm's ord is a Number ('fro' is a matrix norm's; a tuple may be a misplaced dim)
    "vector_norm_fro": ("TypeError", lambda t: t.linalg.vector_norm(t.ones(2), "fro")),
    "norm_tuple_ord": ("TypeError", lambda t: t.ones(2, 3).norm((0, 0))),
    "normalize_tuple_ord": ("TypeError", lambda t: t.nn.functional.normalize(t.ones(2), (1,))),
    "vector_norm_tensor_ord": ((), lambda t: t.linalg.vector_norm(t.ones(2), t.tensor(2.0))),
    # a negative size: resize_ refuses it (it resized to the last elements)
    "resize_negative": ("RuntimeError", lambda t: t.ones(2, 3).resize_(-1)),
    "resize_negative_later": ("RuntimeError", lambda t: t.ones(2, 3).resize_(2, -2)),
    # batch_norm's momentum is a float (None is the layers' own cumulative average), an
    # optimizer's lr a number compared as given (a string raises the comparison's TypeError)
    "batch_norm_momentum_none": (
        "TypeError",
        lambda t: t.nn.functional.batch_norm(t.ones(3, 2), t.zeros(2), t.ones(2), momentum=None),
    ),
    "batch_norm_layer_momentum_none": (
        (3, 2),
        lambda t: t.nn.BatchNorm1d(2, momentum=None)(t.ones(3, 2)),
    ),
    "sgd_lr_str": ("TypeError", lambda t: t.optim.SGD(t.nn.Linear(2, 2).parameters(), lr="x")),
    "adamw_lr_str": ("TypeError", lambda t: t.optim.AdamW(t.nn.Linear(2, 2).parameters(), lr="x")),
    # sizes: a bool past the first size (or within a torch.Size) is read as an int, as by
    # torch's parser, which refuses a first one (it picks the overload by it)
    "view_bool_later_size": ((6, 1), lambda t: t.ones(2, 3).view(6, True)),
    "reshape_bool_later_size": ((3, 1, 2), lambda t: t.ones(2, 3).reshape(3, True, 2)),
    "tile_bool_later_size": ((3, 2, 3), lambda t: t.ones(2, 3).tile((3, True, 1))),
    "zeros_bool_later_size": ((2, 1), lambda t: t.zeros(2, True)),
    "new_full_size_of_bools": ((4, 1, 3), lambda t: t.ones(2).new_full(t.Size([4, True, 3]), 2.0)),
    "view_bool_first_size": ("TypeError", lambda t: t.ones(2, 3).view(True, 6)),
    "zeros_bool_first_size": ("TypeError", lambda t: t.zeros((True,))),
    "unflatten_float_size": ("TypeError", lambda t: t.ones(2, 3).unflatten(0, (2.0, 1))),
    "unflatten_int_sizes": ("TypeError", lambda t: t.ones(2, 3).unflatten(0, 2)),
    # narrow checks the length first; topk refuses a negative k; cross takes tensors
    "narrow_negative_length_bad_start": ("RuntimeError", lambda t: t.ones(2, 3).narrow(0, 5, -1)),
    "narrow_negative_length_bad_dim": ("RuntimeError", lambda t: t.ones(2, 3).narrow(5, 5, -1)),
    "topk_negative_k": ("RuntimeError", lambda t: t.ones(2, 3).topk(-1)),
    "cross_none": ("TypeError", lambda t: t.ones(2, 3).cross(None)),
    "linalg_cross_number": ("TypeError", lambda t: t.linalg.cross(t.ones(2, 3), 1)),
    # the in-place view ops refuse a leaf that requires grad before a dim's range (after
    # its kind), as torch's autograd layer does before its kernel
    "unsqueeze__leaf_bad_dim": (
        "RuntimeError",
        lambda t: t.ones(2, 3, requires_grad=True).unsqueeze_(7),
    ),
    "squeeze__leaf_bad_dim": (
        "RuntimeError",
        lambda t: t.ones(2, 3, requires_grad=True).squeeze_(7),
    ),
    "transpose__leaf_bad_dim": (
        "RuntimeError",
        lambda t: t.ones(2, 3, requires_grad=True).transpose_(0, 5),
    ),
    "unsqueeze__leaf_bool_dim": (
        "TypeError",
        lambda t: t.ones(2, 3, requires_grad=True).unsqueeze_(True),
    ),
    "unsqueeze__bad_dim": ("IndexError", lambda t: t.ones(2, 3).unsqueeze_(7)),
    # tensor[advanced] = value is index_put_: a leaf is refused, then a value that shares
    # the tensor's memory, before the indices are read (a mask's shape, a float index)
    "setitem_leaf_bad_mask": (
        "RuntimeError",
        lambda t: t.ones(2, 3, requires_grad=True).__setitem__(
            t.ones(7, dtype=t.bool), t.ones(1, dtype=t.float64)
        ),
    ),
    "setitem_leaf_byte_mask_self": (
        "RuntimeError",
        lambda t: (lambda a: a.__setitem__(t.tensor([1, 0], dtype=t.uint8), a))(
            t.ones(2, 3, requires_grad=True)
        ),
    ),
    "setitem_self_float_index": (
        "RuntimeError",
        lambda t: (lambda a: a.__setitem__(t.tensor([0.0]), a))(t.ones(2, 3)),
    ),
    "setitem_bad_mask": (
        "IndexError",
        lambda t: t.ones(2, 3).__setitem__(t.ones(7, dtype=t.bool), t.ones(1, dtype=t.float64)),
    ),
    # std/var: a dim's kind before the input's dtype, its range after; batch_norm's batch
    # size check (Python, in torch) before its momentum's type; cdist's operands first
    "var_str_dim_of_ints": ("TypeError", lambda t: t.ones(2, 3).long().var("0")),
    "var_bad_dim_of_ints": ("RuntimeError", lambda t: t.ones(2, 3).long().var(5)),
    "var_bad_dim": ("IndexError", lambda t: t.ones(2, 3).var(5)),
    "batch_norm_one_value_momentum_none": (
        "ValueError",
        lambda t: t.nn.functional.batch_norm(
            t.ones(1, 3), t.zeros(3), t.ones(3), training=True, momentum=None
        ),
    ),
    "mean_float_dim_of_ints": ("TypeError", lambda t: t.ones(2, 3).long().mean(1.0)),
    "mean_bad_dim_of_ints": ("RuntimeError", lambda t: t.ones(2, 3).long().mean(5)),
    "mean_bad_dim": ("IndexError", lambda t: t.ones(2, 3).mean(5)),
    "masked_fill_numpy_mask": ("TypeError", lambda t: t.ones(3).masked_fill(np.ones(3) > 0, 0)),
    "masked_fill_numpy_bool_mask": ("TypeError", lambda t: t.ones(3).masked_fill(np.bool_(1), 0)),
    "cdist_number_of_ints": ("TypeError", lambda t: t.cdist(t.ones(2, 3).long(), 1)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_outcome(name):
    expected, call = CASES[name]
    assert _outcome(call, numtorch) == expected


@pytest.mark.parametrize("name", sorted(CASES))
def test_outcome_matches_torch(name):
    torch = pytest.importorskip("torch")
    expected, call = CASES[name]
    assert _outcome(call, torch) == expected


def test_dim_type_error_names_the_type():
    with pytest.raises(TypeError, match="must be int, not bool"):
        numtorch.ones(2, 3).transpose(True, 0)


def test_non_tensor_error_names_the_argument():
    with pytest.raises(
        TypeError, match=r"take\(\): argument 'index' \(position 2\) must be Tensor"
    ):
        numtorch.take(numtorch.ones(2), [0])
    with pytest.raises(TypeError, match="expected Tensor as element 1 in argument 0, but got int"):
        numtorch.block_diag(numtorch.ones(2, 2), 1)
    with pytest.raises(TypeError, match=r"outer\(\): argument 'vec2' \(position 2\)"):
        numtorch.ones(2, 2).outer(None)
