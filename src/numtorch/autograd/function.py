"""Custom autograd Functions: ``class Exp(Function)`` with static forward and backward.

The context ``ctx`` *is* the backward node (``ExpBackward``), as in torch: attributes set on
``ctx`` are visible on ``grad_fn``. Outputs saved with ``save_for_backward`` are stored without
a reference to themselves (Note [Saved outputs and cycles]), so no cycle through ``ctx``.
"""

from __future__ import annotations

import contextlib
import functools
import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .._core import grad_mode
from .._core.anomaly_mode import record_forward_trace
from .._core.graph import Node, engine_owned, freed_error, next_sequence_nr
from .._core.inplace import check_inplace
from .._core.observers import dispatch
from .._core.saved import SavedTensor
from .._core.tensor import Tensor
from .._creation import zeros
from . import forward_function, forward_grad, forward_inplace, graph  # noqa: F401

_FREED = object()
_SETUP_CONTEXT = (
    "In order to use an autograd.Function with functorch transforms (vmap, grad, jvp, jacrev, "
    "...), it must override the setup_context staticmethod. For more details, please see "
    "https://pytorch.org/docs/main/notes/extending.func.html"
)


class _Transforms:
    depth = 0  # torch.func transforms (grad, vjp, jvp, jacrev, jacfwd) running now


def wrapped_by_transform(*tensors) -> bool:
    """Whether torch would see these tensors wrapped by torch.func (a transform running, or
    batched by vmap): its "tensor subclass-like" test, under which some backward formulas
    take an out-of-place form instead of writing into a fresh tensor."""
    return bool(_Transforms.depth) or any(t._batched for t in tensors)


@contextlib.contextmanager
def func_transform():
    """Marks a torch.func transform running: Functions without ``setup_context`` are
    refused inside it, as torch refuses them."""
    _Transforms.depth += 1
    try:
        yield
    finally:
        _Transforms.depth -= 1


def _forward_unimplemented(ctx, *args, **kwargs):
    raise NotImplementedError(
        "You must implement the forward function for custom autograd.Function."
    )


def _backward_unimplemented(ctx, *grad_outputs):
    raise NotImplementedError(
        "You must implement either the backward or vjp method for "
        "your custom autograd.Function to use it with backward mode "
        "AD."
    )


class FunctionCtx:
    """What ``forward`` can tell ``backward``: saved tensors, dirty and non-differentiable
    outputs, and whether to materialize missing gradients as zeros."""

    to_save: tuple = ()
    dirty_tensors: tuple = ()
    non_differentiable: tuple = ()
    materialize_grads = True
    needs_input_grad: tuple = ()

    def save_for_backward(self, *tensors) -> None:
        """Save tensors (inputs or outputs, or None) for ``backward``; checked for in-place
        changes when read back through ``saved_tensors``."""
        self.to_save = tensors

    def save_for_forward(self, *tensors) -> None:
        self.saved_for_forward = tensors

    def mark_dirty(self, *tensors) -> None:
        """Declare inputs that ``forward`` modified in place (and returns)."""
        self.dirty_tensors = tensors

    def mark_non_differentiable(self, *tensors) -> None:
        """Declare outputs that get no gradient (e.g. indices)."""
        self.non_differentiable = tensors

    def set_materialize_grads(self, value: bool) -> None:
        """If False, ``backward`` receives None (not zeros) for outputs without gradient."""
        self.materialize_grads = value


class BackwardCFunction(Node, FunctionCtx):
    """The node of a custom Function: runs the user's ``backward``."""

    _forward_cls = None
    _saved = ()
    _is_tensor_arg: tuple = ()
    _output_meta: tuple = ()

    def __repr__(self) -> str:
        # torch prints custom nodes with their module: <torch.autograd.function.XBackward ...>
        cls = type(self)
        return f"<{cls.__module__}.{cls.__qualname__} object at {hex(id(self))}>"

    @property
    def saved_tensors(self) -> tuple:
        saved = self._saved
        if saved is _FREED:
            raise freed_error(self)
        return tuple(s.unpack(self) if isinstance(s, SavedTensor) else s for s in saved)

    saved_variables = saved_tensors

    def _apply(self, grad_outputs: tuple) -> tuple:
        if self._saved is _FREED:
            raise freed_error(self)
        grads = list(grad_outputs)
        if self.materialize_grads:
            for i, (g, meta) in enumerate(zip(grads, self._output_meta)):
                if g is None and meta is not None:
                    grads[i] = zeros(meta[0], dtype=meta[1])
        cls = self._forward_cls
        user_backward = cls.backward
        if cls.vjp is not Function.vjp:  # torch's alias: a Function may define vjp instead
            if user_backward is not Function.backward:
                raise RuntimeError(
                    "Implementing both 'backward' and 'vjp' for a custom Function is not "
                    "allowed. You should only implement one of them."
                )
            user_backward = cls.vjp
        try:
            result = user_backward(self, *grads)
        except Exception as error:
            _annotate(error, self)
            raise
        if not isinstance(result, tuple):
            result = (result,)
        expected = len(self._is_tensor_arg)
        if len(result) != expected:
            if len(result) < expected or any(g is not None for g in result[expected:]):
                raise RuntimeError(
                    f"function {self.name()} returned an incorrect number of gradients "
                    f"(expected {expected}, got {len(result)})"
                )
            result = result[:expected]
        grads_in = []
        for position, (g, is_tensor) in enumerate(zip(result, self._is_tensor_arg)):
            if is_tensor:
                grads_in.append(engine_owned(g) if isinstance(g, Tensor) else g)
            elif g is not None:
                raise RuntimeError(
                    f"function {self.name()} returned a gradient different than None at "
                    f"position {position + 1}, but the corresponding forward input was not a "
                    "Variable"
                )
        return tuple(grads_in)

    def _release(self) -> None:
        if self._saved:
            self._saved = _FREED


