"""A graph as the Python source of its ``forward``, line for line as torch.fx writes it."""

from __future__ import annotations

import enum

import numtorch

from ._namespace import CUSTOM_BUILTINS, Namespace
from ._torch_names import is_from_torch, qualified_name, torch_name, type_repr
from .node import Node

# operators written as Python syntax ('{} + {}'); the reflected ones a Proxy also records
REFLECTABLE_MAGIC_METHODS = {
    "add": "{} + {}",
    "sub": "{} - {}",
    "mul": "{} * {}",
    "floordiv": "{} // {}",
    "truediv": "{} / {}",
    "div": "{} / {}",
    "mod": "{} % {}",
    "pow": "{} ** {}",
    "lshift": "{} << {}",
    "rshift": "{} >> {}",
    "and_": "{} & {}",
    "or_": "{} | {}",
    "xor": "{} ^ {}",
    "getitem": "{}[{}]",
    "matmul": "{} @ {}",
}
MAGIC_METHODS = {
    "eq": "{} == {}",
    "ne": "{} != {}",
    "lt": "{} < {}",
    "gt": "{} > {}",
    "le": "{} <= {}",
    "ge": "{} >= {}",
    "pos": "+{}",
    "neg": "-{}",
    "invert": "~{}",
    **REFLECTABLE_MAGIC_METHODS,
}
INPLACE_METHODS = {
    "iadd": "{} += {}",
    "iand": "{} &= {}",
    "ifloordiv": "{} //= {}",
    "ilshift": "{} <<= {}",
    "imod": "{} %= {}",
    "imul": "{} *= {}",
    "imatmul": "{} @= {}",
    "ior": "{} |= {}",
    "ipow": "{} **= {}",
    "irshift": "{} >>= {}",
    "isub": "{} -= {}",
    "itruediv": "{} /= {}",
    "ixor": "{} ^= {}",
    "setitem": "{}[{}] = {}",
}

DTYPE_ABBRS = {
    numtorch.bfloat16: "bf16",
    numtorch.float64: "f64",
    numtorch.float32: "f32",
    numtorch.float16: "f16",
    numtorch.complex64: "c64",
    numtorch.complex128: "c128",
    numtorch.int8: "i8",
    numtorch.int16: "i16",
    numtorch.int32: "i32",
    numtorch.int64: "i64",
    numtorch.bool: "b8",
    numtorch.uint8: "u8",
}


def format_target(base: str, target: str) -> str:
    """``self.layer1.conv``, with ``getattr(r, "0")`` for parts that are not identifiers."""
    r = base
    for e in target.split("."):
        r = f"{r}.{e}" if e.isidentifier() else f'getattr({r}, "{e}")'
    return r


def python_code(graph, root_module: str, *, verbose: bool = False) -> tuple[str, dict]:
    """The source of ``forward`` and the globals it runs with."""
    namespace = Namespace()
    nodes = list(graph.nodes)
    for node in nodes:
        node._repr_fn = lambda n: namespace.create_name(n.name, n)
    try:
        return _generate(nodes, root_module, namespace, verbose)
    finally:
        for node in nodes:
            node._repr_fn = None


