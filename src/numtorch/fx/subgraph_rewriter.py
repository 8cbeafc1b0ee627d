"""torch.fx.subgraph_rewriter: finding a pattern's graph inside a GraphModule's graph and
putting a replacement's graph in its place."""

from __future__ import annotations

import copy
from typing import NamedTuple

from numtorch.nn import Module

from ._symbolic_trace import symbolic_trace
from .graph import Graph
from .graph_module import GraphModule
from .node import Node

__all__ = ["Match", "replace_pattern"]


class Match(NamedTuple):
    anchor: Node  # the pattern node matching started from (what the pattern returns)
    nodes_map: dict  # pattern node -> the node of the larger graph it matched


def _flatten(args, kwargs) -> tuple[list, object] | None:
    leaves: list = []

    def walk(a):
        if isinstance(a, (tuple, list)):
            return (type(a), tuple(walk(x) for x in a))
        if isinstance(a, dict):
            return (dict, tuple((k, walk(v)) for k, v in a.items()))
        leaves.append(a)
        return None

    spec = (walk(args), walk(kwargs))
    return leaves, spec


class _Matcher:
    """Matches a pattern graph (placeholders match any value) backwards from its output."""

    def __init__(self, pattern: Graph) -> None:
        self.pattern = pattern
        out = pattern.output_node()
        returned = out.args[0]
        self.returning = (
            [returned]
            if isinstance(returned, Node)
            else [n for n in returned if isinstance(n, Node)]
        )
        self.placeholders = [n for n in pattern.nodes if n.op == "placeholder"]
        self.inner = [n for n in pattern.nodes if n.op not in ("placeholder", "output")]

    def _match(self, pn: Node, gn: Node, nodes_map: dict) -> bool:
        if pn in nodes_map:
            return nodes_map[pn] is gn
        if pn.op == "placeholder":
            if any(v is gn for k, v in nodes_map.items() if k.op == "placeholder"):
                return False
            nodes_map[pn] = gn
            return True
        if gn in nodes_map.values() or pn.op != gn.op or pn.target != gn.target:
            return False
        p_leaves, p_spec = _flatten(pn.args, pn.kwargs)
        g_leaves, g_spec = _flatten(gn.args, gn.kwargs)
        if p_spec != g_spec:
            return False
        nodes_map[pn] = gn
        for pa, ga in zip(p_leaves, g_leaves):
            if isinstance(pa, Node) and isinstance(ga, Node):
                if not self._match(pa, ga, nodes_map):
                    return False
            elif isinstance(pa, Node) or isinstance(ga, Node) or pa != ga:
                return False
        return True

    def match(self, graph: Graph) -> list[Match]:
        matches: list[Match] = []
        taken: set = set()
        anchor = self.returning[0]
        for gn in graph.nodes:
            nodes_map: dict = {}
            if not self._match(anchor, gn, nodes_map):
                continue
            if any(p not in nodes_map for p in self.inner):
                continue
            matched = {nodes_map[p] for p in self.inner}
            # a value computed inside the match must not be read outside it
            returning = {nodes_map[p] for p in self.returning}
            if any(u not in matched for n in matched - returning for u in n.users):
                continue
            if matched & taken:
                continue
            taken |= matched
            matches.append(Match(anchor=anchor, nodes_map=nodes_map))
        return matches


def replace_pattern(gm: GraphModule, pattern, replacement) -> list[Match]:
    """Replaces each match of ``pattern`` (a function or Module, traced) in ``gm`` by
    ``replacement``'s graph; returns the matches.

    Example::

        >>> import numtorch as torch
        >>> gm = torch.fx.symbolic_trace(lambda x: torch.relu(x).neg())
        >>> _ = torch.fx.replace_pattern(gm, lambda x: torch.relu(x), lambda x: torch.sigmoid(x))
        >>> gm(torch.tensor([0.0]))
        tensor([-0.5000])
    """
    pattern_graph = pattern.graph if isinstance(pattern, Graph) else symbolic_trace(pattern).graph
    replacement_graph = (
        replacement.graph if isinstance(replacement, Graph) else symbolic_trace(replacement).graph
    )
    matcher = _Matcher(pattern_graph)
    matches = matcher.match(gm.graph)
    replacement_placeholders = [n for n in replacement_graph.nodes if n.op == "placeholder"]
    changed: dict[Node, Node] = {}
    for match in matches:
        if len(matcher.placeholders) != len(replacement_placeholders):
            raise AssertionError("pattern and replacement must take the same number of inputs")
        val_map: dict = {}
        for pn, rn in zip(matcher.placeholders, replacement_placeholders):
            gn = changed.get(match.nodes_map[pn], match.nodes_map[pn])
            match.nodes_map[pn] = gn
            val_map[rn] = gn
        returning = [match.nodes_map[p] for p in matcher.returning]
        users = {u for n in returning for u in n.users}
        first_user = next(n for n in gm.graph.nodes if n in users)
        with gm.graph.inserting_before(first_user):
            copied = gm.graph.graph_copy(replacement_graph, val_map)
        if isinstance(copied, Node):
            copied = (copied,)
        for gn, new in zip(returning, copied):
            gn.replace_all_uses_with(new)
            changed[gn] = new
        for pn in reversed(list(pattern_graph.nodes)):
            if pn.op not in ("placeholder", "output"):
                gm.graph.erase_node(match.nodes_map[pn])
    gm.recompile()
    if isinstance(replacement, Module):
        for node in gm.graph.nodes:
            if node.op in ("call_module", "get_attr"):
                try:
                    gm.get_submodule(node.target) if node.op == "call_module" else _fetch(
                        gm, node.target
                    )
                except AttributeError:
                    gm.add_submodule(
                        node.target, copy.deepcopy(replacement.get_submodule(node.target))
                    )
    return matches


def _fetch(module, target: str):
    for atom in target.split("."):
        module = getattr(module, atom)
    return module
