"""torch.autograd.functional: vjp, jvp, jacobian, hessian, hvp, vhp.

Every transform runs the user function on fresh leaves (so inputs the function also
captures by closure stay distinct), then calls ``autograd.grad``. ``jvp`` and ``hvp`` use the
double-backward trick: the vjp ``u -> J^T u`` is linear in ``u``, so differentiating it with
respect to ``u`` in the direction ``v`` gives ``J v``. ``vectorize=True`` computes all rows of
a Jacobian in one batched backward walk (``vmap`` over the rows: docs/vmap.md).
"""

from __future__ import annotations

from .._core import grad_mode
from .._core import tensor as _tensor
from ..backend import xp
from .functional_args import (
    V_FOR_INPUT,
    as_tuple,
    autograd_grad,
    check_requires_grad,
    check_scalar_output,
    detached,
    fill_in_zeros,
    fresh_leaves,
    prepare,
    unpack,
)

__all__ = ["hessian", "hvp", "jacobian", "jvp", "vhp", "vjp"]


# -- public API --------------------------------------------------------------------------------
def vjp(func, inputs, v=None, create_graph: bool = False, strict: bool = False):
    """``(func(inputs), v^T J)``: the vector-Jacobian product at ``inputs``.

    Example:
        >>> import numtorch as torch
        >>> from numtorch.autograd.functional import vjp
        >>> vjp(lambda x: x ** 2, torch.tensor([1.0, 2.0]), torch.ones(2))
        (tensor([1., 4.]), tensor([2., 4.]))
    """
    with grad_mode.enable_grad():
        is_inputs_tuple, inputs, v, is_outputs_tuple, outputs = prepare(
            func, inputs, v, "vjp", create_graph, strict, None
        )
    with grad_mode.set_grad_enabled(bool(create_graph) or grad_mode.is_grad_enabled()):
        grads = autograd_grad(outputs, inputs, v, create_graph=create_graph)
        result = fill_in_zeros(grads, inputs, strict, create_graph, "back")
    return (
        unpack(detached(outputs, create_graph), is_outputs_tuple),
        unpack(detached(result, create_graph), is_inputs_tuple),
    )


def jvp(func, inputs, v=None, create_graph: bool = False, strict: bool = False):
    """``(func(inputs), J v)``: the Jacobian-vector product, by the double-backward trick.

    Example:
        >>> import numtorch as torch
        >>> from numtorch.autograd.functional import jvp
        >>> jvp(lambda x: x ** 2, torch.tensor([1.0, 2.0]), torch.ones(2))
        (tensor([1., 4.]), tensor([2., 4.]))
    """
    from .._creation import zeros_like

    with grad_mode.enable_grad():
        is_inputs_tuple, inputs, v, is_outputs_tuple, outputs = prepare(
            func, inputs, v, "jvp", create_graph, strict, V_FOR_INPUT
        )
        # The vjp is linear in grad_outputs: their value never enters the double-backward
        # graph, only their position does (zeros keep NaN/Inf out).
        grad_outputs = tuple(zeros_like(out, requires_grad=True) for out in outputs)
        grad_inputs = autograd_grad(outputs, inputs, grad_outputs, create_graph=True)
        check_requires_grad(grad_inputs, "grad_inputs", strict)
    with grad_mode.set_grad_enabled(bool(create_graph) or grad_mode.is_grad_enabled()):
        grads = autograd_grad(grad_inputs, grad_outputs, v, create_graph=create_graph)
        result = fill_in_zeros(grads, outputs, strict, create_graph, "back_trick")
    return (
        unpack(detached(outputs, create_graph), is_outputs_tuple),
        unpack(detached(result, create_graph), is_outputs_tuple),
    )


def _standard_basis(tensors, numels):
    """One-hot rows over the concatenation of ``tensors`` (an ``N x N`` identity split by
    tensor), each block with its tensor's dtype."""
    total = sum(numels)
    blocks = []
    start = 0
    for t, n in zip(tensors, numels):
        block = xp.zeros((total, n), dtype=t._data.dtype)
        block[xp.arange(start, start + n), xp.arange(n)] = 1
        blocks.append(_tensor.Tensor._make(block))
        start += n
    return tuple(blocks)


def _jacobian_vectorized(outputs, inputs, create_graph: bool):
    """Jacobian blocks ``[output][input]`` from one batched backward over one-hot rows."""
    from .._creation import zeros
    from .api import _batched_grad

    numels = tuple(out.nelement() for out in outputs)
    total = sum(numels)
    basis = _standard_basis(outputs, numels)
    differentiable = [k for k, out in enumerate(outputs) if out.requires_grad]
    columns = [None] * len(inputs)
    if differentiable and total:
        columns = _batched_grad(
            tuple(outputs[k].reshape(-1) for k in differentiable),
            inputs,
            tuple(basis[k] for k in differentiable),
            create_graph,
            create_graph,
            True,
            False,
        )
    blocks = []
    for column, inp in zip(columns, inputs):
        if column is None:
            column = zeros((total, *inp.shape), dtype=inp.dtype)
        parts = column.split(list(numels), 0) if len(outputs) > 1 else (column,)
        blocks.append([p.reshape((*out.shape, *inp.shape)) for p, out in zip(parts, outputs)])
    return tuple(zip(*blocks))


