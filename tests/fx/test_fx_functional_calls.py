"""The table of how torch's tracer records torch.nn.functional calls, read again from torch:
fails when torch's functional functions pass their arguments differently."""

from __future__ import annotations

import inspect
import warnings

import pytest

from numtorch.fx._functional_calls import FUNCTIONAL_CALLS

torch = pytest.importorskip("torch")
F = torch.nn.functional
pytestmark = pytest.mark.parity


class _Seen(Exception):
    def __init__(self, func, args, kwargs):
        self.func, self.args_, self.kwargs_ = func, args, kwargs


class _Marker:
    """Stands for one argument; records what torch hands to __torch_function__."""

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        raise _Seen(func, args, kwargs or {})

    def sigmoid(self):
        raise _Seen(".sigmoid", (), {})

    def tanh(self):
        raise _Seen(".tanh", (), {})


def _parameters(fn):
    params = list(inspect.signature(fn).parameters.values())
    if params and params[0].kind == params[0].VAR_POSITIONAL:  # boolean_dispatch
        variants = [c.cell_contents for c in fn.__closure__ if callable(c.cell_contents)]
        plain = [v for v in variants if "with_indices" not in v.__name__]
        params = list(inspect.signature(plain[0]).parameters.values())
    kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    return params, [p.name for p in params if p.kind in kinds]


def _recorded(name, fn):
    from torch.fx.node import _get_qualified_name

    params, names = _parameters(fn)
    markers = {n: _Marker() for n in names}
    kwargs = {n: markers[n] for n in names[1:]}
    if "return_indices" in kwargs:
        kwargs["return_indices"] = False
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            fn(markers[names[0]], **kwargs)
        except _Seen as seen:
            if isinstance(seen.func, str):
                return seen.func
            by_id = {id(m): n for n, m in markers.items()}
            by_id[id(False)] = "return_indices"
            positional = " ".join(by_id[id(a)] for a in seen.args_)
            keyword = " ".join(seen.kwargs_)
            defaults = {
                p.name: p.default for p in params if p.default is not p.empty and p.name in names
            }
            if "return_indices" in names:
                defaults.setdefault("return_indices", False)
            return (_get_qualified_name(seen.func), " ".join(names), positional, keyword, defaults)
    return None


@pytest.mark.parametrize("name", sorted(FUNCTIONAL_CALLS))
def test_functional_call_is_recorded_as_torch_records_it(name):
    fn = getattr(F, name)
    entry = FUNCTIONAL_CALLS[name]
    if isinstance(entry, str) and not entry.startswith("."):
        from torch.fx.node import _get_qualified_name

        assert _get_qualified_name(fn) == entry
    else:
        assert _recorded(name, fn) == entry
