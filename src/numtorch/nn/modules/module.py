"""``Module``: the base class of every layer, with torch's registration, hooks and state dicts.

Parameters, buffers and submodules live in three ordered dicts (``_parameters``,
``_buffers``, ``_modules``) filled by ``__setattr__``, so ``self.fc = Linear(...)`` registers
``fc``; ``__getattr__`` reads them back. Calling a module runs forward pre-hooks, ``forward``
and forward hooks (module-level and global, in torch's order); without any hook the call
costs one check of four empty dicts.

The global hooks (``register_module_forward_pre_hook`` / ``register_module_forward_hook``)
see every module call in the process: the profiler uses them to group costs by module.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ParamSpec, Protocol, TypeVar

from ... import __future__ as _future
from ..._core import dtypes as _dtypes
from ..._core import grad_mode
from ..._core.meta import is_meta_device
from ..._core.tensor import Tensor
from ..._runtime import typename
from ..._swap import swap_tensors
from ...backend import xp
from ..parameter import Buffer, Parameter
from .factory_device import follow_device_argument
from .hooks import (  # torch keeps the global hooks in this module
    _global_backward_hooks,
    _global_backward_pre_hooks,
    _global_forward_hooks,
    _global_forward_pre_hooks,
    add_hook,
    call_with_hooks,
    register_module_forward_hook,
    register_module_forward_pre_hook,
    register_module_full_backward_hook,
    register_module_full_backward_pre_hook,
)
from .state_dict import StateDictMixin


def _addindent(text: str, spaces: int) -> str:
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    return lines[0] + "\n" + "\n".join(" " * spaces + line for line in lines[1:])


_P = ParamSpec("_P")
_R = TypeVar("_R", covariant=True)


class _HasForward(Protocol[_P, _R]):
    def forward(self, *args: _P.args, **kwargs: _P.kwargs) -> _R: ...


class Module(StateDictMixin):
    """Base class for all neural network modules.

    Examples:
        >>> import numtorch as torch
        >>> class Model(torch.nn.Module):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.fc = torch.nn.Linear(2, 1)
        ...     def forward(self, x):
        ...         return self.fc(x).relu()
        >>> model = Model()
        >>> [name for name, _ in model.named_parameters()]
        ['fc.weight', 'fc.bias']
        >>> model
        Model(
          (fc): Linear(in_features=2, out_features=1, bias=True)
        )
    """

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        if cls.__module__.startswith("numtorch."):  # the library's layers: a user's own
            follow_device_argument(cls)  # ``device`` argument means what their code says

    training: bool
    _version: int = 1
    call_super_init: bool = False

    def __init__(self, *args, **kwargs) -> None:
        if not self.call_super_init and (args or kwargs):
            name = f"{type(self).__name__}.__init__()"
            if kwargs:
                raise TypeError(f"{name} got an unexpected keyword argument '{next(iter(kwargs))}'")
            raise TypeError(f"{name} takes 1 positional argument but {len(args) + 1} were given")
        setattr_ = super().__setattr__
        setattr_("training", True)
        setattr_("_parameters", {})
        setattr_("_buffers", {})
        setattr_("_non_persistent_buffers_set", set())
        setattr_("_backward_pre_hooks", OrderedDict())
        setattr_("_backward_hooks", OrderedDict())
        setattr_("_is_full_backward_hook", None)
        setattr_("_forward_hooks", OrderedDict())
        setattr_("_forward_hooks_with_kwargs", OrderedDict())
        setattr_("_forward_hooks_always_called", OrderedDict())
        setattr_("_forward_pre_hooks", OrderedDict())
        setattr_("_forward_pre_hooks_with_kwargs", OrderedDict())
        setattr_("_state_dict_hooks", OrderedDict())
        setattr_("_state_dict_pre_hooks", OrderedDict())
        setattr_("_load_state_dict_pre_hooks", OrderedDict())
        setattr_("_load_state_dict_post_hooks", OrderedDict())
        setattr_("_modules", {})

    def _forward_unimplemented(self, *input):
        raise NotImplementedError(
            f'Module [{type(self).__name__}] is missing the required "forward" function'
        )

    # as in torch, an attribute rather than a method, so that a subclass's forward may take
    # any parameters without a type checker calling it an incompatible override
    forward: Callable[..., Any] = _forward_unimplemented

    # -- calling -----------------------------------------------------------------------------
    def _call_impl(self, *args, **kwargs):
        if not (
            self._forward_hooks
            or self._forward_pre_hooks
            or self._backward_hooks
            or self._backward_pre_hooks
            or _global_forward_hooks
            or _global_forward_pre_hooks
            or _global_backward_hooks
            or _global_backward_pre_hooks
        ):
            return self.forward(*args, **kwargs)
        return call_with_hooks(self, args, kwargs)

    if TYPE_CHECKING:
        # model(x) has the type of model.forward(x): its parameters and its return type
        def __call__(self: _HasForward[_P, _R], *args: _P.args, **kwargs: _P.kwargs) -> _R: ...

    else:
        __call__ = _call_impl

    # -- hooks -------------------------------------------------------------------------------
    def register_forward_pre_hook(self, hook, *, prepend=False, with_kwargs=False):
        """``hook(module, args)`` (or ``(module, args, kwargs)``) runs before ``forward``."""
        handle = add_hook(
            self._forward_pre_hooks,
            hook,
            extra_dict=self._forward_pre_hooks_with_kwargs,
            prepend=prepend,
        )
        if with_kwargs:
            self._forward_pre_hooks_with_kwargs[handle.id] = True
        return handle

    def register_forward_hook(self, hook, *, prepend=False, with_kwargs=False, always_call=False):
        """``hook(module, args, output)`` runs after ``forward``; a returned value replaces
        the output."""
        handle = add_hook(
            self._forward_hooks,
            hook,
            extra_dict=[self._forward_hooks_with_kwargs, self._forward_hooks_always_called],
            prepend=prepend,
        )
        if with_kwargs:
            self._forward_hooks_with_kwargs[handle.id] = True
        if always_call:
            self._forward_hooks_always_called[handle.id] = True
        return handle

    def register_full_backward_hook(self, hook, prepend=False):
        """``hook(module, grad_input, grad_output)`` runs when the gradients w.r.t. the
        module's inputs are computed; it may return new ``grad_input``
        (Note [Module backward hooks])."""
        if self._is_full_backward_hook is False:
            raise RuntimeError(
                "Cannot use both regular backward hooks and full backward hooks on a single "
                "Module. Please use only one of them."
            )
        self._is_full_backward_hook = True
        return add_hook(self._backward_hooks, hook, prepend=prepend)

    def register_full_backward_pre_hook(self, hook, prepend=False):
        """``hook(module, grad_output)`` runs before the module's input gradients are
        computed; it may return new ``grad_output``."""
        return add_hook(self._backward_pre_hooks, hook, prepend=prepend)

    def register_backward_hook(self, hook):
        """The deprecated form: ``hook(module, grad_input, grad_output)`` on the node of the
        module's first output, so ``grad_input`` are that node's input gradients (Note
        [Non-full backward hooks])."""
        if self._is_full_backward_hook is True:
            raise RuntimeError(
                "Cannot use both regular backward hooks and full backward hooks on a single "
                "Module. Please use only one of them."
            )
        self._is_full_backward_hook = False
        return add_hook(self._backward_hooks, hook)

    def register_state_dict_pre_hook(self, hook):
        return add_hook(self._state_dict_pre_hooks, hook)

    def register_load_state_dict_post_hook(self, hook):
        return add_hook(self._load_state_dict_post_hooks, hook)

    # -- registration ------------------------------------------------------------------------
    def _check_name(self, name, kind: str, store: dict) -> None:
        if not isinstance(name, str):
            raise TypeError(f"{kind} name should be a string. Got {typename(name)}")
        if "." in name:
            raise KeyError(f'{kind} name can\'t contain "."')
        if name == "":
            raise KeyError(f'{kind} name can\'t be empty string ""')
        if hasattr(self, name) and name not in store:
            raise KeyError(f"attribute '{name}' already exists")

    def register_buffer(self, name: str, tensor, persistent: bool = True) -> None:
        """Add a tensor that is state but not a parameter (e.g. BatchNorm's running mean);
        ``persistent=False`` keeps it out of ``state_dict``."""
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        self._check_name(name, "buffer", self._buffers)
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(
                f"cannot assign '{typename(tensor)}' object to buffer '{name}' (torch Tensor or "
                "None required)"
            )
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def register_parameter(self, name: str, param) -> None:
        """Add a parameter (a ``Parameter`` or None) under ``name``."""
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        self._check_name(name, "parameter", self._parameters)
        if param is None:
            self._parameters[name] = None
            return
        if not isinstance(param, Parameter):
            raise TypeError(
                f"cannot assign '{typename(param)}' object to parameter '{name}' "
                "(torch.nn.Parameter or None required)"
            )
        if param.grad_fn is not None:
            raise ValueError(
                f"Cannot assign non-leaf Tensor to parameter '{name}'. Model parameters must be "
                f"created explicitly. To express '{name}' as a function of another Tensor, "
                "compute the value in the forward() method."
            )
        self._parameters[name] = param

    def add_module(self, name: str, module) -> None:
        """Add a child module under ``name`` (also reachable as an attribute)."""
        if not isinstance(module, Module) and module is not None:
            raise TypeError(f"{typename(module)} is not a Module subclass")
        if not isinstance(name, str):
            raise TypeError(f"module name should be a string. Got {typename(name)}")
        if hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        if "." in name:
            raise KeyError(f'module name can\'t contain ".", got: {name}')
        if name == "":
            raise KeyError('module name can\'t be empty string ""')
        self._modules[name] = module

    register_module = add_module

    def __setattr__(self, name: str, value) -> None:
        def remove_from(*stores):
            for store in stores:
                if name in store:
                    if isinstance(store, dict):
                        del store[name]
                    else:
                        store.discard(name)

        params = self.__dict__.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            remove_from(
                self.__dict__, self._buffers, self._modules, self._non_persistent_buffers_set
            )
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(
                    f"cannot assign '{typename(value)}' as parameter '{name}' "
                    "(torch.nn.Parameter or None expected)"
                )
            self.register_parameter(name, value)
        else:
            modules = self.__dict__.get("_modules")
            if isinstance(value, Module):
                if modules is None:
                    raise AttributeError("cannot assign module before Module.__init__() call")
                remove_from(
                    self.__dict__, self._parameters, self._buffers, self._non_persistent_buffers_set
                )
                modules[name] = value
            elif modules is not None and name in modules:
                if value is not None:
                    raise TypeError(
                        f"cannot assign '{typename(value)}' as child module '{name}' "
                        "(torch.nn.Module or None expected)"
                    )
                modules[name] = value
            else:
                buffers = self.__dict__.get("_buffers")
                if isinstance(value, Buffer) or (buffers is not None and name in buffers):
                    if value is not None and not isinstance(value, Tensor):
                        raise TypeError(
                            f"cannot assign '{typename(value)}' as buffer '{name}' "
                            "(torch.nn.Buffer, torch.Tensor or None expected)"
                        )
                    if isinstance(value, Buffer):
                        persistent = value.persistent
                    else:
                        persistent = name not in self._non_persistent_buffers_set
                    remove_from(self.__dict__, self._parameters, self._modules)
                    self.register_buffer(name, value, persistent)
                else:
                    super().__setattr__(name, value)

    def __getattr__(self, name: str):
        state = self.__dict__
        for store in ("_parameters", "_buffers", "_modules"):
            if store in state and name in state[store]:
                return state[store][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name: str) -> None:
        if name in self._parameters:
            del self._parameters[name]
        elif name in self._buffers:
            del self._buffers[name]
            self._non_persistent_buffers_set.discard(name)
        elif name in self._modules:
            del self._modules[name]
        else:
            super().__delattr__(name)

    def __dir__(self):
        keys = list(super().__dir__())
        keys += list(self._parameters) + list(self._buffers) + list(self._modules)
        return sorted(k for k in set(keys) if not k[0].isdigit())

    def __getstate__(self):
        state = self.__dict__
        if "forward" in state:  # compiled in place: a copy or a loaded module runs uncompiled,
            from ..._dynamo.graph_node import CompiledForward  # as torch drops its compiled call

            if isinstance(state["forward"], CompiledForward):
                state = {k: v for k, v in state.items() if k != "forward"}
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)

    # -- traversal ---------------------------------------------------------------------------
    def _named_members(self, get_members, prefix="", recurse=True, remove_duplicate=True):
        memo = set()
        if recurse:
            modules = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate)
        else:
            modules = [(prefix, self)]
        for module_prefix, module in modules:
            for key, value in get_members(module):
                if value is None or id(value) in memo:
                    continue
                if remove_duplicate:
                    memo.add(id(value))
                yield module_prefix + ("." if module_prefix else "") + key, value

    def named_parameters(self, prefix: str = "", recurse: bool = True, remove_duplicate=True):
        """(name, parameter) pairs, shared parameters once, submodules' with dotted names."""
        return self._named_members(
            lambda m: m._parameters.items(), prefix, recurse, remove_duplicate
        )

    def parameters(self, recurse: bool = True):
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_buffers(self, prefix: str = "", recurse: bool = True, remove_duplicate=True):
        return self._named_members(lambda m: m._buffers.items(), prefix, recurse, remove_duplicate)

    def buffers(self, recurse: bool = True):
        for _, buffer in self.named_buffers(recurse=recurse):
            yield buffer

    def named_children(self):
        memo = set()
        for name, module in self._modules.items():
            if module is not None and id(module) not in memo:
                memo.add(id(module))
                yield name, module

    def children(self):
        for _, module in self.named_children():
            yield module

    def named_modules(self, memo=None, prefix: str = "", remove_duplicate: bool = True):
        """(name, module) for this module (name ``prefix``) and all submodules, depth first."""
        if memo is None:
            memo = set()
        if self in memo:
            return
        if remove_duplicate:
            memo.add(self)
        yield prefix, self
        for name, module in self._modules.items():
            if module is None:
                continue
            sub = prefix + ("." if prefix else "") + name
            yield from module.named_modules(memo, sub, remove_duplicate)

    def modules(self, remove_duplicate: bool = True):
        for _, module in self.named_modules(remove_duplicate=remove_duplicate):
            yield module

    def get_submodule(self, target: str):
        if target == "":
            return self
        module = self
        for item in target.split("."):
            if not hasattr(module, item):
                raise AttributeError(f"{module._get_name()} has no attribute `{item}`")
            module = getattr(module, item)
            if not isinstance(module, Module):
                raise AttributeError("`" + item + "` is not an nn.Module")
        return module

    def set_submodule(self, target: str, module, strict: bool = False) -> None:
        """Replace (or, unless ``strict``, add) the submodule at dotted path ``target``."""
        if target == "":
            raise ValueError("Cannot set the submodule without a target name!")
        if not isinstance(module, Module):
            raise ValueError(f"`module` is not an nn.Module, found {type(module)}")
        parent_path, _, name = target.rpartition(".")
        parent = self.get_submodule(parent_path)
        if strict and not hasattr(parent, name):
            raise AttributeError(f"{parent._get_name()} has no attribute `{name}`")
        if hasattr(parent, name) and not isinstance(getattr(parent, name), Module):
            raise AttributeError(f"`{name}` is not an nn.Module")
        setattr(parent, name, module)

    def get_parameter(self, target: str):
        module_path, _, name = target.rpartition(".")
        module = self.get_submodule(module_path)
        if not hasattr(module, name):
            raise AttributeError(f"{module._get_name()} has no attribute `{name}`")
        param = getattr(module, name)
        if not isinstance(param, Parameter):
            raise AttributeError("`" + name + "` is not an nn.Parameter")
        return param

    def get_buffer(self, target: str):
        module_path, _, name = target.rpartition(".")
        module = self.get_submodule(module_path)
        if name not in module._buffers:
            raise AttributeError(f"`{name}` is not a buffer")
        return module._buffers[name]

    def apply(self, fn):
        """Call ``fn`` on every submodule (children first) and then on this module."""
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    # -- modes and gradients -----------------------------------------------------------------
    def train(self, mode: bool = True):
        """Set training mode (Dropout and BatchNorm behave differently); returns self."""
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self):
        """Evaluation mode: ``train(False)``. Independent of ``no_grad``."""
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True):
        for param in self.parameters():
            param.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset the gradients of all parameters (to None by default)."""
        for param in self.parameters():
            if param.grad is None:
                continue
            if set_to_none:
                param.grad = None
            else:
                grad = param.grad
                if grad.grad_fn is not None:
                    grad.detach_()
                else:
                    grad.requires_grad_(False)
                with grad_mode.no_grad():
                    grad.zero_()

    # -- conversion --------------------------------------------------------------------------
    def _apply(self, fn):
        for module in self.children():
            module._apply(fn)
        for key, param in self._parameters.items():
            if param is None:
                continue
            with grad_mode.no_grad():
                converted = fn(param)
                grad = None if param.grad is None else fn(param.grad)
            if _future.get_swap_module_params_on_conversion():
                param.grad = None
                swap_tensors(param, type(param)(converted, param.requires_grad))
                param.grad = grad
            elif _future.get_overwrite_module_params_on_conversion():
                self._parameters[key] = type(param)(converted, param.requires_grad)
                self._parameters[key].grad = grad
            else:
                param.data = converted
                if grad is not None:
                    param.grad.data = grad
        for key, buffer in self._buffers.items():
            if buffer is not None:
                self._buffers[key] = fn(buffer)
        return self

    def to(self, *args, **kwargs):
        """Cast floating-point parameters and buffers (``to(torch.float64)``); the device
        is always the CPU."""
        dtype = kwargs.get("dtype")
        for arg in (*args, kwargs.get("device")):
            if isinstance(arg, _dtypes.dtype):
                dtype = arg
            elif isinstance(arg, Tensor):
                dtype = arg.dtype
            elif arg is not None and not isinstance(arg, bool):  # a device: as Tensor.to
                Tensor._make(xp.empty(0, xp.float32)).to(arg)
        if dtype is not None and not (dtype.is_floating_point or dtype.is_complex):
            raise TypeError(
                "nn.Module.to only accepts floating point or complex dtypes, but got desired "
                f"dtype={dtype}"
            )
        device = next((a for a in (*args, kwargs.get("device")) if is_meta_device(a)), None)
        if device is not None:  # shapes and dtypes only (the meta device)
            self._apply(lambda t: t.to(device))
        memory_format = kwargs.get("memory_format")
        if memory_format is not None:  # as torch: the 4-D and 5-D parameters and buffers
            self._apply(lambda t: t.to(memory_format=memory_format) if t.dim() in (4, 5) else t)
        if dtype is None:
            return self
        return self._apply(lambda t: t.to(dtype) if t.is_floating_point() else t)

    def to_empty(self, *, device, recurse: bool = True):
        """Parameters and buffers replaced by uninitialised ones on ``device`` (from the
        meta device back to the CPU: numtorch's "uninitialised" memory holds zeros)."""
        from ... import _creation

        return self._apply(lambda t: _creation.empty_like(t, device=device))

    def float(self):
        return self._apply(lambda t: t.float() if t.is_floating_point() else t)

    def double(self):
        return self._apply(lambda t: t.double() if t.is_floating_point() else t)

    def half(self):
        return self._apply(lambda t: t.half() if t.is_floating_point() else t)

    def bfloat16(self):
        return self._apply(lambda t: t.bfloat16() if t.is_floating_point() else t)

    def type(self, dst_type):
        return self._apply(lambda t: t.type(dst_type))

    def cpu(self):
        return self

    def cuda(self, device=None):
        return self._apply(lambda t: t.cuda(device))

    def share_memory(self):
        """Move parameters and buffers into shared memory (``Tensor.share_memory_``)."""
        return self._apply(lambda t: t.share_memory_())

    def compile(self, *args, **kwargs) -> None:
        """As ``torch.compile`` in place (numtorch has no compiler): the module keeps running
        eagerly, its outputs that need a gradient behind one ``CompiledFunctionBackward``
        node as torch's (an instance ``forward`` that wraps the class's)."""
        from ..._dynamo import graph_node

        if graph_node.differentiates_as_one_node(kwargs.get("backend", "inductor")):
            self.forward = graph_node.CompiledForward(self)

    # -- printing ----------------------------------------------------------------------------
    def _get_name(self) -> str:
        return type(self).__name__

    def extra_repr(self) -> str:
        """The part of ``repr`` inside the parentheses; layers override it."""
        return ""

    def __repr__(self) -> str:
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = [
            f"({key}): " + _addindent(repr(module), 2) for key, module in self._modules.items()
        ]
        lines = extra_lines + child_lines
        text = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                text += extra_lines[0]
            else:
                text += "\n  " + "\n  ".join(lines) + "\n"
        return text + ")"


__all__ = [
    "Module",
    "register_module_forward_hook",
    "register_module_forward_pre_hook",
    "register_module_full_backward_hook",
    "register_module_full_backward_pre_hook",
]
