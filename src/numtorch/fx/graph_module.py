"""torch.fx.graph_module: a Module whose forward is the Python code generated from a Graph."""

from __future__ import annotations

import copy
import itertools
import linecache

import numtorch
from numtorch.nn import Module

from .graph import Graph

__all__ = ["GraphModule"]

_source_ids = itertools.count()


def _exec_forward(src: str, globals_: dict):
    """Compiles generated source under a fake file name that tracebacks can show."""
    key = f"<eval_with_key>.{next(_source_ids)}"
    linecache.cache[key] = (len(src), None, src.splitlines(True), key)
    scope = dict(globals_)
    exec(compile(src, key, "exec"), scope)
    return scope["forward"]


def _copy_attr(from_module: Module, to_module: Module, target: str) -> None:
    """Copies ``from_module``'s attribute at the dotted path ``target``, creating empty
    Modules for the path's missing parents."""
    *prefix, field = target.split(".")
    for item in prefix:
        f = getattr(from_module, item)
        t = getattr(to_module, item, None)
        if f is t:
            return
        if t is None:
            t = Module()
            setattr(to_module, item, t)
        from_module, to_module = f, t
    orig = getattr(from_module, field)
    if isinstance(orig, numtorch.Tensor) and not isinstance(orig, numtorch.nn.Parameter):
        to_module.register_buffer(field, orig)
    else:
        setattr(to_module, field, orig)


def _assign_attr(from_obj, to_module: Module, target: str) -> None:
    *prefix, field = target.split(".")
    for item in prefix:
        t = getattr(to_module, item, None)
        if t is None:
            t = Module()
            setattr(to_module, item, t)
        to_module = t
    if isinstance(from_obj, numtorch.Tensor) and not isinstance(from_obj, numtorch.nn.Parameter):
        to_module.register_buffer(field, from_obj)
    else:
        setattr(to_module, field, from_obj)


class GraphModule(Module):
    """A Module made from a Graph: it holds the submodules and attributes the graph reads
    (copied from ``root``) and runs the code generated from the graph."""

    def __new__(cls, *args, **kwargs):
        # each instance gets its own class, since recompile() sets ``forward`` on the class
        for t in cls.__mro__:
            c = t.__qualname__.split(".")[-1]
            if c != "GraphModuleImpl":
                cls = t
                break

        class GraphModuleImpl(cls):
            pass

        return super().__new__(GraphModuleImpl)

    def __init__(self, root, graph: Graph, class_name: str = "GraphModule") -> None:
        super().__init__()
        self.__class__.__name__ = class_name
        if isinstance(root, Module):
            if hasattr(root, "training"):
                self.training = root.training
            for node in graph.nodes:
                if node.op in ("get_attr", "call_module"):
                    _copy_attr(root, self, node.target)
        elif isinstance(root, dict):
            for node in graph.nodes:
                if node.op in ("get_attr", "call_module"):
                    if node.target not in root:
                        raise RuntimeError(
                            f"Node {node} referenced target {node.target} but that target "
                            "was not provided in ``root``!"
                        )
                    _assign_attr(root[node.target], self, node.target)
        else:
            raise RuntimeError("Unsupported type " + str(root) + " passed for root!")
        self.graph = graph
        self._tracer_cls = graph._tracer_cls
        self.meta = getattr(root, "meta", {}) if isinstance(root, Module) else {}

    @property
    def graph(self) -> Graph:
        return self.__dict__["_graph"]

    @graph.setter
    def graph(self, g: Graph) -> None:
        if not isinstance(g, Graph):
            raise AssertionError(f"Expected a Graph instance, but got {type(g)}")
        self.__dict__["_graph"] = g
        g.owning_module = self
        self.recompile()

    @property
    def code(self) -> str:
        """The Python source of the generated ``forward``."""
        if "_code" not in self.__dict__:
            raise RuntimeError("Code has not been generated! Please report a bug to PyTorch")
        return self._code

    def recompile(self):
        """Regenerates ``forward`` from ``self.graph`` (call it after editing the graph)."""
        python_code = self.graph.python_code(root_module="self")
        self.__dict__["_code"] = python_code.src
        type(self).forward = _exec_forward(python_code.src, python_code.globals)
        return python_code

    def print_readable(
        self,
        print_output: bool = True,
        include_stride: bool = False,
        include_device: bool = False,
        colored: bool = False,
        **kwargs,
    ) -> str:
        """The generated code as a class, with each value's dtype and shape where ``meta``
        has them (after ShapeProp), and the code of GraphModule submodules nested."""
        return _print_readable(self, type(self).__name__, print_output)

    def __str__(self) -> str:
        return "\n".join(
            [
                super().__str__(),
                self._code,
                "# To see more debug info, please use `graph_module.print_readable()`",
            ]
        )

    def __copy__(self) -> GraphModule:
        res = GraphModule(self, self.graph)
        res.__dict__ = self.__dict__.copy()
        return res

    def __deepcopy__(self, memo) -> GraphModule:
        res = Module.__new__(type(self))
        memo[id(self)] = res
        fake = Module()
        fake.__dict__ = copy.deepcopy(self.__dict__, memo)
        GraphModule.__init__(res, fake, fake.__dict__["_graph"])
        for k, v in fake.__dict__.items():
            if k not in res.__dict__:
                res.__dict__[k] = v
        return res

    # -- editing submodules --------------------------------------------------------------------
    def add_submodule(self, target: str, m: Module) -> bool:
        *prefix, field = target.split(".")
        mod: Module = self
        for item in prefix:
            submod = getattr(mod, item, None)
            if submod is None:
                submod = Module()
                setattr(mod, item, submod)
            if not isinstance(submod, Module):
                return False
            mod = submod
        mod.add_module(field, m)
        return True

    def delete_submodule(self, target: str) -> bool:
        *path, name = target.split(".")
        mod: Module = self
        for item in path:
            if not hasattr(mod, item):
                return False
            mod = getattr(mod, item)
            if not isinstance(mod, Module):
                return False
        if not hasattr(mod, name) or not isinstance(getattr(mod, name), Module):
            return False
        delattr(mod, name)
        return True

    def delete_all_unused_submodules(self) -> None:
        """Deletes the submodules no call_module or get_attr node reaches."""
        used: list[str] = []
        for node in self.graph.nodes:
            if node.op in ("call_module", "get_attr"):
                fullpath = node.target.split(".")
                used.extend(".".join(fullpath[:i]) for i in range(1, len(fullpath) + 1))
                if node.op == "call_module":
                    try:
                        submod = self.get_submodule(node.target)
                    except AttributeError:
                        continue
                    used.extend(
                        f"{node.target}.{name}" for name, _ in submod.named_modules() if name
                    )
        keep = set(used)
        for name, _ in list(self.named_modules()):
            if name and name not in keep:
                self.delete_submodule(name)


def _indent(s: str, spaces: int) -> str:
    first, *rest = s.split("\n")
    return "\n".join([first] + [" " * spaces + line if line.strip() else "" for line in rest])


def _print_readable(module: GraphModule, name: str, print_output: bool) -> str:
    code = module.graph.python_code(root_module="self", verbose=True).src.lstrip("\n")
    code = _indent(f"class {name}(torch.nn.Module):\n" + code, 4)
    nested = [""] + [
        _print_readable(m, child, False)
        for child, m in module.named_children()
        if isinstance(m, GraphModule)
    ]
    output = code + _indent("\n".join(nested), 4)
    if print_output:
        print(output)
    return output
