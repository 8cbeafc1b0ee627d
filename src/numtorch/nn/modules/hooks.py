"""Hook plumbing for Modules: the global hook registry, ``Module.__call__`` with hooks,
removable handles, and full backward hooks.

Note [Module backward hooks]
``register_full_backward_hook(hook(module, grad_input, grad_output))`` needs the gradients
of the module's inputs and outputs as a group. As in torch, the module's tensor inputs and
outputs are passed through an identity Function (``BackwardHookFunctionBackward``) whose
backward node observes them: the output node records ``grad_output`` (and runs backward
pre-hooks, which may replace it); the input node then calls the user hooks with both, and
their result replaces ``grad_input``. With no input requiring grad, the hooks run as soon as
``grad_output`` is known, with ``grad_input`` all None.
"""

from __future__ import annotations

import itertools
import warnings
from collections import OrderedDict

from ..._core import grad_mode
from ..._core.graph import RemovableHandle as _GraphHandle
from ..._core.tensor import Tensor
from ...autograd.function import Function


class RemovableHandle(_GraphHandle):
    """A handle whose ``remove()`` also clears the hook's flags (with_kwargs, always_call)."""

    def __init__(self, hooks_dict, *, extra_dict=None):
        super().__init__(hooks_dict)
        if extra_dict is None:
            extra_dict = []
        elif isinstance(extra_dict, dict):
            extra_dict = [extra_dict]
        self._extra = list(extra_dict)

    def remove(self) -> None:
        super().remove()
        for flags in self._extra:
            flags.pop(self.id, None)


def add_hook(hooks, fn, *, extra_dict=None, prepend=False) -> RemovableHandle:
    handle = RemovableHandle(hooks, extra_dict=extra_dict)
    hooks[handle.id] = fn
    if prepend:
        hooks.move_to_end(handle.id, last=False)
    return handle


_global_forward_pre_hooks: OrderedDict = OrderedDict()
_global_forward_hooks: OrderedDict = OrderedDict()
_global_forward_hooks_always_called: dict = {}
_global_forward_hooks_with_kwargs: dict = {}
_global_backward_pre_hooks: OrderedDict = OrderedDict()
_global_backward_hooks: OrderedDict = OrderedDict()


def register_module_forward_pre_hook(hook):
    """Run ``hook(module, args)`` before every module's forward (may return new args)."""
    return add_hook(_global_forward_pre_hooks, hook)


def register_module_forward_hook(hook, *, with_kwargs=False, always_call=False):
    """Run ``hook(module, args, output)`` after every module's forward (may return a new
    output); ``with_kwargs`` passes ``(module, args, kwargs, output)``."""
    flags = [_global_forward_hooks_always_called, _global_forward_hooks_with_kwargs]
    handle = add_hook(_global_forward_hooks, hook, extra_dict=flags)
    if with_kwargs:
        _global_forward_hooks_with_kwargs[handle.id] = True
    if always_call:
        _global_forward_hooks_always_called[handle.id] = True
    return handle


def register_module_full_backward_pre_hook(hook):
    """``hook(module, grad_output)`` for every module, before its input gradients exist."""
    return add_hook(_global_backward_pre_hooks, hook)


def register_module_full_backward_hook(hook):
    """``hook(module, grad_input, grad_output)`` for every module (see Module's method)."""
    return add_hook(_global_backward_hooks, hook)


class BackwardHookFunction(Function):
    """Identity on its tensors; its backward node is where module hooks attach."""

    @staticmethod
    def forward(ctx, *args):
        ctx.mark_non_differentiable(*[arg for arg in args if not arg.requires_grad])
        return args

    @staticmethod
    def backward(ctx, *args):
        return args