def _jacobian_rows(outputs, inputs, create_graph: bool, strict: bool):
    """Jacobian blocks ``[output][input]`` with one backward per output element (torch's
    default loop)."""
    from .._creation import zeros, zeros_like
    from ..ops.concatenation import stack

    jacobian = []
    for i, out in enumerate(outputs):
        rows = [[] for _ in inputs]
        flat = out.reshape(-1)
        for j in range(out.nelement()):
            vj = autograd_grad((flat[j],), inputs, retain_graph=True, create_graph=create_graph)
            for k, (row, g, inp) in enumerate(zip(rows, vj, inputs)):
                if g is not None:
                    if strict and create_graph and not g.requires_grad:
                        raise RuntimeError(
                            "The jacobian of the user-provided function is independent of "
                            f"input {i}. This is not allowed in strict mode when "
                            "create_graph=True."
                        )
                    row.append(g)
                else:
                    if strict:
                        raise RuntimeError(
                            f"Output {i} of the user-provided function is independent of "
                            f"input {k}. This is not allowed in strict mode."
                        )
                    row.append(zeros_like(inp))
        jacobian.append(
            tuple(
                stack(row).reshape((*out.shape, *inp.shape))
                if row
                else zeros((*out.shape, *inp.shape), dtype=inp.dtype)
                for row, inp in zip(rows, inputs)
            )
        )
    return tuple(jacobian)


def _jacobian_forward(func, inputs, strict: bool, vectorize: bool):
    """``strategy="forward-mode"``: every column ``J e_k`` in one forward pass (batched
    tangents, autograd/forward_jacobian.py)."""
    if strict:
        raise RuntimeError(
            'torch.autograd.functional.jacobian: `strict=True` and `strategy="forward-mode"` '
            "are not supported together (yet). Please either set `strict=False` or "
            '`strategy="reverse-mode"`.'
        )
    if not vectorize:
        raise NotImplementedError(
            "Computing Jacobian using forward-AD or forward-over-reverse Hessian is"
            "only implemented for `vectorize=True`."
        )
    from .forward_jacobian import ForwardColumns, jacobian_blocks

    is_inputs_tuple, inputs = as_tuple(inputs, "inputs", "jacobian")
    with ForwardColumns(list(inputs)) as columns:
        is_outputs_tuple, outputs = as_tuple(
            func(*columns.duals), "outputs of the user-provided function", "jacobian"
        )
        # not detached: as torch's, they keep whatever history the function gave them
        jac = [jacobian_blocks(columns.column(out), out, list(inputs)) for out in outputs]
    # torch returns lists here (not tuples as in reverse mode); keep its structure.
    return unpack(jac, (is_outputs_tuple, is_inputs_tuple))


def jacobian(
    func,
    inputs,
    create_graph: bool = False,
    strict: bool = False,
    vectorize: bool = False,
    strategy: str = "reverse-mode",
):
    """The Jacobian of ``func`` at ``inputs``: one tensor of shape ``out.shape + in.shape``,
    a tuple when either side is a tuple, a tuple of tuples ``[output][input]`` when both are.

    Args:
        vectorize: compute all rows in one batched backward instead of one per output element.
        strategy: ``"reverse-mode"``, or ``"forward-mode"`` (needs ``vectorize=True``; done by
            the double-backward trick).

    Example:
        >>> import numtorch as torch
        >>> from numtorch.autograd.functional import jacobian
        >>> jacobian(lambda x: x ** 2, torch.tensor([1.0, 2.0]))
        tensor([[2., 0.],
                [0., 4.]])
    """
    if strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError(
            'Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your '
            'function has more outputs than inputs, "forward-mode" tends to be more '
            'performant. Otherwise, prefer to use "reverse-mode".'
        )
    if strategy == "forward-mode":
        if create_graph:
            raise NotImplementedError(
                "torch.autograd.functional.jacobian: `create_graph=True` and "
                '`strategy="forward-mode"` are not supported together (yet). Please either '
                'set `create_graph=False` or `strategy="reverse-mode"`.'
            )
        return _jacobian_forward(func, inputs, strict, vectorize)
    with grad_mode.enable_grad():
        is_inputs_tuple, inputs = as_tuple(inputs, "inputs", "jacobian")
        inputs = fresh_leaves(inputs, create_graph, need_graph=True)
        is_outputs_tuple, outputs = as_tuple(
            func(*inputs), "outputs of the user-provided function", "jacobian"
        )
        check_requires_grad(outputs, "outputs", strict)
        if vectorize and strict:
            raise RuntimeError(
                "torch.autograd.functional.jacobian: `strict=True` and `vectorized=True` "
                "are not supported together. Please either set `strict=False` or "
                "`vectorize=False`."
            )
        if any(o.numel() == 0 for o in outputs):
            if not vectorize:  # torch stacks no rows and fails
                raise RuntimeError("stack expects a non-empty TensorList")
            if sum(o.numel() for o in outputs) == 0 and any(o.requires_grad for o in outputs):
                # a batch of no basis rows reaches autograd.grad, which reads its first row;
                # outputs outside the graph never get there (their Jacobian is zeros)
                raise IndexError("index 0 is out of bounds for dimension 0 with size 0")
        if vectorize:
            jac = _jacobian_vectorized(outputs, inputs, create_graph)
        else:
            jac = _jacobian_rows(outputs, inputs, create_graph, strict)
        jac = detached(jac, create_graph)
    return unpack(jac, (is_outputs_tuple, is_inputs_tuple))