def _generate(nodes, root_module, namespace, verbose):
    free_vars: list[str] = []
    body: list[str] = []
    globals_: dict = {}
    wrapped_fns: dict[str, None] = {}
    return_annotation = ""

    def add_global(name_hint: str, obj) -> str:
        if is_from_torch(obj) and obj is not numtorch.device:
            return torch_name(obj) or qualified_name(obj)
        name = namespace.create_name(name_hint, obj)
        if name in globals_ and globals_[name] is not obj:
            raise AssertionError(f"Global name {name} already assigned to different object")
        globals_[name] = obj
        return name

    for name, obj in CUSTOM_BUILTINS.items():
        add_global(name, obj)

    def annotation(o) -> str:
        if o == ():
            return "()"
        return add_global(type_repr(o), o)

    def get_repr(arg) -> str:
        if isinstance(arg, Node):
            return repr(arg)
        if isinstance(arg, tuple) and hasattr(arg, "_fields"):
            name = add_global(qualified_name(type(arg)), type(arg))
            return f"{name}{tuple(arg)!r}"
        if isinstance(arg, enum.Enum):
            return f"{add_global(type(arg).__name__, type(arg))}.{arg.name}"
        if isinstance(arg, numtorch.Tensor):
            return f"torch.Tensor(size={list(arg.size())}, dtype={str(arg.dtype).split('.')[-1]})"
        if isinstance(arg, tuple):
            if len(arg) == 1:
                return f"({get_repr(arg[0])},)"
            return "(" + ", ".join(get_repr(a) for a in arg) + ")"
        if isinstance(arg, list):
            return "[" + ", ".join(get_repr(a) for a in arg) + "]"
        if isinstance(arg, slice):
            return f"slice({get_repr(arg.start)}, {get_repr(arg.stop)}, {get_repr(arg.step)})"
        return repr(arg)

    def format_args(args, kwargs) -> str:
        return ", ".join(
            [get_repr(a) for a in args] + [f"{k} = {get_repr(v)}" for k, v in kwargs.items()]
        )

    # a value is freed (set to None) right after its last use
    last_use: dict[Node, Node] = {}
    to_free: dict[Node, list[Node]] = {}
    for node in reversed(nodes):
        for inp in node._input_nodes:
            if inp not in last_use:
                last_use[inp] = node
                to_free.setdefault(node, []).append(inp)

    def free_after(user: Node) -> None:
        if user.op == "placeholder":
            return
        if user.op == "output":
            body.append("\n")
            return
        dead = list(to_free.get(user, []))
        if not user.users:
            dead.append(user)
        if dead:
            body.append(f";  {' = '.join([repr(n) for n in dead] + ['None'])}\n")
        else:
            body.append("\n")

    def type_annotation(node: Node) -> str:
        if verbose:
            meta = node.meta.get("val", node.meta.get("tensor_meta"))
            dtype, shape = getattr(meta, "dtype", None), getattr(meta, "shape", None)
            if dtype in DTYPE_ABBRS and shape is not None:
                return f': "{DTYPE_ABBRS[dtype]}[{", ".join(str(s) for s in shape)}]"'
        return "" if node.type is None else f" : {annotation(node.type)}"

    def emit(node: Node) -> None:
        nonlocal return_annotation
        ann = type_annotation(node)
        if node.op == "placeholder":
            default = f" = {get_repr(node.args[0])}" if node.args else ""
            free_vars.append(f"{node.target}{ann}{default}")
            raw_name = node.target.replace("*", "")
            if raw_name != repr(node):
                body.append(f"{node!r} = {raw_name}\n")
            return
        if node.op == "call_method":
            call = format_target(get_repr(node.args[0]), node.target)
            body.append(f"{node!r}{ann} = {call}({format_args(node.args[1:], node.kwargs)})")
            return
        if node.op == "call_function":
            target = node.target
            module, name = getattr(target, "__module__", ""), getattr(target, "__name__", "")
            if module == "_operator" and name in MAGIC_METHODS:
                body.append(
                    f"{node!r}{ann} = "
                    f"{MAGIC_METHODS[name].format(*(get_repr(a) for a in node.args))}"
                )
                return
            if module == "_operator" and name in INPLACE_METHODS:
                body.append(
                    f"{INPLACE_METHODS[name].format(*(get_repr(a) for a in node.args))};  "
                    f"{node!r}{ann} = {get_repr(node.args[0])}"
                )
                return
            global_name = add_global(qualified_name(target), target)
            if (
                global_name == "getattr"
                and len(node.args) == 2
                and isinstance(node.args[1], str)
                and node.args[1].isidentifier()
            ):
                body.append(
                    f"{node!r}{ann} = {format_target(get_repr(node.args[0]), node.args[1])}"
                )
                return
            body.append(f"{node!r}{ann} = {global_name}({format_args(node.args, node.kwargs)})")
            if node.meta.get("is_wrapped", False):
                wrapped_fns.setdefault(global_name)
            return
        if node.op == "call_module":
            call = format_target(root_module, node.target)
            body.append(f"{node!r}{ann} = {call}({format_args(node.args, node.kwargs)})")
            return
        if node.op == "get_attr":
            body.append(f"{node!r}{ann} = {format_target(root_module, node.target)}")
            return
        if node.op == "output":
            if node.type is not None:
                return_annotation = f" -> {annotation(node.type)}"
            body.append(f"return {get_repr(node.args[0])}")
            return
        raise NotImplementedError(f"node: {node.op} {node.target}")

    previous_summary = None
    for node in nodes:
        if verbose and node.op not in ("placeholder", "output"):
            summary = "\n# No stacktrace found for following nodes\n"
            if summary != previous_summary:
                previous_summary = summary
                body.append(summary)
        emit(node)
        free_after(node)
    if not body:
        body.append("pass\n")

    wrap_stmts = ""
    if wrapped_fns:
        from ._symbolic_trace import wrap  # the tracer imports this module: load it late

        wrap_name = add_global("wrap", wrap)
        wrap_stmts = "\n".join(f'{wrap_name}("{name}")' for name in wrapped_fns)

    if not free_vars or free_vars[0] != "self":
        free_vars.insert(0, "self")
    prologue = f"def forward({', '.join(free_vars)}){return_annotation}:"
    code = "".join(body).lstrip("\n")
    code = "\n".join("    " + line for line in code.split("\n"))
    return f"\n{wrap_stmts}\n\n{prologue}\n{code}", globals_
