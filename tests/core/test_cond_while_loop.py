"""torch.cond and torch.while_loop outside compile, against torch: values, grad_fn names,
gradients (closures included), the random stream, and the errors of torch's capture."""

from __future__ import annotations

import warnings

import pytest

import numtorch

torch = pytest.importorskip("torch")


@pytest.fixture(autouse=True)
def _torch_validates_distributions_afterwards():
    """torch's eager cond runs its capture machinery, which turns off the distributions'
    argument validation for the rest of the process: the later parity tests of validation
    errors need torch's default back."""
    default = torch.distributions.Distribution._validate_args
    yield
    torch.distributions.Distribution.set_default_validate_args(default)


def _summary(lib, value):
    if isinstance(value, lib.Tensor):
        node = value.grad_fn
        return (value.tolist(), str(value.dtype), None if node is None else type(node).__name__)
    if isinstance(value, (tuple, list)):
        return type(value).__name__, [_summary(lib, v) for v in value]
    return value


def _cases(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    x2, i0 = lib.tensor([1.0, 2.0]), lib.tensor(0)
    p = lib.tensor(False)
    cond, loop = lib.cond, lib.while_loop
    return {
        "cond_tensor_pred": lambda: cond(x.sum() > 0, lambda x: x * 2 + 1, lambda x: x - 1, (x,)),
        "cond_python_bool": lambda: cond(True, lambda x: x * 2, lambda x: x * 3, (x,)),
        "cond_list_operands": lambda: cond(False, lambda x: x * 2, lambda x: x * 3, [x]),
        "cond_no_operands": lambda: cond(
            lib.tensor(True), lambda: lib.ones(2), lambda: lib.zeros(2)
        ),
        "cond_python_int_aliasing_allowed": lambda: cond(1, lambda x: x, lambda x: x, (x,)),
        "cond_keywords": lambda: cond(
            pred=True, true_fn=lambda x: x, false_fn=lambda x: x, operands=(x,)
        ),
        "cond_tuple_outputs": lambda: cond(
            p, lambda x: (x * 1, x * 2), lambda x: (x * 3, x * 4), (x,)
        ),
        "cond_no_grad_operands": lambda: cond(p, lambda x: x * 2, lambda x: x * 3, (x.detach(),)),
        "cond_int_output": lambda: cond(p, lambda x: 1, lambda x: 2, (x,)),
        "cond_closure": lambda: cond(p, lambda: x * 2, lambda: x * 3),
        "cond_dict_operands": lambda: cond(
            p, lambda d: d["a"] * 2, lambda d: d["a"] * 3, ({"a": x},)
        ),
        "cond_shapes_may_differ": lambda: cond(p, lambda x: x * 1, lambda x: x[:1] * 1, (x,)),
        # errors
        "cond_pred_many_elements": lambda: cond(
            lib.tensor([True, False]), lambda x: x, lambda x: x, (x,)
        ),
        "cond_output_aliases_input": lambda: cond(p, lambda x: x, lambda x: x, (x,)),
        "cond_tuple_output_aliases": lambda: cond(
            p, lambda x, y: (x * 2, y), lambda x, y: (x, y), (x, x)
        ),
        "cond_none_output": lambda: cond(p, lambda x: None, lambda x: None, (x,)),
        "cond_int_operand": lambda: cond(p, lambda x, n: x * n, lambda x, n: x, (x, 3)),
        "cond_operands_not_tuple": lambda: cond(p, lambda x: x, lambda x: x, x),
        "cond_not_callable": lambda: cond(p, 1, 2, (x,)),
        "cond_dtypes_differ": lambda: cond(p, lambda x: x * 1, lambda x: x.double() * 1, (x,)),
        "cond_structures_differ": lambda: cond(p, lambda x: (x * 1, x * 2), lambda x: x * 3, (x,)),
        "loop": lambda: loop(lambda i, x: i < 3, lambda i, x: (i + 1, x * 2), (i0, x2)),
        "loop_list": lambda: loop(lambda i, x: i < 3, lambda i, x: (i + 1, x * 2), [i0, x2]),
        "loop_single": lambda: loop(lambda x: x.sum() < 10, lambda x: (x * 2,), (x2,)),
        "loop_body_returns_tensor": lambda: loop(lambda x: x.sum() < 10, lambda x: x * 2, (x2,)),
        "loop_int_carry": lambda: loop(lambda i, x: i < 3, lambda i, x: (i + 1, x * 2), (0, x2)),
        "loop_python_bool": lambda: loop(
            lambda i, x: (i < 3).item(), lambda i, x: (i + 1, x * 2), (i0, x2)
        ),
        "loop_zero_iterations": lambda: loop(
            lambda i, x: i < 0, lambda i, x: (i + 1, x * 2), (i0, x2)
        ),
        "loop_grad": lambda: loop(lambda i, x: i < 3, lambda i, x: (i + 1, x * 2), (i0, x)),
        # errors
        "loop_not_tuple": lambda: loop(lambda x: x.sum() < 10, lambda x: (x * 2,), x2),
        "loop_shape_changes": lambda: loop(
            lambda x: x.numel() < 4, lambda x: (lib.cat([x, x]),), (x2,)
        ),
        "loop_dtype_changes": lambda: loop(
            lambda i, x: i < 3, lambda i, x: (i + 1, x.double()), (i0, x2)
        ),
        "loop_not_callable": lambda: loop(1, 2, (x2,)),
        "loop_cond_not_bool": lambda: loop(
            lambda i, x: i + 3, lambda i, x: (i + 1, x * 2), (i0, x2)
        ),
        "loop_cond_not_scalar": lambda: loop(
            lambda i, x: x < 3, lambda i, x: (i + 1, x * 2), (i0, x2)
        ),
        "loop_arity_changes": lambda: loop(lambda i, x: i < 3, lambda i, x: (i + 1,), (i0, x2)),
        "loop_none_carry": lambda: loop(lambda i, x: i < 3, lambda i, x: (i + 1, x), (i0, None)),
    }


def _outcome(lib, case):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return _summary(lib, _cases(lib)[case]())
        except Exception as e:  # torch's capture errors: compared by type name
            return type(e).__name__, isinstance(e, RuntimeError)


@pytest.mark.parametrize("case", sorted(_cases(numtorch)))
def test_matches_torch(case):
    assert _outcome(numtorch, case) == _outcome(torch, case)


def test_gradients_flow_through_branches_and_loops():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        w = lib.tensor(3.0, requires_grad=True)
        y = lib.cond(lib.tensor(False), lambda x: (x * x).sum(), lambda x: (x**3).sum(), (x,))
        (g,) = lib.autograd.grad(y, x)
        z = lib.cond(lib.tensor(True), lambda x: (x * w).sum(), lambda x: x.sum(), (x,))
        z.backward()
        _, looped = lib.while_loop(
            lambda i, x: i < 3, lambda i, x: (i + 1, x * x), (lib.tensor(0), x)
        )
        (h,) = lib.autograd.grad(looped.sum(), x)
        return g.tolist(), x.grad.tolist(), w.grad.tolist(), h.tolist()

    assert run(numtorch) == run(torch)


def test_the_branch_not_taken_leaves_the_random_stream_alone():
    def run(lib):
        lib.manual_seed(0)
        x = lib.zeros(2)
        r = lib.cond(lib.tensor(True), lambda x: x + lib.randn(2), lambda x: x - lib.randn(2), (x,))
        return r.tolist(), lib.randn(2).tolist()

    assert run(numtorch) == run(torch)
