"""``torch.vmap``: map a function over a dimension of its inputs, running it once.

The function runs once on batched tensors (Note [Batched tensors]); each op runs its entry's
batching rule, or once per sample where it has none (Note [The per-op fallback]).
docs/vmap.md describes what is batched and how numtorch differs from torch.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

from .. import _creation
from .._core.tensor import Tensor
from ..ops.concatenation import cat
from ..utils._pytree import broadcast_prefix, tree_flatten, tree_unflatten
from .args import func_name, wraps
from .batched_tensor import BatchedTensor
from .batching import pop_level, push_level
from .sample_loop import flat_out_dims, run_per_sample

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
    ``out_dims``; ``func`` runs once, on batched tensors (docs/vmap.md).

    Args:
        in_dims: an int or None (not mapped) for every input, or a tuple with one entry per
            positional argument, nested like the argument (a prefix of its pytree).
        out_dims: an int, or a pytree prefix of the output; None leaves an output unstacked.
        randomness: ``"error"`` (random ops raise), ``"different"`` (each sample draws its
            own numbers) or ``"same"`` (every sample draws the same numbers).
        chunk_size: run the batch in chunks of this many samples (less memory at once).

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
        return _vmap(func, in_dims, out_dims, randomness, chunk_size, args, kwargs)

    return wrapped


def check_randomness(randomness: str) -> None:
    if randomness not in ("error", "different", "same"):
        raise RuntimeError(
            "Only allowed values for randomness are 'error', 'different', or 'same'. Got "
            f"{randomness}"
        )


class _RandomGuard:
    """Stands in for the default generator's twister while random ops must raise."""

    def __getattr__(self, name):
        raise RuntimeError(_RANDOM_ERROR)


@contextlib.contextmanager
def randomness_mode(randomness: str):
    """Random ops raise inside this block with ``"error"``; yields a function to call before
    each sample (``"same"`` rewinds the global generator there)."""
    check_randomness(randomness)
    gen = _creation.default_generator
    if randomness == "error":
        saved, guard = gen._bits, _RandomGuard()
        gen._bits = guard
        try:
            yield lambda: None
        finally:
            if gen._bits is guard:
                gen._bits = saved
    elif randomness == "same":
        state = gen.get_state()
        yield lambda: gen.set_state(state)
    else:
        yield lambda: None


def _vmap(func, in_dims, out_dims, randomness: str, chunk_size, args: tuple, kwargs: dict):
    name = func_name(func)
    _check_out_dims(out_dims, name)
    batch, flat_in_dims, flat_args, args_spec = _batched_inputs(in_dims, args, name)
    if batch == 0:
        return _empty_batch(func, flat_in_dims, flat_args, args_spec, out_dims, randomness, kwargs)
    if randomness == "different":  # each sample draws its own numbers
        with randomness_mode(randomness):
            return run_per_sample(
                func, flat_args, flat_in_dims, args_spec, batch, out_dims, kwargs, name
            )
    if chunk_size is None or chunk_size >= batch:
        return _run(func, flat_args, flat_in_dims, args_spec, batch, out_dims, randomness, kwargs)
    chunks = []
    for start in range(0, batch, chunk_size):
        size = min(chunk_size, batch - start)
        flat = [
            a if d is None else a.narrow(d, start, size) for a, d in zip(flat_args, flat_in_dims)
        ]
        chunks.append(_run(func, flat, flat_in_dims, args_spec, size, out_dims, randomness, kwargs))
    return _join_chunks(chunks, out_dims, name)


def _run(func, flat_args, flat_in_dims, args_spec, size, out_dims, randomness, kwargs):
    """One batched call of ``func`` at a new vmap level, its outputs unwrapped."""
    name = func_name(func)
    level = push_level(size, randomness)
    try:
        flat = [
            a if d is None else BatchedTensor._wrap(a, d, level.level)
            for a, d in zip(flat_args, flat_in_dims)
        ]
        with randomness_mode(randomness):
            output = func(*tree_unflatten(flat, args_spec), **kwargs)
    finally:
        pop_level(level)
    flat_out, spec = tree_flatten(output)
    dims_out = flat_out_dims(out_dims, output, spec, name)
    result = []
    for v, d in zip(flat_out, dims_out):
        batched = v.__class__ is BatchedTensor and v._level == level.level
        if d is None:
            if batched:
                raise ValueError(
                    f"vmap({name}, ...): `{name}` can not return a BatchedTensor when out_dim "
                    "is None"
                )
            result.append(v)
        elif not isinstance(v, Tensor):
            raise ValueError(
                f"vmap({name}, ...): `{name}` must only return Tensors, got type {type(v)}. "
                "Did you mean to set out_dims= to None for output?"
            )
        elif not -value_ndim(v) <= d < value_ndim(v):
            raise IndexError(
                f"Dimension out of range (expected to be in range of [{-value_ndim(v)}, "
                f"{value_ndim(v) - 1}], but got {d})"
            )
        elif batched:
            value = v._value
            d = d % value.ndim
            result.append(value if v._bdim == d else value.movedim(v._bdim, d))
        else:  # not mapped: the same value for every sample
            value = v.unsqueeze(0).expand((size, *v.shape))
            result.append(value if d in (0, -value.ndim) else value.movedim(0, d))
    return tree_unflatten(result, spec)


def value_ndim(v) -> int:
    """The number of dims of an output once its batch dim is back in."""
    return v.dim() + 1


def _join_chunks(chunks: list, out_dims, name: str):
    flat0, spec = tree_flatten(chunks[0])
    dims_out = flat_out_dims(out_dims, chunks[0], spec, name)
    columns = [tree_flatten(c)[0] for c in chunks]
    result = []
    for k, d in enumerate(dims_out):
        if d is None:
            result.append(flat0[k])
        else:
            result.append(cat([column[k] for column in columns], d))
    return tree_unflatten(result, spec)


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
    dims_out = flat_out_dims(out_dims, sample, spec, name)
    result = []
    for v, d in zip(flat_out, dims_out):
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