def hessian(
    func,
    inputs,
    create_graph: bool = False,
    strict: bool = False,
    vectorize: bool = False,
    outer_jacobian_strategy: str = "reverse-mode",
):
    """The Hessian of the scalar function ``func`` at ``inputs`` (the Jacobian of its
    gradient); a tuple of tuples ``[i][j]`` for a tuple of inputs.

    Example:
        >>> import numtorch as torch
        >>> from numtorch.autograd.functional import hessian
        >>> hessian(lambda x: (x ** 3).sum(), torch.tensor([1.0, 2.0]))
        tensor([[ 6.,  0.],
                [ 0., 12.]])
    """
    is_inputs_tuple, inputs = as_tuple(inputs, "inputs", "hessian")
    if outer_jacobian_strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode".')

    def single_output(*inp):
        out = func(*inp)
        is_tuple, outs = as_tuple(out, "outputs of the user-provided function", "hessian")
        check_requires_grad(outs, "outputs", strict)
        check_scalar_output(outs, is_tuple, "hessian")
        return out.squeeze()

    def jac_func(*inp):
        if outer_jacobian_strategy == "forward-mode":
            inp = tuple(t.requires_grad_(True) for t in inp)
        jac = jacobian(single_output, inp, create_graph=True)
        check_requires_grad(jac, "jacobian", strict)
        return jac

    result = jacobian(
        jac_func,
        inputs,
        create_graph=create_graph,
        strict=strict,
        vectorize=vectorize,
        strategy=outer_jacobian_strategy,
    )
    return unpack(result, (is_inputs_tuple, is_inputs_tuple))


def vhp(func, inputs, v=None, create_graph: bool = False, strict: bool = False):
    """``(func(inputs), v^T H)`` for a scalar function ``func``.

    Example:
        >>> import numtorch as torch
        >>> from numtorch.autograd.functional import vhp
        >>> vhp(lambda x: (x ** 3).sum(), torch.tensor([1.0, 2.0]), torch.ones(2))
        (tensor(9.), tensor([ 6., 12.]))
    """
    with grad_mode.enable_grad():
        is_inputs_tuple, inputs, v, is_outputs_tuple, outputs = prepare(
            func, inputs, v, "vhp", create_graph, strict, V_FOR_INPUT
        )
        check_scalar_output(outputs, is_outputs_tuple, "vhp")
        jac = autograd_grad(outputs, inputs, create_graph=True)
        check_requires_grad(jac, "jacobian", strict)
    with grad_mode.set_grad_enabled(bool(create_graph) or grad_mode.is_grad_enabled()):
        grads = autograd_grad(jac, inputs, v, create_graph=create_graph)
        result = fill_in_zeros(grads, inputs, strict, create_graph, "double_back")
    return (
        unpack(detached(outputs, create_graph), is_outputs_tuple),
        unpack(detached(result, create_graph), is_inputs_tuple),
    )


def hvp(func, inputs, v=None, create_graph: bool = False, strict: bool = False):
    """``(func(inputs), H v)`` for a scalar function ``func`` (double-backward trick; for a
    twice continuously differentiable ``func`` this equals ``vhp``, which is cheaper).

    Example:
        >>> import numtorch as torch
        >>> from numtorch.autograd.functional import hvp
        >>> hvp(lambda x: (x ** 3).sum(), torch.tensor([1.0, 2.0]), torch.ones(2))
        (tensor(9.), tensor([ 6., 12.]))
    """
    from .._creation import zeros_like

    with grad_mode.enable_grad():
        is_inputs_tuple, inputs, v, is_outputs_tuple, outputs = prepare(
            func, inputs, v, "hvp", create_graph, strict, V_FOR_INPUT
        )
        check_scalar_output(outputs, is_outputs_tuple, "hvp")
        jac = autograd_grad(outputs, inputs, create_graph=True)
        check_requires_grad(jac, "jacobian", strict)
        grad_jac = tuple(zeros_like(t, requires_grad=True) for t in inputs)
        double_back = autograd_grad(jac, inputs, grad_jac, create_graph=True)
        check_requires_grad(jac, "hessian", strict)
    with grad_mode.set_grad_enabled(bool(create_graph) or grad_mode.is_grad_enabled()):
        grads = autograd_grad(double_back, grad_jac, v, create_graph=create_graph)
        result = fill_in_zeros(grads, inputs, strict, create_graph, "double_back_trick")
    return (
        unpack(detached(outputs, create_graph), is_outputs_tuple),
        unpack(detached(result, create_graph), is_inputs_tuple),
    )
