"""torch.fx.symbolic_trace: running a module's forward on Proxies to record its Graph."""

from __future__ import annotations

import builtins
import collections
import inspect
import math
import types

import numtorch
from numtorch.nn import Module, Parameter, Sequential

from ._module_annotations import TENSOR_INPUT, TENSOR_PARAMETERS
from ._patching import Patcher, recording, tracing
from .graph import Graph
from .graph_module import GraphModule
from .proxy import ParameterProxy, TracerBase

__all__ = ["Tracer", "symbolic_trace", "wrap", "PH"]

_VARARGS = inspect.CO_VARARGS | inspect.CO_VARKEYWORDS

# (id of a module's globals, function name) -> those globals: what wrap() asked to record
_wrapped_fns_to_patch: dict[tuple[int, str], dict] = {}
_is_fx_tracing = False


def is_fx_tracing() -> bool:
    return _is_fx_tracing


class PHBase:
    """A placeholder value for ``concrete_args``: that part of the input stays symbolic."""

    def __repr__(self) -> str:
        return "PH"


PH = PHBase()


def _assert_is_none(value, msg) -> None:
    assert value is None, msg


class Tracer(TracerBase):
    """Records a module's forward, or a function, as a Graph. Subclass it to change which
    modules stay leaves (``is_leaf_module``) or what gets recorded (``create_proxy``)."""

    def __init__(
        self, autowrap_modules=(math,), autowrap_functions=(), param_shapes_constant: bool = False
    ) -> None:
        super().__init__()
        self._autowrap_function_ids = {
            id(value)
            for module in autowrap_modules
            for name, value in module.__dict__.items()
            if not name.startswith("_") and callable(value)
        }
        self._autowrap_function_ids.update(id(f) for f in autowrap_functions)
        self._autowrap_search = list(autowrap_modules)
        self.param_shapes_constant = param_shapes_constant
        self.submodule_paths: dict | None = None
        self.root: Module | None = None
        self.tensor_attrs: dict[int, tuple[object, str]] = {}
        self.module_stack: collections.OrderedDict = collections.OrderedDict()
        self._qualname_counter: dict[str, int] = {}

    # -- arguments -----------------------------------------------------------------------------
    def create_arg(self, a):
        """Parameters, buffers and submodules become get_attr nodes; other tensors are stored
        on the root as ``_tensor_constant<k>``."""
        if isinstance(a, Parameter):
            for n, p in self.root.named_parameters():
                if a is p:
                    return self.create_node("get_attr", n, (), {})
            raise NameError("parameter is not a member of this module")
        if isinstance(a, numtorch.Tensor):
            for n, b in self.root.named_buffers():
                if a is b:
                    return self.create_node("get_attr", n, (), {})
        elif isinstance(a, Module):
            for n, m in self.root.named_modules():
                if a is m:
                    return self.create_node("get_attr", n, (), {})
        if isinstance(a, tuple) and hasattr(a, "_fields"):
            return self.create_node(
                "call_function", type(a), tuple(self.create_arg(e) for e in a), {}
            )
        if isinstance(a, numtorch.Tensor):
            entry = self.tensor_attrs.get(id(a))
            if entry is not None and entry[0] is a:
                qualname = entry[1]
            else:
                qualname = self.get_fresh_qualname("_tensor_constant")
                self.tensor_attrs[id(a)] = (a, qualname)
                setattr(self.root, qualname, a)
            return self.create_node("get_attr", qualname, (), {})
        return super().create_arg(a)

    def get_fresh_qualname(self, prefix: str) -> str:
        if not hasattr(self.root, f"{prefix}0"):
            self._qualname_counter[prefix] = 0
            return f"{prefix}0"
        i = self._qualname_counter.get(prefix, 0)
        while hasattr(self.root, f"{prefix}{i}"):
            i += 1
        self._qualname_counter[prefix] = i + 1
        return f"{prefix}{i}"

    # -- modules -------------------------------------------------------------------------------
    def is_leaf_module(self, m: Module, module_qualified_name: str) -> bool:
        """numtorch.nn's own modules (but Sequential) are recorded as one call_module node."""
        return m.__module__.startswith(("numtorch.nn", "torch.nn")) and not isinstance(
            m, Sequential
        )

    def path_of_module(self, mod: Module) -> str:
        if self.submodule_paths is not None:
            path = self.submodule_paths.get(mod)
            if path is None:
                raise NameError("module is not installed as a submodule")
            return path
        for n, p in self.root.named_modules():
            if mod is p:
                return n
        raise NameError("module is not installed as a submodule")

    def call_module(self, m: Module, forward, args, kwargs):
        """A leaf module becomes a call_module node; any other is traced through."""
        qualname = self.path_of_module(m)
        # the enclosing modules, innermost last, go into each node's meta["nn_module_stack"]
        self.module_stack[qualname] = (qualname, type(m))
        try:
            if not self.is_leaf_module(m, qualname):
                return forward(*args, **kwargs)
            return self.create_proxy("call_module", qualname, args, kwargs)
        finally:
            self.module_stack.pop(qualname, None)

    def create_node(self, kind: str, target, args, kwargs, name=None, type_expr=None):
        node = super().create_node(kind, target, args, kwargs, name, type_expr)
        if self.module_stack and kind not in ("placeholder", "output"):
            node.meta["nn_module_stack"] = collections.OrderedDict(self.module_stack)
        return node

    def getattr(self, attr: str, attr_val, parameter_proxy_cache: dict):
        """A parameter read from a module becomes a get_attr node (once per trace)."""

        def proxy_for(collection):
            for n, p in collection:
                if attr_val is p:
                    if n not in parameter_proxy_cache:
                        factory = None
                        if self.param_shapes_constant:
                            factory = lambda node: ParameterProxy(self, node, n, attr_val)
                        # a Tracer subclass's create_proxy may not take proxy_factory_fn
                        extra = {}
                        if "proxy_factory_fn" in inspect.signature(self.create_proxy).parameters:
                            extra["proxy_factory_fn"] = factory
                        parameter_proxy_cache[n] = self.create_proxy("get_attr", n, (), {}, **extra)
                    return parameter_proxy_cache[n]
            return None

        if isinstance(attr_val, Parameter):
            found = proxy_for(self.root.named_parameters())
            if found is not None:
                return found
        if self.proxy_buffer_attributes and isinstance(attr_val, numtorch.Tensor):
            found = proxy_for(self.root.named_buffers())
            if found is not None:
                return found
        return attr_val

    # -- the root's inputs ---------------------------------------------------------------------
    def create_args_for_root(self, root_fn, is_module: bool, concrete_args=None):
        """Placeholders for the root's parameters (``*args``/``**kwargs`` included)."""
        fn = inspect.unwrap(root_fn)
        co = fn.__code__
        total_args = co.co_argcount + co.co_kwonlyargcount
        names = iter(co.co_varnames)
        args: list = []
        skip = 0
        if is_module:
            if total_args == 0:
                raise RuntimeError("``self`` argument cannot be part of *args expansion!")
            skip = 1
            next(names)
            args.append(self.root)
        sig = inspect.signature(fn)
        arg_names = [next(names) for _ in range(skip, total_args)]
        if isinstance(concrete_args, tuple):
            if len(arg_names) != len(concrete_args):
                raise RuntimeError(
                    f"Tracing expected {len(arg_names)} arguments but got "
                    f"{len(concrete_args)} concrete arguments"
                )
            concrete_args = dict(zip(arg_names, concrete_args))
        args.extend(self._proxy_placeholder(name, concrete_args, sig, fn) for name in arg_names)
        if co.co_kwonlyargcount > 0 or co.co_flags & _VARARGS:
            if co.co_flags & inspect.CO_VARARGS:
                args.append(self._proxy_placeholder("*" + next(names), concrete_args, sig, fn))
            if co.co_flags & inspect.CO_VARKEYWORDS:
                args.append(self._proxy_placeholder("**" + next(names), concrete_args, sig, fn))
            root_fn = _positional_only(root_fn, len(args))
        return root_fn, args

    def _proxy_placeholder(self, name: str, concrete_args, sig, fn):
        if concrete_args is not None and name in concrete_args:
            value = concrete_args[name]
            param = sig.parameters[name]
            default = () if param.default is inspect.Parameter.empty else (param.default,)
            out = self.create_proxy("placeholder", f"{name}_1", default, {})
            if isinstance(value, PHBase):
                return out
            if type(value) is bool or isinstance(value, (int, float, str, complex)):
                numtorch._assert(
                    out == value,
                    f"{name} has been specialized to have value {value} but got another value",
                )
            elif value is None:
                msg = f"{name} has been specialized to have value None but got another value"
                self.create_proxy("call_function", _assert_is_none, (out, msg), {})
            return value
        if name[0] == "*":
            default = ()
        else:
            param = sig.parameters[name]
            default = () if param.default is inspect.Parameter.empty else (param.default,)
        return self.create_proxy(
            "placeholder", name, default, {}, type_expr=_annotations(fn).get(name)
        )

    # -- tracing -------------------------------------------------------------------------------
    def trace(self, root, concrete_args=None) -> Graph:
        """Runs ``root`` (a Module's forward, or a function) on Proxies; returns its Graph."""
        global _is_fx_tracing
        if isinstance(root, Module):
            self.root = root
            fn = getattr(type(root), self.traced_func_name)
            self.submodule_paths = {mod: name for name, mod in root.named_modules()}
        else:
            self.root = Module()
            fn = root
        self.graph = Graph(tracer_cls=type(self))
        self.tensor_attrs = {}

        def collect_tensor_attrs(m: Module, prefix: list[str]) -> None:
            for k, v in m.__dict__.items():
                if isinstance(v, numtorch.Tensor):
                    self.tensor_attrs[id(v)] = (v, ".".join(prefix + [k]))
            for k, v in m.named_children():
                collect_tensor_attrs(v, prefix + [k])

        collect_tensor_attrs(self.root, [])
        fn_globals = getattr(inspect.unwrap(fn), "__globals__", {})
        was_tracing, _is_fx_tracing = _is_fx_tracing, True
        try:
            with tracing(), Patcher() as patcher:
                patcher.patch_globals(fn_globals)
                patcher.patch_tensor_methods()
                fn, args = self.create_args_for_root(fn, isinstance(root, Module), concrete_args)
                cache: dict = {}
                tracer = self
                original_getattr, original_call = Module.__getattr__, Module.__call__

                def module_getattr(mod, attr):
                    return tracer.getattr(attr, original_getattr(mod, attr), cache)

                def module_call(mod, *args, **kwargs):
                    def forward(*args, **kwargs):
                        return original_call(mod, *args, **kwargs)

                    return tracer.call_module(mod, forward, args, kwargs)

                patcher.patch_attr(Module, "__getattr__", module_getattr)
                patcher.patch_attr(Module, "__call__", module_call)
                _patch_wrapped_functions(patcher)
                for d in [fn_globals] + [m.__dict__ for m in self._autowrap_search]:
                    for name, value in list(d.items()):
                        if (
                            not name.startswith("_")
                            and callable(value)
                            and id(value) in self._autowrap_function_ids
                        ):
                            patcher.patch_dict(d, name, recording(value, wrapped=True))
                result = fn(*args)
                self.create_node(
                    "output",
                    "output",
                    (self.create_arg(result),),
                    {},
                    type_expr=_annotations(fn).get("return"),
                )
        finally:
            _is_fx_tracing = was_tracing
            self.submodule_paths = None
        return self.graph