class BackwardHook:
    """Wires a module's full backward (pre-)hooks around one forward call."""

    def __init__(self, module, user_hooks, user_pre_hooks):
        self.module = module
        self.user_hooks = user_hooks
        self.user_pre_hooks = user_pre_hooks
        self.grad_outputs = None
        self.n_inputs = self.n_outputs = -1
        self.input_tensors_index = self.output_tensors_index = None

    @staticmethod
    def _pack_with_none(indices, values, size):
        res = [None] * size
        for i, value in zip(indices, values):
            res[i] = value
        return tuple(res)

    @staticmethod
    def _unpack_none(indices, values):
        return tuple(values[i] for i in indices)

    def _apply_on_tensors(self, fn, args):
        indices = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        tensors = [args[i] for i in indices]
        if not (any(t.requires_grad for t in tensors) and grad_mode.is_grad_enabled()):
            return args, None
        if any(t._batched for t in tensors):
            # torch's batched tensors inside vmap do not report requires_grad: no hook there
            return args, None
        new = BackwardHookFunction.apply(*tensors)
        if not isinstance(new, tuple):
            new = (new,)
        grad_fns = [
            t.grad_fn
            for t in new
            if t.grad_fn is not None and t.grad_fn.name() == "BackwardHookFunctionBackward"
        ]
        fn(grad_fns[0])
        out = list(args)
        for i, value in zip(indices, new):
            out[i] = value
        return tuple(out), indices

    def setup_input_hook(self, args):
        def attach(grad_fn):
            grad_fn.register_hook(self._input_hook)

        result, indices = self._apply_on_tensors(attach, args)
        self.n_inputs = len(args)
        self.input_tensors_index = indices
        return result

    def _input_hook(self, grad_input, _):
        if self.grad_outputs is None:
            # gradient reached the inputs without passing the outputs (double backward)
            return None
        res = self._pack_with_none(self.input_tensors_index, grad_input, self.n_inputs)
        for hook in self.user_hooks:
            out = hook(self.module, res, self.grad_outputs)
            if out is None:
                continue
            if len(out) != len(res):
                raise RuntimeError(
                    f"Backward hook returned an invalid number of grad_input, got {len(out)}, "
                    f"but expected {len(res)}"
                )
            res = out
        self.grad_outputs = None
        return self._unpack_none(self.input_tensors_index, res)

    def setup_output_hook(self, result):
        def attach(grad_fn):
            grad_fn.register_hook(self._output_hook)

        is_tuple = isinstance(result, tuple)
        args = result if is_tuple else (result,)
        out, indices = self._apply_on_tensors(attach, args)
        self.n_outputs = len(args)
        self.output_tensors_index = indices
        return out if is_tuple else out[0]

    def _output_hook(self, _, grad_output):
        self.grad_outputs = self._pack_with_none(
            self.output_tensors_index, grad_output, self.n_outputs
        )
        for pre_hook in self.user_pre_hooks:
            replaced = pre_hook(self.module, self.grad_outputs)
            if replaced is None:
                continue
            if len(replaced) != len(self.grad_outputs):
                raise RuntimeError(
                    f"Backward pre hook returned an invalid number of grad_output, got "
                    f"{len(replaced)}, but expected {len(self.grad_outputs)}"
                )
            self.grad_outputs = tuple(replaced)
        local_grad_outputs = self.grad_outputs
        if self.input_tensors_index is None:
            grad_inputs = self._pack_with_none([], [], self.n_inputs)
            for hook in self.user_hooks:
                res = hook(self.module, grad_inputs, self.grad_outputs)
                if res is not None and not (isinstance(res, tuple) and all(r is None for r in res)):
                    raise RuntimeError(
                        "Backward hook for Modules where no input requires gradient should "
                        "always return None or None for all gradients."
                    )
            self.grad_outputs = None
        if self.user_pre_hooks:
            return tuple(local_grad_outputs[i] for i in self.output_tensors_index)
        return None


def call_with_hooks(self, args, kwargs):
    """``Module.__call__`` when some hook is registered: torch's order of hook calls."""
    full_hooks = [*_global_backward_hooks.values()]
    non_full_hooks = []
    if self._is_full_backward_hook is False:
        non_full_hooks += self._backward_hooks.values()
    else:
        full_hooks += self._backward_hooks.values()
    pre_hooks = [*_global_backward_pre_hooks.values(), *self._backward_pre_hooks.values()]
    called_always = set()
    try:
        for hook_id, hook in itertools.chain(
            _global_forward_pre_hooks.items(), self._forward_pre_hooks.items()
        ):
            if hook_id in self._forward_pre_hooks_with_kwargs:
                replaced = hook(self, args, kwargs)
                if replaced is not None:
                    if not (isinstance(replaced, tuple) and len(replaced) == 2):
                        raise RuntimeError(
                            "forward pre-hook must return None or a tuple of (new_args, "
                            f"new_kwargs), but got {replaced}."
                        )
                    args, kwargs = replaced
            else:
                replaced = hook(self, args)
                if replaced is not None:
                    args = replaced if isinstance(replaced, tuple) else (replaced,)
        backward_hook = None
        if full_hooks or pre_hooks:
            backward_hook = BackwardHook(self, full_hooks, pre_hooks)
            args = backward_hook.setup_input_hook(args)
        result = self.forward(*args, **kwargs)
        for hook_id, hook in itertools.chain(
            _global_forward_hooks.items(), self._forward_hooks.items()
        ):
            if hook_id in self._forward_hooks_always_called or (
                hook_id in _global_forward_hooks_always_called
            ):
                called_always.add(hook_id)
            if hook_id in self._forward_hooks_with_kwargs or (
                hook_id in _global_forward_hooks_with_kwargs
            ):
                replaced = hook(self, args, kwargs, result)
            else:
                replaced = hook(self, args, result)
            if replaced is not None:
                result = replaced
        if backward_hook is not None:
            if not isinstance(result, (Tensor, tuple)):
                warnings.warn(
                    "For backward hooks to be called, module output should be a Tensor or "
                    f"a tuple of Tensors but received {type(result)}",
                    stacklevel=3,
                )
            result = backward_hook.setup_output_hook(result)
        if non_full_hooks:
            _register_non_full_hooks(self, non_full_hooks, args, result)
        return result
    except Exception:
        # hooks registered with always_call=True run even when forward raised
        for hook_id, hook in itertools.chain(
            _global_forward_hooks.items(), self._forward_hooks.items()
        ):
            always = hook_id in self._forward_hooks_always_called or (
                hook_id in _global_forward_hooks_always_called
            )
            if always and hook_id not in called_always:
                try:
                    if hook_id in self._forward_hooks_with_kwargs:
                        hook(self, args, kwargs, None)
                    else:
                        hook(self, args, None)
                except Exception as error:
                    warnings.warn(
                        f"global module forward hook with ``always_call=True`` raised an "
                        f"exception that was silenced as another error was raised in "
                        f"forward: {error}",
                        stacklevel=3,
                    )
        raise


