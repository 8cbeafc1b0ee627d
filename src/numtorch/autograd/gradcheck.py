"""gradcheck and gradgradcheck: finite differences against the engine's Jacobians.

As in torch, inputs are perturbed in their own dtype (float32 inputs round the perturbation,
which is why float64 is recommended) and central differences ``(f(x+eps) - f(x-eps)) / 2eps``
are compared with the analytical Jacobian built one output element at a time.
"""

from __future__ import annotations

import warnings

from .._core import grad_mode
from .._tensor_queries import contiguous_format
from ..backend import xp
from .api import grad as autograd_grad


class GradcheckError(RuntimeError):
    """Raised by gradcheck when analytical and numerical gradients disagree."""


def _as_tuple(x):
    from .._core.tensor import Tensor

    return (x,) if isinstance(x, Tensor) else tuple(x)


def _differentiable_outputs(func, inputs):
    """The floating outputs (those that do not require grad have a zero Jacobian)."""
    from .._core.tensor import Tensor

    with grad_mode.enable_grad():
        outputs = _as_tuple(func(*inputs))
    return tuple(o for o in outputs if isinstance(o, Tensor) and o._data.dtype.kind in "fcV")


def _evaluate(func, inputs):
    from .._core.tensor import Tensor

    with grad_mode.no_grad():
        outputs = _as_tuple(func(*inputs))
    return [
        o._data.copy() for o in outputs if isinstance(o, Tensor) and o._data.dtype.kind in "fcV"
    ]


def _numerical_jacobian(func, inputs, wrt, n_outputs, eps):
    """jac[o][i] has shape (numel of input i, numel of output o)."""
    base = _evaluate(func, inputs)
    jac = [
        [xp.zeros((inputs[i]._data.size, base[o].size), dtype=base[o].dtype) for i in wrt]
        for o in range(n_outputs)
    ]
    for col, i in enumerate(wrt):
        data = inputs[i]._data  # perturbed in place, whatever its strides (row-major order)
        for j, index in enumerate(xp.ndindex(data.shape)):
            orig = data[index].copy()
            data[index] = orig - eps
            minus = _evaluate(func, inputs)
            data[index] = orig + eps
            plus = _evaluate(func, inputs)
            data[index] = orig
            for o in range(n_outputs):
                jac[o][col][j] = ((plus[o] - minus[o]) / (2 * eps)).reshape(-1)
    return jac


def _analytical_jacobian(outputs, inputs, wrt):
    from .._creation import zeros_like

    jac = [
        [xp.zeros((inputs[i]._data.size, o._data.size), dtype=o._data.dtype) for i in wrt]
        for o in outputs
    ]
    targets = [inputs[i] for i in wrt]
    for o_index, out in enumerate(outputs):
        if not out._requires_grad:
            continue
        for k in range(out._data.size):
            seed = zeros_like(out, memory_format=contiguous_format)  # (as torch's gradcheck)
            seed._data.reshape(-1)[k] = 1
            grads = autograd_grad(out, targets, seed, retain_graph=True, allow_unused=True)
            for col, g in enumerate(grads):
                if g is not None:
                    if g._data.shape != targets[col]._data.shape:
                        raise GradcheckError(
                            f"Gradient for input {wrt[col]} has shape {list(g._data.shape)} but "
                            f"the input has shape {list(targets[col]._data.shape)}"
                        )
                    jac[o_index][col][:, k] = g._data.reshape(-1)
    return jac


def _has_complex(func, inputs, wrt) -> bool:
    if any(inputs[i]._data.dtype.kind == "c" for i in wrt):
        return True
    return bool(wrt) and any(
        o._data.dtype.kind == "c" for o in _differentiable_outputs(func, inputs)
    )


def _as_real_function(func, inputs, wrt):
    """``func`` seen through ``view_as_real`` on its complex inputs and outputs, as torch's
    gradcheck checks complex functions: the real and imaginary parts separately (the
    conjugate Wirtinger gradient of a real loss is its gradient w.r.t. (re, im))."""
    from .. import view_as_complex, view_as_real

    complex_inputs = {i for i in wrt if inputs[i]._data.dtype.kind == "c"}
    real_inputs = tuple(
        view_as_real(t.detach()).clone().requires_grad_() if i in complex_inputs else t
        for i, t in enumerate(inputs)
    )

    def real_func(*args):
        with grad_mode.enable_grad():  # the complex inputs stay differentiable under no_grad
            args = [view_as_complex(a) if i in complex_inputs else a for i, a in enumerate(args)]
        outputs = _as_tuple(func(*args))
        return tuple(
            view_as_real(o.resolve_conj()) if o._data.dtype.kind == "c" else o for o in outputs
        )

    return real_func, real_inputs