def _annotations(fn) -> dict:
    """``fn``'s annotations; for the forward of one of numtorch.nn's modules, torch's."""
    fn = inspect.unwrap(fn)
    annotations = getattr(fn, "__annotations__", {})
    if annotations or not (getattr(fn, "__module__", None) or "").startswith("numtorch.nn"):
        return annotations
    owner = fn.__qualname__.split(".")[0]
    names = "input" if owner in TENSOR_INPUT else TENSOR_PARAMETERS.get(owner)
    if names is None:
        return annotations
    return {**dict.fromkeys(names.split(), numtorch.Tensor), "return": numtorch.Tensor}


def _positional_only(fn, nargs: int):
    """``fn`` with its ``*args``, ``**kwargs`` and keyword-only parameters taken by position,
    so that their Proxies can be passed."""
    co = fn.__code__
    code = co.replace(co_flags=co.co_flags & ~_VARARGS, co_argcount=nargs, co_kwonlyargcount=0)
    return types.FunctionType(code, fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__)


def _patch_wrapped_functions(patcher: Patcher) -> None:
    for (_, name), frame_dict in _wrapped_fns_to_patch.items():
        if name not in frame_dict and hasattr(builtins, name):
            original = getattr(builtins, name)
        else:
            original = frame_dict[name]
        patcher.patch_dict(frame_dict, name, recording(original, wrapped=True))


