"""Print a backward graph: ``dump`` gives an indented text tree, ``to_dot`` Graphviz source.

Beyond torch (users have long asked for a built-in view of the graph): each node shows its
name, what it saved for backward (shape, dtype, and whether it was modified in place or
already freed), its hooks, and for leaves the variable's shape and whether it has a
``.grad``. A node reached twice is printed once and referred to by its number afterwards.
Reading the graph changes nothing: no saved value is unpacked, so no version check fires.
"""

from __future__ import annotations

from .graph import AccumulateGrad
from .saved import SavedTensor, as_saved_tensor
from .tensor import Tensor

_MAX_VALUE_CHARS = 40
_MAX_INDENT = 32  # deeper nodes say their depth instead of indenting further


def _describe_array(shape, dtype) -> str:
    dtype = str(dtype).removeprefix("torch.")  # NumPy and numtorch dtypes print alike
    return f"{dtype}[{', '.join(str(n) for n in shape)}]"


def _describe_saved(value) -> str:
    value = as_saved_tensor(value)  # Note [Saved inputs kept bare]
    if not isinstance(value, SavedTensor):
        text = repr(value)
        return text if len(text) <= _MAX_VALUE_CHARS else text[: _MAX_VALUE_CHARS - 3] + "..."
    if value.packed is not None:  # replaced by a saved_tensors_hooks pack function
        shape, dtype = value.meta
        text = _describe_array(shape, dtype) + " packed by a hook"
    else:
        data = value.data if value.tensor is None else value.tensor._data
        text = _describe_array(data.shape, data.dtype)
    if value.vc.version != value.version:
        text += f" MODIFIED IN PLACE (version {value.vc.version}, saved at {value.version})"
    return text


def _saved_lines(node) -> list[str]:
    saved = node._saved
    if saved is None:
        return []
    if isinstance(saved, tuple) and hasattr(node, "_saved_items"):  # registry ops: save plan
        entries = node._saved_items()
    elif isinstance(saved, tuple):  # custom Functions: ctx.saved_tensors in order
        entries = [(f"saved_tensors[{i}]", value) for i, value in enumerate(saved)]
    else:
        return ["saved values freed (backward ran without retain_graph=True)"]
    return [f"saved {name}: {_describe_saved(value)}" for name, value in entries]


def _hook_lines(node) -> list[str]:
    counts = {
        "pre-hooks": len(node._pre_hooks or ()),
        "hooks": len(node._post_hooks or ()),
        "tensor hooks": sum(len(h) for h in (node._tensor_pre_hooks or {}).values()),
        "retain_grad": len(node._retains_grad or ()),
    }
    return [f"{kind}: {n}" for kind, n in counts.items() if n]


def _label(node) -> list[str]:
    """The node's name, then one line per fact about it."""
    name = node.name().rsplit("::", 1)[-1]
    if isinstance(node, AccumulateGrad):
        variable = node.variable
        facts = [f"variable: {_describe_array(variable.shape, variable.dtype)}"]
        facts.append("has .grad" if variable.grad is not None else "no .grad yet")
        return [name, *facts, *_hook_lines(node)]
    return [name, *_saved_lines(node), *_hook_lines(node)]


def _roots(outputs) -> list:
    items = outputs if isinstance(outputs, (tuple, list)) else [outputs]
    roots = []
    for item in items:
        node = item.grad_fn if isinstance(item, Tensor) else item
        if isinstance(item, Tensor) and node is None and item.requires_grad:
            node = item._edge()[0]  # a leaf: its AccumulateGrad
        if node is None:
            raise ValueError(
                "dump/to_dot: the tensor has no graph (it does not require grad); pass a "
                "tensor computed from inputs that require grad, or its grad_fn"
            )
        roots.append(node)
    return roots


def _walk(roots):
    """Yield ``(depth, node, number, first_visit)`` depth-first, iteratively (graphs can be
    deeper than Python's recursion limit)."""
    numbers: dict[int, int] = {}
    stack = [(0, node) for node in reversed(roots)]
    while stack:
        depth, node = stack.pop()
        first = id(node) not in numbers
        if first:
            numbers[id(node)] = len(numbers)
        yield depth, node, numbers[id(node)], first
        if first:
            children = [n for n, _ in node.next_functions if n is not None]
            stack.extend((depth + 1, child) for child in reversed(children))


def dump(outputs) -> str:
    """The backward graph of ``outputs`` (a tensor, a ``grad_fn``, or a list of them) as an
    indented tree, inputs below the node that uses them.

    Example:
        >>> import numtorch as torch
        >>> x = torch.ones(2, requires_grad=True)
        >>> print(torch.autograd.graph.dump((x.exp() * x).sum()))
        #0   SumBackward0
        #1     MulBackward0  [saved other: float32[2]; saved input: float32[2]]
        #2       ExpBackward0  [saved result: float32[2]]
        #3         AccumulateGrad  [variable: float32[2]; no .grad yet]
                 -> #3 AccumulateGrad
    """
    lines = []
    for depth, node, number, first in _walk(_roots(outputs)):
        indent = "  " * min(depth, _MAX_INDENT) + (
            f"(depth {depth}) " if depth > _MAX_INDENT else ""
        )
        name, *facts = _label(node)
        if first:
            details = f"  [{'; '.join(facts)}]" if facts else ""
            lines.append(f"#{number:<3} {indent}{name}{details}")
        else:
            lines.append(f"     {indent}-> #{number} {name}")
    return "\n".join(lines)


def to_dot(outputs) -> str:
    """The backward graph of ``outputs`` as Graphviz DOT source (render it with
    ``dot -Tsvg``): one box per node, leaves in blue, edges from inputs to their users."""
    numbers, lines = {}, []
    for _depth, node, number, first in _walk(_roots(outputs)):
        if first:
            numbers[id(node)] = (number, node)
    for number, node in numbers.values():
        label = "\\n".join(line.replace('"', '\\"') for line in _label(node))
        style = ', style=filled, fillcolor="lightblue"' if isinstance(node, AccumulateGrad) else ""
        lines.append(f'  n{number} [label="{label}"{style}];')
    for number, node in numbers.values():
        for child, _ in node.next_functions:
            if child is not None:
                lines.append(f"  n{numbers[id(child)][0]} -> n{number};")
    return "\n".join(["digraph backward {", "  node [shape=box];", *lines, "}"])