def _fail(message, raise_exception):
    if raise_exception:
        raise GradcheckError(message)
    return False


def _format(array, shape):
    from .._core.tensor import Tensor

    return repr(Tensor._make(array.reshape(shape)))


def gradcheck(
    func,
    inputs,
    *,
    eps=1e-6,
    atol=1e-5,
    rtol=1e-3,
    raise_exception=True,
    nondet_tol=0.0,
    check_undefined_grad=True,
    check_grad_dtypes=False,
    check_batched_grad=False,
    check_batched_forward_grad=False,
    check_forward_ad=False,
    check_backward_ad=True,
    fast_mode=False,
    masked=None,
) -> bool:
    """Check ``func``'s gradients against finite differences for inputs that require grad.

    On failure the error names the output and input indices and shows both Jacobians.

    Example:
        >>> import numtorch as torch
        >>> x = torch.randn(3, dtype=torch.float64, requires_grad=True)
        >>> torch.autograd.gradcheck(torch.sin, (x,))
        True
    """
    from .._core.tensor import Tensor

    inputs = _as_tuple(inputs)
    wrt = [i for i, t in enumerate(inputs) if isinstance(t, Tensor) and t._requires_grad]
    if _has_complex(func, inputs, wrt):
        func, inputs = _as_real_function(func, inputs, wrt)
    if not wrt:
        raise ValueError(
            "gradcheck expects at least one input tensor to require gradient, but "
            "none of them have requires_grad=True."
        )
    for i in wrt:
        if inputs[i]._data.dtype != xp.float64:
            warnings.warn(
                f"Input #{i} requires gradient and is not a double precision floating point or "
                "complex. This check will likely fail if all the inputs are not of double "
                "precision floating point or complex. ",
                UserWarning,
                stacklevel=2,
            )
        data = inputs[i]._data
        if any(s == 0 and n > 1 for s, n in zip(data.strides, data.shape)):
            raise RuntimeError(
                f"The {i}th input has a dimension with stride 0. gradcheck only supports inputs "
                "that are non-overlapping to be able to compute the numerical gradients "
                "correctly. You should call .contiguous on the input before passing it to "
                "gradcheck."
            )
    outputs = _differentiable_outputs(func, inputs)
    numerical = _numerical_jacobian(func, inputs, wrt, len(outputs), eps)
    in_graph = [o._requires_grad for o in outputs]
    if not any(in_graph):
        # no output in the graph: as torch, the function must not depend on the inputs at all
        if not all(xp.allclose(n, 0, rtol=rtol, atol=atol) for per in numerical for n in per):
            return _fail("Numerical gradient for function expected to be zero", raise_exception)
    else:  # as torch, only outputs that require grad are compared (and numbered)
        outputs = tuple(o for o, keep in zip(outputs, in_graph) if keep)
        numerical = [n for n, keep in zip(numerical, in_graph) if keep]
    if check_forward_ad:
        forward = _forward_jacobian(func, inputs, wrt)
        if any(in_graph):  # the outputs compared above
            forward = [f for f, keep in zip(forward, in_graph) if keep]
        for o in range(len(outputs)):
            for col, i in enumerate(wrt):
                a, n = forward[o][col], numerical[o][col]
                if not xp.allclose(a, n, rtol=rtol, atol=atol):
                    shape = (n.shape[0], n.shape[1])
                    return _fail(
                        f"Jacobian computed with forward mode mismatch for output {o} with "
                        f"respect to input {i},\nnumerical:{_format(n, shape)}\n"
                        f"analytical:{_format(a, shape)}\n",
                        raise_exception,
                    )
    if not check_backward_ad:
        return True
    analytical = _analytical_jacobian(outputs, inputs, wrt)
    for o in range(len(outputs)):
        for col, i in enumerate(wrt):
            a, n = analytical[o][col], numerical[o][col]
            if not xp.allclose(a, n, rtol=rtol, atol=atol):
                shape = (n.shape[0], n.shape[1])
                return _fail(
                    f"Jacobian mismatch for output {o} with respect to input {i},\n"
                    f"numerical:{_format(n, shape)}\nanalytical:{_format(a, shape)}\n",
                    raise_exception,
                )
            if check_grad_dtypes and a.dtype != inputs[i]._data.dtype:
                return _fail("Gradient has dtype mismatch", raise_exception)
    again = _analytical_jacobian(outputs, inputs, wrt)
    for o in range(len(outputs)):
        for col in range(len(wrt)):
            if not xp.allclose(again[o][col], analytical[o][col], rtol=0, atol=nondet_tol):
                return _fail(
                    "Backward is not reentrant, i.e., running backward with same input and "
                    "grad_output multiple times gives different values, although analytical "
                    "gradient matches numerical gradient. The tolerance for nondeterminism was "
                    f"{nondet_tol}.",
                    raise_exception,
                )
    return True


