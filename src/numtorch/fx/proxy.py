"""torch.fx.proxy: a Proxy stands for a value during tracing and records what is done to it."""

from __future__ import annotations

import bisect
import dis
import inspect
import operator

import numtorch

from ._codegen import MAGIC_METHODS, REFLECTABLE_MAGIC_METHODS
from ._patching import hold_while_alive
from .graph import Graph
from .node import Node

__all__ = [
    "TraceError",
    "TracerBase",
    "GraphAppendingTracer",
    "Proxy",
    "Attribute",
    "ParameterProxy",
]


class TraceError(ValueError):
    pass


class TracerBase:
    """What a Proxy records into: a graph, and the rules for turning values into arguments."""

    graph: Graph
    record_stack_traces = False
    check_mutable_operations = False
    trace_asserts = False
    proxy_buffer_attributes = False
    traced_func_name = "forward"
    scope = None
    module_stack: dict = {}
    node_name_to_scope: dict = {}

    def create_node(self, kind: str, target, args, kwargs, name=None, type_expr=None) -> Node:
        return self.graph.create_node(kind, target, args, kwargs, name, type_expr)

    def proxy(self, node: Node) -> Proxy:
        return Proxy(node, self)

    def create_proxy(
        self, kind: str, target, args, kwargs, name=None, type_expr=None, proxy_factory_fn=None
    ):
        """Records one operation: its arguments become graph arguments, its result a Proxy."""
        args_ = self.create_arg(args)
        kwargs_ = self.create_arg(kwargs)
        node = self.create_node(kind, target, args_, kwargs_, name, type_expr)
        return self.proxy(node) if proxy_factory_fn is None else proxy_factory_fn(node)

    def create_arg(self, a):
        """A value as a graph argument: Proxies become their nodes, containers are mapped."""
        if isinstance(a, Proxy):
            return a.node
        if isinstance(a, tuple):
            if hasattr(a, "_fields"):
                return type(a)(*[self.create_arg(elem) for elem in a])
            return tuple(self.create_arg(elem) for elem in a)
        if isinstance(a, list):
            return [self.create_arg(elem) for elem in a]
        if isinstance(a, dict):
            r = {}
            for k, v in a.items():
                if not isinstance(k, str):
                    k = self.create_arg(k)
                    if isinstance(k, Node):
                        raise RuntimeError(
                            "Keys for dictionaries used as an argument cannot contain a "
                            f"Node. Got key: {k}"
                        )
                r[k] = self.create_arg(v)
            return r
        if isinstance(a, slice):
            return slice(self.create_arg(a.start), self.create_arg(a.stop), self.create_arg(a.step))
        if isinstance(a, range):
            return range(self.create_arg(a.start), self.create_arg(a.stop), self.create_arg(a.step))
        if a is None or a is ... or isinstance(a, (*_BASE_TYPES, Node)):
            return a
        raise NotImplementedError(f"argument of type: {type(a)}")

    def to_bool(self, obj: Proxy) -> bool:
        raise TraceError("symbolically traced variables cannot be used as inputs to control flow")

    def iter(self, obj: Proxy):
        raise TraceError(
            "Proxy object cannot be iterated. This can be attempted when the Proxy is used in a "
            "loop or as a *args or **kwargs function argument. See the torch.fx docs on "
            "pytorch.org for a more detailed explanation of what types of control flow can be "
            "traced, and check out the Proxy docstring for help troubleshooting Proxy iteration "
            "errors"
        )

    def keys(self, obj: Proxy):
        return Attribute(obj, "keys")()


_BASE_TYPES = (
    str,
    int,
    float,
    bool,
    complex,
    numtorch.dtype,
    numtorch.Tensor,
    numtorch.device,
    numtorch.memory_format,
    numtorch.layout,
)


class GraphAppendingTracer(TracerBase):
    """The tracer of a Proxy made around a bare Node: it appends to that node's graph."""

    def __init__(self, graph: Graph) -> None:
        super().__init__()
        self.graph = graph
        self.scope = None
        self.module_stack = {}
        self.node_name_to_scope = {}


