"""``torch.vmap``: map a function over a dimension of its inputs.

Note [vmap is a loop]
torch runs the function once on BatchedTensors, with a batching rule per operator. numtorch
has no such rules: ``vmap`` slices every mapped input along its ``in_dim`` (views, so in-place
writes reach the input as in torch), calls the function once per sample and stacks each
output along its ``out_dim``. Values, shapes, dtypes, output structure and argument errors
are torch's. The differences:

- it costs one call per sample (``chunk_size`` is checked and otherwise has no effect);
- the function may do what torch's vmap refuses (``.item()``, data-dependent control flow);
- outputs built from inputs that require grad end in ``StackBackward0``, not in the
  function's last op, and are contiguous where torch may return a strided or expanded view;
- an output with ``out_dim`` None must be equal across samples (torch: must not depend on a
  mapped input);
- an in-place write to an unmapped input raises, since it would repeat once per sample
  (torch allows it when the value written does not depend on a mapped input).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

from .. import _creation
from .._core.tensor import Tensor
from ..backend import xp
from ..ops.shape import stack
from ..utils._pytree import broadcast_prefix, tree_flatten, tree_unflatten
from .args import func_name, wraps

__all__ = ["vmap"]

_RANDOM_ERROR = (
    "vmap: called random operation while in randomness error mode. Please either use the "
    "'same' or 'different' randomness flags on vmap or perform the randomness operation out "
    "of vmap"
)


def vmap(
    func: Callable,
    in_dims=0,
    out_dims=0,
    randomness: str = "error",
    *,
    chunk_size: int | None = None,
) -> Callable:
    """``func`` mapped over dimension ``in_dims`` of its inputs, its outputs stacked along
    ``out_dims`` (numtorch runs ``func`` once per sample: Note [vmap is a loop]).

    Args:
        in_dims: an int or None (not mapped) for every input, or a tuple with one entry per
            positional argument, nested like the argument (a prefix of its pytree).
        out_dims: an int, or a pytree prefix of the output; None leaves an output unstacked.
        randomness: ``"error"`` (random ops raise), ``"different"`` (each sample draws its
            own numbers) or ``"same"`` (every sample draws the same numbers).

    Example:
        >>> import numtorch as torch
        >>> torch.vmap(torch.dot)(torch.ones(3, 2), torch.arange(6.0).reshape(3, 2))
        tensor([1., 5., 9.])
    """
    check_randomness(randomness)
    if not (chunk_size is None or chunk_size > 0):
        raise ValueError(f"vmap: chunk_size should be None or greater than 0. (got {chunk_size})")

    @wraps(func)
    def wrapped(*args, **kwargs):
        return _vmap(func, in_dims, out_dims, randomness, args, kwargs)

    return wrapped


def check_randomness(randomness: str) -> None:
    if randomness not in ("error", "different", "same"):
        raise RuntimeError(
            "Only allowed values for randomness are 'error', 'different', or 'same'. Got "
            f"{randomness}"
        )


class _RandomGuard:
    """Stands in for the global NumPy generator while random ops must raise."""

    def __getattr__(self, name):
        raise RuntimeError(_RANDOM_ERROR)


@contextlib.contextmanager
def randomness_mode(randomness: str):
    """Random ops raise inside this block with ``"error"``; yields a function to call before
    each sample (``"same"`` rewinds the global generator there)."""
    check_randomness(randomness)
    gen = _creation.default_generator
    if randomness == "error":
        saved, guard = gen._gen, _RandomGuard()
        gen._gen = guard
        try:
            yield lambda: None
        finally:
            if gen._gen is guard:
                gen._gen = saved
    elif randomness == "same":
        state = gen.get_state()
        yield lambda: gen.set_state(state)
    else:
        yield lambda: None


def _vmap(func, in_dims, out_dims, randomness: str, args: tuple, kwargs: dict):
    name = func_name(func)
    _check_out_dims(out_dims, name)
    batch, flat_in_dims, flat_args, args_spec = _batched_inputs(in_dims, args, name)
    if batch == 0:
        return _empty_batch(func, flat_in_dims, flat_args, args_spec, out_dims, randomness, kwargs)
    samples = [None if d is None else arg.unbind(d) for arg, d in zip(flat_args, flat_in_dims)]
    unmapped = [
        (a, a._version) for a, s in zip(flat_args, samples) if s is None and isinstance(a, Tensor)
    ]
    outputs = []
    with randomness_mode(randomness) as before_sample:
        for b in range(batch):
            before_sample()
            flat = [a if s is None else s[b] for a, s in zip(flat_args, samples)]
            outputs.append(func(*tree_unflatten(flat, args_spec), **kwargs))
            if any(a._version != version for a, version in unmapped):
                raise RuntimeError(
                    f"vmap({name}, ...): `{name}` modified in place an input that is not "
                    "mapped over (in_dim None). numtorch's vmap calls the function once per "
                    "sample, so the write would repeat for every sample; use an out-of-place "
                    "op instead."
                )
    return _stack_outputs(outputs, out_dims, name)


def _check_out_dims(out_dims, name: str) -> None:
    if isinstance(out_dims, int):
        return
    for d in tree_flatten(out_dims)[0]:
        if d is not None and not isinstance(d, int):
            raise ValueError(
                f"vmap({name}, ..., out_dims={out_dims}): `out_dims` must be an int, None or a "
                "python collection of ints representing where in the outputs the vmapped "
                "dimension should appear."
            )


def _batched_inputs(in_dims, args: tuple, name: str):
    """``(batch_size, flat_in_dims, flat_args, args_spec)`` with torch's checks."""
    if not isinstance(in_dims, (int, tuple)):
        raise ValueError(
            f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): expected `in_dims` to be int or a "
            "(potentially nested) tuple matching the structure of inputs, got: "
            f"{type(in_dims)}."
        )
    if not args:
        raise ValueError(
            f"vmap({name})(<inputs>): got no inputs. Maybe you forgot to add inputs, or you are "
            "trying to vmap over a function with no inputs. The latter is unsupported."
        )
    flat_args, args_spec = tree_flatten(args)
    flat_in_dims = broadcast_prefix(in_dims, args_spec)
    where = f"vmap({name}, in_dims={in_dims}, ...)(<inputs>)"
    if flat_in_dims is None:
        raise ValueError(
            f"{where}: in_dims is not compatible with the structure of `inputs`. in_dims has "
            f"structure {tree_flatten(in_dims)[1]} but inputs has structure {args_spec}."
        )
    for i, (arg, d) in enumerate(zip(flat_args, flat_in_dims)):
        if d is None:
            continue
        if not isinstance(d, int):
            raise ValueError(
                f"{where}: Got in_dim={d} for an input but in_dim must be either an integer "
                "dimension or None."
            )
        if not isinstance(arg, Tensor):
            raise ValueError(
                f"{where}: Got in_dim={d} for an input but the input is of type {type(arg)}. "
                "We cannot vmap over non-Tensor arguments, please use None as the respective "
                "in_dim"
            )
        if not -arg.dim() <= d < arg.dim():
            raise ValueError(
                f"{where}: Got in_dim={d} for some input, but that input is a Tensor of "
                f"dimensionality {arg.dim()} so expected in_dim to satisfy "
                f"-{arg.dim()} <= in_dim < {arg.dim()}."
            )
        flat_in_dims[i] = d % arg.dim()
    sizes = [arg.shape[d] for arg, d in zip(flat_args, flat_in_dims) if d is not None]
    if not sizes:
        raise ValueError("vmap: Expected at least one Tensor to vmap over")
    if any(s != sizes[0] for s in sizes):
        raise ValueError(
            "vmap: Expected all tensors to have the same size in the mapped dimension, got "
            f"sizes {sizes} for the mapped dimension"
        )
    return sizes[0], flat_in_dims, flat_args, args_spec