def _annotate(error: Exception, node) -> None:
    # Beyond torch: say which custom Function failed (once: nested backwards would repeat it).
    notes = getattr(error, "__notes__", ())
    if not any(note.startswith("Raised in the backward of ") for note in notes):
        error.add_note(
            f"Raised in the backward of {node.name()}, the node of the custom Function "
            f"{node._forward_cls.__qualname__}."
        )


class FunctionMeta(type):
    """Creates the backward node class ``<Name>Backward`` for every Function subclass."""

    def __init__(cls, name, bases, attrs):
        cls._backward_cls = type(
            name + "Backward",
            (BackwardCFunction,),
            {"_forward_cls": cls, "__module__": __name__},  # torch's module, not the user's
        )
        super().__init__(name, bases, attrs)


class Function(FunctionCtx, metaclass=FunctionMeta):
    """Base class for custom differentiable operations.

    Example:
        >>> import numtorch as torch
        >>> class Exp(torch.autograd.Function):
        ...     @staticmethod
        ...     def forward(ctx, i):
        ...         result = i.exp()
        ...         ctx.save_for_backward(result)
        ...         return result
        ...     @staticmethod
        ...     def backward(ctx, grad_output):
        ...         result, = ctx.saved_tensors
        ...         return grad_output * result
        >>> x = torch.tensor([1.0], requires_grad=True)
        >>> y = Exp.apply(x); y.backward(); x.grad
        tensor([2.7183])
    """

    def __init__(self, *args, **kwargs):
        warnings.warn(
            f"{self.__class__} should not be instantiated. Methods on autograd functions are all "
            "static, so you should invoke them on the class itself. Instantiating an autograd "
            "function will raise an error in a future version of PyTorch.",
            DeprecationWarning,
            stacklevel=2,
        )

    def __call__(self, *args, **kwargs):
        raise RuntimeError(
            "Legacy autograd function with non-static forward method is deprecated. Please use "
            "new-style autograd function with static forward method. (Example: "
            "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)"
        )

    if TYPE_CHECKING:
        # subclasses give forward and backward their own parameters, as torch's do; callables
        # rather than methods, so that a type checker accepts any of them as an override
        forward: Callable[..., Any]
        backward: Callable[..., Any]
    else:
        forward = staticmethod(_forward_unimplemented)
        backward = staticmethod(_backward_unimplemented)

    @staticmethod
    def setup_context(ctx, inputs, output):
        raise NotImplementedError("setup_context is not implemented.")

    vjp = backward

    @staticmethod
    def jvp(ctx, *grad_inputs):
        raise NotImplementedError(
            "You must implement the jvp function for custom autograd.Function to use it with "
            "forward mode AD."
        )

    @classmethod
    def apply(cls, *args, **kwargs) -> Any:
        custom_setup = cls.setup_context is not Function.setup_context
        if _Transforms.depth or dispatch.batching is not None:
            if not custom_setup:
                raise RuntimeError(_SETUP_CONTEXT)
            if dispatch.batching is not None:
                # the Function's batching rule; imported here because func builds on autograd
                from ..func.function_rules import function_vmap

                result = function_vmap(cls, args, kwargs)
                if result is not NotImplemented:
                    return result
        ctx = cls._backward_cls()
        is_tensor = tuple(isinstance(a, Tensor) for a in args)
        record = grad_mode.is_grad_enabled() and any(
            t and a._requires_grad for t, a in zip(is_tensor, args)
        )
        ctx.needs_input_grad = tuple(
            record and t and a._requires_grad for t, a in zip(is_tensor, args)
        )
        dual = forward_grad.active_levels() and forward_function.dual_levels(args)
        with grad_mode.no_grad(), forward_grad.hidden_levels(0 if dual else 1 << 30):
            if custom_setup:
                outputs = cls.forward(*args, **kwargs)
                cls.setup_context(ctx, args, outputs)
            else:
                outputs = cls.forward(ctx, *args, **kwargs)
        if not record:
            ctx._saved = tuple(ctx.to_save)
            result = outputs
        else:
            result = _connect(ctx, args, is_tensor, outputs)
        if dual:
            forward_function.function_jvp(cls, ctx, args, result, dual, Function.jvp)
        return result