# Note [Non-full backward hooks]
# The deprecated ``register_backward_hook`` registers its hooks on the grad_fn of the
# module's first output tensor (the first value of a dict, the first item of a sequence), as
# node hooks: ``grad_input`` are that node's input gradients, which are the module's only where
# the forward is one node. torch warns (FutureWarning) where the result would miss some of them.
def _register_non_full_hooks(module, hooks, args, result):
    var = result
    while not isinstance(var, Tensor):
        if isinstance(var, dict):
            var = next(v for v in var.values() if isinstance(v, Tensor))
        else:
            var = var[0]
    grad_fn = var.grad_fn
    if grad_fn is None:
        return
    for hook in hooks:
        grad_fn.register_hook(_module_node_hook(hook, module))
    _warn_non_full(args, result, grad_fn)


def _module_node_hook(hook, module):
    def node_hook(grad_inputs, grad_outputs):
        return hook(module, grad_inputs, grad_outputs)

    return node_hook


_DEPRECATED = "is deprecated and will be removed in future versions."
_USE_FULL = "Please use register_full_backward_hook to get the documented behavior."


def _as_tensors(value):
    """``value`` as a tuple of tensors (a single tensor, or a tuple of them); None otherwise."""
    if isinstance(value, Tensor):
        return (value,)
    if isinstance(value, tuple) and all(isinstance(v, Tensor) for v in value):
        return value
    return None


def _warn_non_full(inputs, result, grad_fn):
    result = _as_tensors(result)
    if result is None:
        _future(
            "Using non-full backward hooks on a Module that does not return a single Tensor or "
            f"a tuple of Tensors {_DEPRECATED} This hook will be missing some of the "
            f"grad_output. {_USE_FULL}"
        )
        return
    inputs = _as_tensors(inputs)
    if inputs is None:
        _future(
            "Using non-full backward hooks on a Module that does not take as input a single "
            f"Tensor or a tuple of Tensors {_DEPRECATED} This hook will be missing some of the "
            f"grad_input. {_USE_FULL}"
        )
        return
    out_grad_fn = {r.grad_fn for r in result if r.grad_fn is not None}
    if not out_grad_fn or (len(out_grad_fn) == 1 and grad_fn not in out_grad_fn):
        _future(
            "Using a non-full backward hook when outputs are nested in python data structure "
            f"{_DEPRECATED} This hook will be missing some grad_output."
        )
    elif len(out_grad_fn) > 1:
        _future(
            "Using a non-full backward hook when outputs are generated by different autograd "
            f"Nodes {_DEPRECATED} This hook will be missing some grad_output. {_USE_FULL}"
        )
    else:
        inputs_grad_fn = {i.grad_fn for i in inputs if i.grad_fn is not None}
        if inputs_grad_fn != {n[0] for n in grad_fn.next_functions}:
            _future(
                "Using a non-full backward hook when the forward contains multiple autograd "
                f"Nodes {_DEPRECATED} This hook will be missing some grad_input. {_USE_FULL}"
            )


def _future(message):
    warnings.warn(message, FutureWarning, stacklevel=4)
