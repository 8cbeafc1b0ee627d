"""``torch.func.jacrev``, ``jacfwd`` and ``hessian``.

``jacrev`` is one batched backward walk whose cotangents are the rows of an identity matrix
over all output elements (``is_grads_batched``: a vmap over the rows, docs/vmap.md), split by
output and reshaped to ``output.shape + input.shape``. ``jacfwd`` pushes the identity over
all input elements through the function as batched tangents (autograd/forward_jacobian.py);
``hessian`` is ``jacfwd(jacrev(f))``, forward-over-reverse.
"""

from __future__ import annotations

from collections.abc import Callable

from .._core import grad_mode
from .._core.tensor import Tensor
from .._creation import zeros
from ..autograd.api import grad as autograd_grad
from ..autograd.forward_jacobian import ForwardColumns, jacobian_blocks
from ..autograd.function import func_transform
from ..backend import xp
from ..ops.concatenation import cat
from ..utils._pytree import tree_flatten, tree_unflatten
from .args import (
    check_argnums,
    check_aux_tensors,
    check_floating_primals,
    check_real,
    check_tensor_outputs,
    replace_args,
    slice_argnums,
    split_aux,
    wraps,
)
from .level import Level
from .vmap import randomness_mode

__all__ = ["hessian", "jacfwd", "jacrev"]


def jacrev(func: Callable, argnums=0, *, has_aux: bool = False, chunk_size: int | None = None):
    """The Jacobian of ``func`` with respect to the argument(s) at ``argnums``, as a new
    function: for each output, a tensor of shape ``output.shape + input.shape`` (a tuple of
    them for a tuple of ``argnums``; outputs and inputs may be pytrees).

    Args:
        chunk_size: compute at most this many rows of the Jacobian per backward walk.

    Example:
        >>> import numtorch as torch
        >>> from numtorch.func import jacrev
        >>> jacrev(lambda x: x ** 2)(torch.tensor([1.0, 2.0]))
        tensor([[2., 0.],
                [0., 4.]])
    """
    if not (chunk_size is None or chunk_size > 0):
        raise ValueError("jacrev: `chunk_size` should be greater than 0.")

    @wraps(func)
    def wrapper(*args):
        check_real("jacrev", args, is_input=True)
        return _jacobian(func, args, argnums, has_aux, chunk_size, forward=False)

    return wrapper


def jacfwd(func: Callable, argnums=0, has_aux: bool = False, *, randomness: str = "error"):
    """The Jacobian of ``func`` in forward mode, structured like ``jacrev``'s: one pass with
    a batched tangent per input, the standard basis over all input elements.

    Args:
        randomness: ``"error"`` (random ops inside ``func`` raise), ``"same"`` or
            ``"different"``, as for ``vmap``.

    Example:
        >>> import numtorch as torch
        >>> from numtorch.func import jacfwd
        >>> jacfwd(lambda x: x.sin().sum())(torch.tensor([0.0, 0.0]))
        tensor([1., 1.])
    """

    @wraps(func)
    def wrapper(*args):
        check_real("jacfwd", args, is_input=True)
        with randomness_mode(randomness):
            return _forward_jacobian(func, args, argnums, has_aux)

    return wrapper


def hessian(func: Callable, argnums=0):
    """The Hessian of ``func`` with respect to the argument(s) at ``argnums``: the Jacobian
    of its gradient, ``jacfwd(jacrev(func, argnums), argnums)``.

    Example:
        >>> import numtorch as torch
        >>> from numtorch.func import hessian
        >>> hessian(lambda x: (x ** 3).sum())(torch.tensor([1.0, 2.0]))
        tensor([[ 6.,  0.],
                [ 0., 12.]])
    """
    return jacfwd(jacrev(func, argnums), argnums)


