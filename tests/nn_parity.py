"""Helpers for the nn tests: build the same layer in numtorch and torch, compare them."""

from __future__ import annotations

import numpy as np

import numtorch


def copy_state(source, target, lib):
    """Load ``source``'s state dict (either library) into ``target`` (built with ``lib``)."""
    state = {k: lib.tensor(np.array(v.detach().numpy())) for k, v in source.state_dict().items()}
    target.load_state_dict(state)


def pair(make, torch):
    """(numtorch module, torch module) with the same parameters and buffers."""
    theirs = make(torch)
    ours = make(numtorch)
    copy_state(theirs, ours, numtorch)
    return ours, theirs


def grad_fn_name(t):
    return None if t.grad_fn is None else t.grad_fn.name()


def outcome(fn, lib):
    """(exception type name, message) of ``fn(lib)``, or ('ok', None)."""
    try:
        fn(lib)
    except Exception as error:
        return type(error).__name__, str(error)
    return "ok", None


def assert_same_error(fn, torch, exact=True):
    ours, theirs = outcome(fn, numtorch), outcome(fn, torch)
    assert ours[0] == theirs[0], (ours, theirs)
    if exact:
        assert ours[1] == theirs[1], (ours, theirs)


def leaves(output) -> list:
    """The tensors of a (nested) tuple/list output, in order; None entries dropped."""
    if isinstance(output, (tuple, list)):
        return [t for part in output for t in leaves(part)]
    return [] if output is None else [output]


def run_both(make, torch, inputs, call=None, kwargs=None, dtype="float64", train=True, seed=0):
    """Build the same module in both libraries (torch's weights loaded into numtorch), run
    it on ``inputs`` (NumPy arrays; float ones require grad) and backpropagate a fixed
    random cotangent through every float output.

    Returns {lib name: (outputs, input grads, parameter grads, grad_fn names, module)}.
    ``call(module, *inputs, **kwargs)`` defaults to ``module(*inputs, **kwargs)``; kwargs
    holding NumPy arrays become tensors (masks).
    """
    ours, theirs = pair(make, torch)
    results = {}
    for lib, module in (("numtorch", ours), ("torch", theirs)):
        mod = module.double() if dtype == "float64" else module
        mod.train(train)
        lib_ = numtorch if lib == "numtorch" else torch
        tensors = []
        for a in inputs:
            if isinstance(a, np.ndarray) and a.dtype.kind == "f":
                tensors.append(lib_.tensor(a.astype(dtype), requires_grad=True))
            elif isinstance(a, np.ndarray):
                tensors.append(lib_.tensor(a))
            else:
                tensors.append(a)
        kw = {
            k: lib_.tensor(v) if isinstance(v, np.ndarray) else v for k, v in (kwargs or {}).items()
        }
        out = call(mod, *tensors, **kw) if call else mod(*tensors, **kw)
        outs = [t for t in leaves(out) if t.dtype.is_floating_point]
        rng = np.random.default_rng(seed)
        total = None
        for t in outs:
            if t.requires_grad:
                cot = lib_.tensor(rng.standard_normal(tuple(t.shape)), dtype=t.dtype)
                term = (t * cot).sum()
                total = term if total is None else total + term
        if total is not None:
            total.backward()
        input_grads = [t.grad if isinstance(t, lib_.Tensor) else None for t in tensors]
        param_grads = [p.grad for p in mod.parameters()]
        names = [grad_fn_name(t) for t in outs]
        results[lib] = (outs, input_grads, param_grads, names, mod)
    return results


def assert_runs_match(results, rtol=1e-9, atol=1e-11, names=True):
    """Outputs, input and parameter gradients (and grad_fn names) of ``run_both`` agree."""
    ours, theirs = results["numtorch"], results["torch"]
    assert len(ours[0]) == len(theirs[0])
    for a, b in zip(ours[0], theirs[0]):
        assert tuple(a.shape) == tuple(b.shape)
        assert str(a.dtype) == str(b.dtype)
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=rtol, atol=atol)
    if names:
        assert ours[3] == theirs[3]
    for kind in (1, 2):
        for a, b in zip(ours[kind], theirs[kind]):
            if b is None:
                assert a is None or not a.numpy().any()
                continue
            assert a is not None
            np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=rtol, atol=atol)
