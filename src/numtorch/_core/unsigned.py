"""The ops torch refuses on uint16, uint32 and uint64 (Note [Wide unsigned dtypes] in
dtypes.py): its CPU build has kernels for these dtypes only where they were added on
purpose (copies, views, casts, mul, bitwise and/or/xor, sort, sums), and raises
NotImplementedError naming the kernel elsewhere.

Ops see these dtypes through the slow dispatch path, switched on the first time a wide
unsigned dtype is asked for (a factory, a cast, a NumPy array: dtypes.note_dtype), so
programs that never use one pay nothing.
"""

from __future__ import annotations

from . import dtypes

# op name -> the kernel torch's error names
REFUSED = {
    "add": "add_stub",
    "sub": "add_stub",
    "rsub": "add_stub",
    "rsub_tensor": "add_stub",
    "floor_divide": "div_floor_cpu",
    "remainder": "remainder_cpu",
    "remainder_tensor": "remainder_cpu",
    "fmod_tensor": "fmod_cpu",
    "fmod": "fmod_cpu",
    "neg": "neg_cpu",
    "abs": "abs_cpu",
    "sign": "sign_cpu",
    "max_all": "max_all",
    "min_all": "min_all",
    "max_dim": "max_cpu",
    "min_dim": "min_cpu",
    "amax": "max_values_cpu",
    "amin": "min_values_cpu",
    "lt": "lt_cpu",
    "le": "le_cpu",
    "gt": "gt_cpu",
    "ge": "ge_cpu",
    "maximum": "maximum_cpu",
    "minimum": "minimum_cpu",
    "clamp_scalar": "clamp_scalar_cpu",
    "clamp": "clamp_cpu",
    "pow": "pow",
    "topk": "topk_cpu",
    "kthvalue": "kthvalue_cpu",
    "median_all": "median_cpu",
    "median_dim": "median_cpu",
    "bitwise_left_shift": "lshift_cpu",
    "bitwise_right_shift": "rshift_cpu",
    "bitwise_not": "bitwise_not_cpu",
    "index_put": "index_put",
    "gather": "scatter_gather_tensor_cpu",
    "scatter_src": "scatter_gather_tensor_cpu",
    "scatter_value": "scatter_gather_tensor_cpu",
    "scatter_add": "scatter_gather_tensor_cpu",
    "index_add": "scatter_gather_tensor_cpu",
    "masked_fill": "masked_fill",
    "masked_select": "masked_select",
    "mm": "addmm_impl_cpu_",
    "addmm": "addmm_impl_cpu_",
    "bmm": "bmm",
    "dot": "dot",
    "tril": "tril",
    "triu": "triu",
    "trace": "trace",
    "_bincount": "bincount_cpu",
    "logical_and": "logical_and_cpu",
    "logical_or": "logical_or_cpu",
    "logical_xor": "logical_xor_cpu",
    "logical_not": "logical_not_cpu",
    "_searchsorted": "searchsorted_out_cpu",
    "cummax": "cummax_cpu",
    "cummin": "cummin_cpu",
    "lerp": "lerp_kernel_scalar",
    "put": "take_put_cpu",
    "take": "take_cpu",
}


# elementwise ops whose operands torch promotes to one dtype first: a wide unsigned tensor
# with any tensor of another dtype but a float raises there (dtypes.promote_types)
PROMOTING = {
    "add", "sub", "rsub", "rsub_tensor", "mul", "div", "floor_divide", "remainder",
    "remainder_tensor",
    "fmod_tensor", "pow",
    "eq", "ne", "lt", "le", "gt", "ge", "maximum", "minimum", "bitwise_and", "bitwise_or",
    "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift", "atan2", "hypot",
}  # fmt: skip
# ops refused whatever their other arguments (a float weight does not make lerp float)
UNCONDITIONAL = {"lerp"}


def _integral_only(args):
    """The first wide unsigned tensor among ``args`` when no argument makes the op compute
    in floating point (torch's kernels run in the promoted dtype: ``x + 1.5`` works)."""
    found = None
    for a in args:
        if isinstance(a, (list, tuple)):
            inner = _integral_only(a)
            if inner is False:
                return False
            if found is None:
                found = inner
            continue
        data = getattr(a, "_data", None)
        kind = data.dtype.kind if data is not None else None
        if data is None:
            if isinstance(a, (float, complex)):
                return False
            continue
        if kind in "fcV":
            return False
        if kind == "u" and data.dtype.itemsize > 1 and found is None:
            found = a
    return found


def check_op(spec, args) -> None:
    """torch's NotImplementedError for an op it has no wide unsigned kernel for."""
    if spec.name in PROMOTING:
        dtypes.result_type(*(a for a in args if getattr(a, "_data", None) is not None))
    kernel = REFUSED.get(spec.name)
    if kernel is None:
        return
    if spec.name in UNCONDITIONAL:
        tensor = next((a for a in args if _is_wide(a)), None)
    else:
        tensor = _integral_only(args)
    if tensor is not None and tensor is not False:
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{tensor.dtype.scalar_name}'")


def _is_wide(a) -> bool:
    data = getattr(a, "_data", None)
    return data is not None and data.dtype.kind == "u" and data.dtype.itemsize > 1


def refuse(kernel: str, dtype) -> None:
    """The same for functions that are not ops (factories, argmax, nonzero)."""
    if dtype.np.kind == "u" and dtype.itemsize > 1:
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{dtype.scalar_name}'")