def _jacobian(func, args: tuple, argnums, has_aux: bool, chunk_size, forward: bool):
    api = "jvp(f, primals, tangents)" if forward else "vjp(f, *primals)"
    level = Level()
    with grad_mode.enable_grad(), func_transform():
        argnums = check_argnums(argnums, len(args))
        primals = slice_argnums(args, argnums)
        if forward:
            check_floating_primals(tree_flatten(primals)[0])
        diff = level.inputs(primals)
        output = func(*replace_args(args, diff, argnums))
        aux = None
        if has_aux:
            output, aux = split_aux(output, api)
            aux = level.results(aux)
        flat_outputs, output_spec = tree_flatten(output)
        check_tensor_outputs(flat_outputs, api)
        if not forward:
            for out in flat_outputs:
                if not (out.is_floating_point() or out.dtype.is_complex):
                    raise RuntimeError(
                        "vjp(f, ...): All outputs of f must be floating-point or complex "
                        f"Tensors, got Tensor with dtype {out.dtype}"
                    )
        check_real("jacfwd" if forward else "jacrev", flat_outputs, is_input=False)
        # The structure of the arguments differentiated, always as a tuple over argnums.
        flat_inputs, inputs_spec = tree_flatten((diff,) if isinstance(argnums, int) else diff)
        create_graph = level.records(flat_outputs)
        columns = _columns(flat_outputs, flat_inputs, create_graph, chunk_size)
    numels = [out.numel() for out in flat_outputs]
    per_output = [[] for _ in flat_outputs]
    for column, inp in zip(columns, flat_inputs):
        parts = column.split(numels, 0) if len(flat_outputs) > 1 else (column,)
        for blocks, part, out in zip(per_output, parts, flat_outputs):
            block = part.reshape((*out.shape, *inp.shape))
            if forward and block.dtype != out.dtype:
                # Forward mode carries tangents in the output's dtype (zeros for integers).
                block = (
                    block.to(out.dtype)
                    if out.is_floating_point()
                    else zeros(block.shape, dtype=out.dtype)
                )
            blocks.append(level.result(block) if create_graph else block)
    jac = [tree_unflatten(blocks, inputs_spec) for blocks in per_output]
    if isinstance(argnums, int):
        jac = [j[0] for j in jac]
    jac = tree_unflatten(jac, output_spec)
    return (jac, aux) if has_aux else jac


def _forward_jacobian(func, args: tuple, argnums, has_aux: bool):
    api = "jvp(f, primals, tangents)"
    argnums = check_argnums(argnums, len(args))
    primals = slice_argnums(args, argnums)
    # The arguments differentiated, always as a tuple over argnums.
    flat_primals, inputs_spec = tree_flatten((primals,) if isinstance(argnums, int) else primals)
    for p in flat_primals:
        if not isinstance(p, Tensor):
            raise ValueError(f"Thing passed to transform API must be Tensor, got {type(p)}")
    check_floating_primals(flat_primals)
    with ForwardColumns(flat_primals) as columns, func_transform():
        duals = tree_unflatten(columns.duals, inputs_spec)
        output = func(*replace_args(args, duals[0] if isinstance(argnums, int) else duals, argnums))
        aux = None
        if has_aux:
            output, aux = split_aux(output, api)
            check_aux_tensors(aux)
        flat_outputs, output_spec = tree_flatten(output)
        check_tensor_outputs(flat_outputs, api)
        check_real("jacfwd", flat_outputs, is_input=False)
        blocks = [jacobian_blocks(columns.column(out), out, flat_primals) for out in flat_outputs]
    jac = [tree_unflatten(b, inputs_spec) for b in blocks]
    if isinstance(argnums, int):
        jac = [j[0] for j in jac]
    jac = tree_unflatten(jac, output_spec)
    return (jac, aux) if has_aux else jac


def _basis(out: Tensor, start: int, stop: int, offset: int):
    """Rows ``start:stop`` of an identity over all output elements, restricted to the
    columns of ``out`` (which begin at ``offset``), shaped ``(rows, *out.shape)``."""
    rows, n = stop - start, out.numel()
    block = xp.zeros((rows, n), dtype=out._data.dtype)
    hit = xp.arange(max(start, offset), min(stop, offset + n))
    block[hit - start, hit - offset] = 1
    return Tensor._make(block.reshape((rows, *out.shape)))


def _columns(outputs, inputs, create_graph: bool, chunk_size):
    """For each input, the Jacobian rows of all outputs: shape ``(total, *input.shape)``."""
    total = sum(out.numel() for out in outputs)
    live = [out for out in outputs if out._requires_grad and out.is_floating_point()]
    if not live or total == 0:
        return [zeros((total, *inp.shape), dtype=inp.dtype) for inp in inputs]
    offsets, offset = [], 0
    for out in outputs:
        offsets.append(offset)
        offset += out.numel()
    step = chunk_size or total
    chunks = []
    for start in range(0, total, step):
        stop = min(start + step, total)
        basis = [
            _basis(out, start, stop, off)
            for out, off in zip(outputs, offsets)
            if out._requires_grad and out.is_floating_point()
        ]
        grads = autograd_grad(
            tuple(live),
            tuple(inputs),
            tuple(basis),
            retain_graph=True,
            create_graph=create_graph,
            allow_unused=True,
            is_grads_batched=True,
        )
        chunks.append(
            [
                zeros((stop - start, *inp.shape), dtype=inp.dtype) if g is None else g
                for g, inp in zip(grads, inputs)
            ]
        )
    if len(chunks) == 1:
        return chunks[0]
    return [cat([c[k] for c in chunks], 0) for k in range(len(inputs))]
