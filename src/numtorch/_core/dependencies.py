"""What a backward walk starts from: the root nodes and their gradients, how many edges
point at each node, and, for ``autograd.grad``, the part of the graph that leads to the
inputs whose gradients are captured (see engine.py)."""

from __future__ import annotations

from .graph import ONE_INPUT


def nodes_leading_to(roots, deps, targets) -> set:
    """Nodes from which some capture target is reachable through at least one edge (the
    part autograd.grad runs; a target itself runs only if it leads to another target)."""
    remaining = dict(deps)
    order = []
    stack = [n for n in roots if remaining.get(n, 0) == 0]
    while stack:
        node = stack.pop()
        order.append(node)
        for nxt in node._short_edges():
            if nxt.__class__ is tuple:
                nxt = nxt[0]
            if nxt is not None:
                remaining[nxt] -= 1
                if remaining[nxt] == 0:
                    stack.append(nxt)
    needed = set()
    for node in reversed(order):
        if any(n in needed or n in targets for n, _ in node.next_functions):
            needed.add(node)
    return needed


def graph_dependencies(root_nodes) -> dict:
    """How many edges point at each node reachable from the roots (iterative walk)."""
    deps = dict.fromkeys(root_nodes, 0)  # roots are known: a root reached again is not re-walked
    stack = list(root_nodes)
    pop, push = stack.pop, stack.append
    while stack:
        node = pop()
        edges = node._edges
        if edges is None:  # Note [Edges without a tuple] in op_node.py: the first one counted here
            nxt = node._edge0
            if nxt.__class__ is tuple:
                nxt = nxt[0]
            if nxt is not None:
                if nxt in deps:
                    deps[nxt] += 1
                else:
                    deps[nxt] = 1
                    push(nxt)
            nxt = node._edge1
            if nxt is ONE_INPUT:
                continue
            if nxt.__class__ is tuple:  # the second one, unrolled too: no tuple, no loop
                nxt = nxt[0]
            if nxt is not None:
                if nxt in deps:
                    deps[nxt] += 1
                else:
                    deps[nxt] = 1
                    push(nxt)
            continue
        for nxt in edges:
            if nxt.__class__ is tuple:
                nxt = nxt[0]
            if nxt is None:
                continue
            if nxt in deps:
                deps[nxt] += 1
            else:
                deps[nxt] = 1
                push(nxt)
    return deps


def start_walk(roots, grad_roots, inputs, arrays=False):
    """What a walk starts from: root nodes, dependency counts, the nodes whose gradients
    are captured for ``inputs`` (and the part of the graph leading to them), and the root
    gradients in their buffers (keyed by edge, as arrays with ``arrays``: see engine.py)."""
    root_edges = []
    for i, t in enumerate(roots):
        edge = t._edge()
        if edge[0] is None:
            raise RuntimeError(
                f"element {i} of tensors does not require grad and does not have a grad_fn"
            )
        root_edges.append(edge)
    root_nodes = list({id(e[0]): e[0] for e in root_edges}.values())
    deps = graph_dependencies(root_nodes)
    captures = {}
    needed = None
    if inputs is not None:
        for k, t in enumerate(inputs):
            node, nr = t._edge()
            if node is None:
                if t._requires_grad:
                    continue  # Note [Views made without grad mode] in views.py: never reached
                raise RuntimeError("One of the differentiated Tensors does not require grad")
            captures.setdefault(node, []).append((nr, k))
        needed = nodes_leading_to(root_nodes, deps, captures)
    buffers = {}
    for (node, nr), g in zip(root_edges, grad_roots):
        key = node if nr == 0 else (node, nr)
        if arrays and g is not None:
            g = g._data
        old = buffers.get(key)
        buffers[key] = g if old is None else old + g
    return root_nodes, deps, captures, needed, buffers