class Proxy:
    """Stands for a Node's value while tracing: operators, methods, attributes and torch
    functions applied to it are recorded as new nodes."""

    def __init__(self, node: Node, tracer: TracerBase | None = None) -> None:
        if tracer is None:
            tracer = GraphAppendingTracer(node.graph)
        self.tracer = tracer
        self.node = node
        hold_while_alive(self)  # Note [Recording torch functions]

    def __repr__(self) -> str:
        return f"Proxy({self.node.name})"

    def __getattr__(self, k: str) -> Attribute:
        if k.startswith("__") and k.endswith("__"):
            raise AttributeError(k)
        return Attribute(self, k)

    def __getstate__(self):
        return self.__dict__

    def __setstate__(self, d) -> None:
        self.__dict__ = d

    def __deepcopy__(self, memo):
        return self

    def __call__(self, *args, **kwargs) -> Proxy:
        return self.tracer.create_proxy("call_method", "__call__", (self,) + args, kwargs)

    def __iter__(self):
        # ``a, b = proxy`` unpacks a known number of items: one getitem node each
        caller = inspect.currentframe().f_back
        instructions = list(dis.get_instructions(caller.f_code))
        at = bisect.bisect_left([i.offset for i in instructions], caller.f_lasti)
        if at < len(instructions) and instructions[at].opname == "UNPACK_SEQUENCE":
            return (self[i] for i in range(instructions[at].argval))
        return self.tracer.iter(self)

    def __abs__(self) -> Proxy:
        return self.tracer.create_proxy("call_function", operator.abs, (self,), {})

    def __bool__(self) -> bool:
        return self.tracer.to_bool(self)

    def keys(self):
        return self.tracer.keys(self)

    def __len__(self) -> int:
        raise RuntimeError(
            "'len' is not supported in symbolic tracing by default. If you want this call to be "
            "recorded, please call torch.fx.wrap('len') at module scope"
        )


class Attribute(Proxy):
    """``proxy.name``: a method call when called, else a ``getattr`` node made on first use."""

    def __init__(self, root: Proxy, attr: str) -> None:
        self.root = root
        self.attr = attr
        self.tracer = root.tracer
        self._node: Node | None = None

    @property
    def node(self) -> Node:
        if self._node is None:
            self._node = self.tracer.create_proxy(
                "call_function", getattr, (self.root, self.attr), {}
            ).node
        return self._node

    def __call__(self, *args, **kwargs) -> Proxy:
        return self.tracer.create_proxy("call_method", self.attr, (self.root,) + args, kwargs)


class ParameterProxy(Proxy):
    """A parameter's proxy whose shape queries read the parameter itself."""

    def __init__(self, tracer: TracerBase, node: Node, name: str, param) -> None:
        super().__init__(node, tracer)
        self.param = param
        self.name = name

    def __repr__(self) -> str:
        return f"ParameterProxy({self.name})"

    @property
    def shape(self):
        return self.param.shape

    def size(self):
        return self.param.size()

    def dim(self):
        return self.param.dim()

    @property
    def ndim(self):
        return self.param.ndim

    def numel(self):
        return self.param.numel()

    def nelement(self):
        return self.param.nelement()


def _define_magic(method: str) -> None:
    def impl(*args, **kwargs):
        target = getattr(operator, method)
        return args[0].tracer.create_proxy("call_function", target, args, kwargs)

    impl.__name__ = method
    setattr(Proxy, f"__{method.strip('_')}__", impl)


def _define_reflectable(method: str) -> None:
    def impl(self, rhs):
        target = getattr(operator, method)
        return self.tracer.create_proxy("call_function", target, (rhs, self), {})

    impl.__name__ = impl.__qualname__ = f"__r{method.strip('_')}__"
    setattr(Proxy, impl.__name__, impl)


for _method in MAGIC_METHODS:
    _define_magic(_method)
for _method in REFLECTABLE_MAGIC_METHODS:
    _define_reflectable(_method)