def _flat_out_dims(out_dims, output, spec, name: str) -> list:
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
    flat_out_dims = _flat_out_dims(out_dims, outputs[0], spec, name)
    result = []
    for column, d in zip(columns, flat_out_dims):
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


def _empty_batch(func, flat_in_dims, flat_args, args_spec, out_dims, randomness, kwargs):
    """A batch of size 0: the output structure and shapes come from one call on zeros."""
    flat = [
        a if d is None else a.new_zeros(a.shape[:d] + a.shape[d + 1 :])
        for a, d in zip(flat_args, flat_in_dims)
    ]
    name = func_name(func)
    with randomness_mode(randomness):
        sample = func(*tree_unflatten(flat, args_spec), **kwargs)
    flat_out, spec = tree_flatten(sample)
    flat_out_dims = _flat_out_dims(out_dims, sample, spec, name)
    result = []
    for v, d in zip(flat_out, flat_out_dims):
        if d is None:
            result.append(v)
        elif not isinstance(v, Tensor):
            raise ValueError(
                f"vmap({name}, ...): `{name}` must only return Tensors, got type {type(v)}. "
                "Did you mean to set out_dims= to None for output?"
            )
        else:
            result.append(v.new_zeros((0, *v.shape)).movedim(0, d))
    return tree_unflatten(result, spec)