def _forward_jacobian(func, inputs, wrt):
    """jac[o][i] as ``_numerical_jacobian``'s, one forward-mode call per input element.

    As torch's gradcheck, each column is a fresh call under its own dual level: a custom
    ``Function`` whose ``jvp`` consumes state its ``forward`` left on ``ctx`` sees one
    ``jvp`` per ``forward``."""
    from .._core.tensor import Tensor
    from .forward_grad import enter_level, exit_level, get_tangent, hidden_levels, set_tangent

    primals = [inputs[i].detach() for i in wrt]
    columns = []  # columns[k][o]: the flat tangent of output o along input element k
    for j, p in enumerate(primals):
        for e in range(p.numel()):
            level = enter_level()
            try:
                args = list(inputs)
                for i, q in zip(wrt, primals):
                    with hidden_levels(level):
                        dual = q.view_as(q)
                    tangent = xp.zeros(q._data.shape, dtype=q._data.dtype)
                    if q is p:
                        tangent.reshape(-1)[e] = 1
                    set_tangent(dual, level, Tensor._make(tangent))
                    args[i] = dual
                outputs = _differentiable_outputs(func, tuple(args))
                row = []
                for out in outputs:
                    t = get_tangent(out, level)
                    flat = (
                        xp.zeros(out.numel(), dtype=out._data.dtype)
                        if t is None
                        else t.detach()._data.reshape(-1)
                    )
                    row.append(flat)
                columns.append((j, row))
            finally:
                exit_level(level)
    if columns:
        sizes = [r.size for r in columns[0][1]]
    else:  # every input is empty
        sizes = [o.numel() for o in _differentiable_outputs(func, inputs)]
    return [
        [
            xp.stack([row[o] for j2, row in columns if j2 == j])
            if p.numel()
            else xp.zeros((0, size), dtype=p._data.dtype)
            for j, p in enumerate(primals)
        ]
        for o, size in enumerate(sizes)
    ]


def _random_like(output):
    """Uniform in [-1, 1) (in both parts for a complex output)."""
    from .. import complex as make_complex
    from .._creation import rand

    if output._data.dtype.kind != "c":
        return rand(output.shape, dtype=output.dtype) * 2 - 1
    real = output.dtype.to_real()
    return make_complex(
        rand(output.shape, dtype=real) * 2 - 1, rand(output.shape, dtype=real) * 2 - 1
    )


def gradgradcheck(
    func,
    inputs,
    grad_outputs=None,
    *,
    eps=1e-6,
    atol=1e-5,
    rtol=1e-3,
    gen_non_contig_grad_outputs=False,
    raise_exception=True,
    nondet_tol=0.0,
    check_undefined_grad=True,
    check_grad_dtypes=False,
    check_batched_grad=False,
    check_fwd_over_rev=False,
    check_rev_over_rev=True,
    fast_mode=False,
    masked=False,
) -> bool:
    """Check second derivatives: gradcheck of the function ``inputs -> grad(func(inputs))``."""
    from .._core.tensor import Tensor

    inputs = _as_tuple(inputs)
    wrt = [i for i, t in enumerate(inputs) if isinstance(t, Tensor) and t._requires_grad]
    if grad_outputs is None:
        outputs = [o for o in _differentiable_outputs(func, inputs) if o._requires_grad]
        grad_outputs = tuple(_random_like(o).requires_grad_() for o in outputs)
    grad_outputs = _as_tuple(grad_outputs)
    n = len(inputs)

    def first_derivative(*args):
        ins, gos = args[:n], args[n:]
        outs = [o for o in _differentiable_outputs(func, ins) if o._requires_grad]
        targets = [ins[i] for i in wrt]
        grads = autograd_grad(outs, targets, gos, create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(
        first_derivative,
        inputs + grad_outputs,
        eps=eps,
        atol=atol,
        rtol=rtol,
        raise_exception=raise_exception,
        nondet_tol=nondet_tol,
        check_grad_dtypes=check_grad_dtypes,
    )
