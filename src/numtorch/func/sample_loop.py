"""``vmap(..., randomness="different")``: the function runs once per sample.

Random ops draw with the shape of one sample, so a single batched call would hand every
sample the same numbers; running the function on each sample (views of the inputs, so
in-place writes reach them) and stacking the outputs gives each its own draws. Everything
else in ``vmap`` runs the function once, on batched tensors.
"""

from __future__ import annotations

from .._core.tensor import Tensor
from ..backend import xp
from ..ops.concatenation import stack
from ..utils._pytree import broadcast_prefix, tree_flatten, tree_unflatten


def run_per_sample(func, flat_args, flat_in_dims, args_spec, size, out_dims, kwargs, name):
    samples = [None if d is None else a.unbind(d) for a, d in zip(flat_args, flat_in_dims)]
    outputs = []
    for b in range(size):
        flat = [a if s is None else s[b] for a, s in zip(flat_args, samples)]
        outputs.append(func(*tree_unflatten(flat, args_spec), **kwargs))
    return _stack_outputs(outputs, out_dims, name)


def flat_out_dims(out_dims, output, spec, name: str) -> list:
    flat = None
    if isinstance(output, Tensor):
        if isinstance(out_dims, int) or out_dims is None:
            flat = [out_dims]
        elif isinstance(out_dims, tuple) and len(out_dims) == 1:
            flat = list(out_dims)
    else:
        flat = broadcast_prefix(out_dims, spec)
    if flat is None:
        raise ValueError(
            f"vmap({name}, ..., out_dims={out_dims})(<inputs>): out_dims is not compatible with "
            f"the structure of `outputs`. out_dims has structure {tree_flatten(out_dims)[1]} "
            f"but outputs has structure {spec}."
        )
    return flat


def _same_everywhere(values) -> bool:
    first = values[0]
    for v in values[1:]:
        if v is first:
            continue
        if v.dtype != first.dtype or not xp.array_equal(v._data, first._data, equal_nan=True):
            return False
    return True


def _stack_outputs(outputs: list, out_dims, name: str):
    flat0, spec = tree_flatten(outputs[0])
    columns = [[v] for v in flat0]
    for out in outputs[1:]:
        flat, other = tree_flatten(out)
        if other != spec:
            raise ValueError(
                f"vmap({name}, ...): `{name}` returned outputs of different structures for "
                f"different samples ({spec} and {other})"
            )
        for column, v in zip(columns, flat):
            column.append(v)
    dims_out = flat_out_dims(out_dims, outputs[0], spec, name)
    result = []
    for column, d in zip(columns, dims_out):
        first = column[0]
        if d is None:
            if isinstance(first, Tensor) and not _same_everywhere(column):
                raise ValueError(
                    f"vmap({name}, ...): `{name}` can not return a BatchedTensor when out_dim "
                    "is None"
                )
            result.append(first)
            continue
        bad = next((v for v in column if not isinstance(v, Tensor)), None)
        if bad is not None or not isinstance(first, Tensor):
            raise ValueError(
                f"vmap({name}, ...): `{name}` must only return Tensors, got type "
                f"{type(bad)}. Did you mean to set out_dims= to None for output?"
            )
        stacked = stack(column)
        result.append(stacked if d == 0 else stacked.movedim(0, d))
    return tree_unflatten(result, spec)