def _connect(ctx, args, is_tensor, outputs):
    """Make ``ctx`` the grad_fn of the outputs and store what it saved."""
    ctx._sequence_nr = next_sequence_nr()
    ctx._is_tensor_arg = is_tensor
    tensor_args = [a for a, t in zip(args, is_tensor) if t]
    ctx.next_functions = tuple(a._edge() for a in tensor_args)
    ctx._input_meta = tuple(
        (a._data.shape, a._data.dtype) if a._requires_grad else None for a in tensor_args
    )
    as_tuple = isinstance(outputs, tuple)
    outs = list(outputs) if as_tuple else [outputs]
    dirty = {id(t) for t in ctx.dirty_tensors}
    non_diff = {id(t) for t in ctx.non_differentiable}
    inputs_by_id = {id(a): a for a in tensor_args}
    metas = []
    fn_name = ctx.name().removesuffix("Backward")
    for nr, out in enumerate(outs):
        if not isinstance(out, Tensor):
            metas.append(None)
            continue
        if id(out) in inputs_by_id and id(out) not in dirty:
            out = out.view_as(out)  # returning an input unchanged: a new alias gets the history
        elif id(out) in dirty:
            if out._requires_grad and out._grad_fn is None and grad_mode.is_grad_enabled():
                # torch's wording here: the Function already changed the leaf
                raise RuntimeError(
                    "a leaf Variable that requires grad has been used in an in-place operation."
                )
            with grad_mode.enable_grad():
                check_inplace(out, f"{ctx.name()} (mark_dirty)")
            out._bump_version()  # as torch: a dirty output counts as modified once more
        if out._base is not None and id(out) not in dirty:
            out._base = None  # a view made inside forward belongs to this Function, not the base
            out._view_steps = None
            # torch keeps it a view "created in a custom Function": in-place changes of it are
            # refused (check_inplace), as they would bypass this Function's backward
            out._custom_function_view = (nr, fn_name)
        metas.append((out._data.shape, out._data.dtype))
        if id(out) not in non_diff and out._data.dtype.kind in "fcV":
            out._grad_fn = ctx
            out._output_nr = nr
            out._requires_grad = True
        outs[nr] = out
    ctx._num_outputs = len(outs)
    ctx._output_meta = tuple(metas)
    out_ids = {id(o) for o in outs}
    for i, t in enumerate(ctx.to_save):
        if t is not None and not isinstance(t, Tensor):
            raise TypeError(
                "save_for_backward can only save variables, but argument "
                f"{i} is of type {type(t).__name__}"
            )
    ctx._saved = tuple(
        None if t is None else SavedTensor(t, id(t) in out_ids) if isinstance(t, Tensor) else t
        for t in ctx.to_save
    )
    ctx.to_save = ()
    if ctx._anomaly_trace is None and dispatch.anomaly:
        record_forward_trace(ctx)
    return tuple(outs) if as_tuple else outs[0]


class Error(Node):
    """Raises when differentiated: the backward of a once_differentiable Function."""

    def __init__(self, message, edges, metas):
        self.message = message
        self.next_functions = edges
        self._input_meta = metas
        self._sequence_nr = next_sequence_nr()

    def name(self) -> str:
        return "Error"

    def _apply(self, grad_outputs):
        raise RuntimeError(self.message)


def once_differentiable(backward):
    """Mark a Function's ``backward`` as not differentiable itself: it runs without recording,
    and differentiating its result raises a clear error."""

    @functools.wraps(backward)
    def wrapper(ctx, *grads):
        with grad_mode.no_grad():
            outputs = backward(ctx, *grads)
        if not grad_mode.is_grad_enabled():
            return outputs
        if not any(isinstance(g, Tensor) and g._requires_grad for g in grads):
            return outputs
        as_tuple = isinstance(outputs, tuple)
        # As torch's DelayedError, the node hangs off fresh leaves, not off the grads: only a
        # backward that runs the whole graph raises; autograd.grad(..., inputs) sees None.
        fakes = [
            o.detach().requires_grad_()
            for o in (outputs if as_tuple else (outputs,))
            if isinstance(o, Tensor) and o._data.dtype.kind in "fcV"
        ]
        node = Error(
            "trying to differentiate twice a function that was marked with @once_differentiable",
            tuple(f._edge() for f in fakes),
            tuple((f._data.shape, f._data.dtype) for f in fakes),
        )
        wrapped = []
        for o in outputs if as_tuple else (outputs,):
            if isinstance(o, Tensor) and o._data.dtype.kind in "fcV":
                o = o.detach()
                o._grad_fn = node
                o._requires_grad = True
            wrapped.append(o)
        return tuple(wrapped) if as_tuple else wrapped[0]

    return wrapper


class InplaceFunction(Function):
    def __init__(self, inplace=False):
        self.inplace = inplace


class NestedIOFunction(Function):
    pass
