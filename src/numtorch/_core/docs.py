"""Docstrings and signatures for registry ops, written from the entry when it is published.

A registry op is a generic ``op(*args, **kwargs)`` closure; without this, ``help(torch.exp)``
shows ``(*args, **kwargs)`` and no text.
"""

from __future__ import annotations

from inspect import Parameter, Signature

TORCH_DOCS = "https://docs.pytorch.org/docs/stable/generated/{}.html"


def document(f, torch_name: str, missing: object) -> None:
    """Give ``f`` its signature, a summary and the torch page it mirrors (once)."""
    if getattr(f, "_documented", False):
        return
    mirror = f"Mirrors ``{torch_name}``: {TORCH_DOCS.format(torch_name)}"
    spec = getattr(f, "spec", None)
    if spec is None:  # a plain function keeps its own signature
        f.__doc__ = f"{f.__doc__.rstrip()}\n\n{mirror}" if f.__doc__ else mirror
        f._documented = True
        return
    params = [
        Parameter(name, Parameter.POSITIONAL_OR_KEYWORD)
        if default is missing
        else Parameter(name, Parameter.POSITIONAL_OR_KEYWORD, default=default)
        for name, default in zip(spec.params, spec.defaults)
    ]
    returns = "Tensor" if spec.outputs == 1 and spec.returns is None else "tuple[Tensor, ...]"
    f.__signature__ = Signature(params, return_annotation=returns)
    body = (f.__doc__ or "").strip() or (
        f"Differentiable; records ``{spec.node_class.__name__}`` as ``grad_fn`` when an input "
        "requires grad."
    )
    f._doc_parts = (f"{spec.name}({', '.join(spec.params)}) -> {returns}", mirror)
    summarize(f, body)
    f._documented = True


def summarize(f, text: str) -> None:
    """Replace the summary of a documented op whose forward has no docstring (a ufunc, a
    lambda), keeping the generated signature line and torch page."""
    header, mirror = f._doc_parts
    f.__doc__ = f"{header}\n\n{text}\n\n{mirror}"