def wrap(fn_or_name):
    """Called at module level, records calls of that module's function ``fn_or_name`` as
    call_function nodes instead of tracing through them (for code with control flow)."""
    if not callable(fn_or_name) and not isinstance(fn_or_name, str):
        raise AssertionError(
            "Unsupported type for global function! Must be either a callable or string name"
        )
    if callable(fn_or_name):
        if isinstance(fn_or_name, str):
            raise AssertionError("wrap() expects a function or a name")
        fn_name = fn_or_name.__name__
    else:
        fn_name = fn_or_name
    frame = inspect.currentframe().f_back
    if frame.f_code.co_name != "<module>":
        raise NotImplementedError("wrap must be called at the top level of a module")
    _wrapped_fns_to_patch[(id(frame.f_globals), fn_name)] = frame.f_globals
    return fn_or_name


def symbolic_trace(root, concrete_args=None) -> GraphModule:
    """Traces a Module or function into a GraphModule.

    Example::

        >>> import numtorch as torch
        >>> gm = torch.fx.symbolic_trace(lambda x: torch.relu(x) + 1)
        >>> print(gm.code.strip())
        def forward(self, x):
            relu = torch.relu(x);  x = None
            add = relu + 1;  relu = None
            return add
    """
    tracer = Tracer()
    graph = tracer.trace(root, concrete_args)
    name = root.__class__.__name__ if isinstance(root, Module) else root.__name__
    return GraphModule(tracer.root, graph, name)
