"""The package's shape: files, lines, import arrows between its modules, function-level
imports, and the import cycles (strongly connected groups of modules).

Reads the source with ``ast`` (nothing is imported). Prints the totals, then the largest
cycles with their members.

Run: python bench/import_structure.py [src/numtorch] [--members]
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def resolve(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    if node.level == 0:
        return node.module or ""
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports_of(path: Path, module: str, modules: set) -> tuple[set, int]:
    """Modules of the package that ``path`` imports, and how many imports sit in functions."""
    tree = ast.parse(path.read_text())
    targets = set()
    nested = 0
    top_level = {id(n) for n in tree.body}
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = resolve(node, module, path.name == "__init__.py")
            names = [f"{base}.{alias.name}" for alias in node.names] + [base]
        else:
            continue
        found = False
        for name in names:
            while name and name not in modules:
                name = name.rpartition(".")[0]
            if name and name != module:
                targets.add(name)
                found = True
        if found and id(node) not in top_level and not _under_type_checking(tree, node):
            nested += 1
    return targets, nested


def _under_type_checking(tree, target) -> bool:
    for node in tree.body:
        guarded = isinstance(node, ast.If) and "TYPE_CHECKING" in ast.dump(node.test)
        if guarded and any(child is target for child in ast.walk(node)):
            return True
    return False


def cycles(graph: dict) -> list[list[str]]:
    """Strongly connected components with more than one module (iterative Tarjan)."""
    index, low, on_stack, stack, result = {}, {}, set(), [], []
    counter = [0]
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter[0]
                    counter[0] += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        result.append(sorted(group))
    return sorted(result, key=len, reverse=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("root", nargs="?", default="src/numtorch")
    parser.add_argument("--members", action="store_true", help="list each cycle's modules")
    parser.add_argument(
        "--no-init",
        action="store_true",
        help="ignore arrows into packages' __init__ (re-export hubs), as a reader would",
    )
    args = parser.parse_args()
    root = Path(args.root).resolve()
    files = sorted(root.rglob("*.py"))
    modules = {module_name(p, root): p for p in files}
    graph, nested, lines = {}, 0, 0
    for name, path in modules.items():
        graph[name], n = imports_of(path, name, set(modules))
        if args.no_init:
            graph[name] = {t for t in graph[name] if modules[t].name != "__init__.py"}
        nested += n
        lines += len(path.read_text().splitlines())
    groups = cycles(graph)
    print(f"files                      {len(files):6d}")
    print(f"lines                      {lines:6d}")
    print(f"import arrows              {sum(len(t) for t in graph.values()):6d}")
    print(f"function-level imports     {nested:6d}")
    print(f"import cycles              {len(groups):6d}")
    print(f"largest cycle (modules)    {len(groups[0]) if groups else 0:6d}")
    if args.members:
        for group in groups:
            print(f"- {len(group)}: {', '.join(group)}")


if __name__ == "__main__":
    sys.exit(main())
