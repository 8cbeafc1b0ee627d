"""Anomaly detection: forward traces on backward errors, NaN checks, parent chains, state
restore, and the forward NaN/Inf check (beyond torch)."""

import gc
import traceback
import warnings
import weakref

import pytest

import numtorch
from numtorch import autograd
from numtorch._core.anomaly_mode import forward_trace


def anomaly_warnings(record):
    return [str(w.message) for w in record if "Error detected in" in str(w.message)]


def seed_example(torch):
    """The seed: with anomaly on, the report names the line ``out = MyFunc.apply(a)``."""

    class MyFunc(torch.autograd.Function):
        @staticmethod
        def forward(ctx, inp):
            return inp.clone()

        @staticmethod
        def backward(ctx, gO):
            raise RuntimeError("Some error in backward")

    def run_fn(a):
        out = MyFunc.apply(a)
        return out.sum()

    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        with (
            pytest.raises(RuntimeError, match="Some error in backward") as error,
            torch.autograd.detect_anomaly(),
        ):
            inp = torch.rand(10, 10, requires_grad=True)
            out = run_fn(inp)
            out.backward()
    return error.value, anomaly_warnings(record)


def test_seed_example_names_the_forward_line():
    error, reports = seed_example(numtorch)
    assert len(reports) == 1
    report = reports[0]
    assert report.startswith(
        "Error detected in MyFuncBackward. Traceback of forward call that caused the error:"
    )
    assert "out = MyFunc.apply(a)" in report
    assert "in run_fn" in report
    # Beyond torch: the same report travels with the exception.
    assert any("out = MyFunc.apply(a)" in note for note in error.__notes__)
    assert not autograd.is_anomaly_enabled()


def test_seed_example_matches_torch():
    torch = pytest.importorskip("torch")
    ours, our_reports = seed_example(numtorch)
    theirs, their_reports = seed_example(torch)
    assert type(ours) is type(theirs) and str(ours) == str(theirs)
    first_line = their_reports[0].splitlines()[0]
    assert our_reports[0].splitlines()[0] == first_line
    assert "out = MyFunc.apply(a)" in their_reports[0]


def nan_case(torch, which):
    a = torch.zeros(1, dtype=torch.float64, requires_grad=True)
    with torch.autograd.detect_anomaly():
        out = {"div": lambda: a / a, "sqrt": lambda: (a - 1).sqrt(), "log": lambda: a.log() * 0}
        out[which]().sum().backward()


@pytest.mark.parametrize("which", ["div", "sqrt", "log"])
def test_nan_in_backward_raises_torch_error(which):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(RuntimeError) as ours:
            nan_case(numtorch, which)
    node = {"div": "DivBackward0", "sqrt": "SqrtBackward0", "log": "LogBackward0"}[which]
    output = 1 if which == "div" else 0
    assert str(ours.value) == f"Function '{node}' returned nan values in its {output}th output."
    assert any("Error detected in " + node in note for note in ours.value.__notes__)


def test_nan_message_matches_torch():
    torch = pytest.importorskip("torch")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for which in ("div", "sqrt", "log"):
            with pytest.raises(RuntimeError) as theirs:
                nan_case(torch, which)
            with pytest.raises(RuntimeError) as ours:
                nan_case(numtorch, which)
            assert str(ours.value) == str(theirs.value)


def test_check_nan_false_keeps_traces_but_skips_the_check():
    a = numtorch.zeros(1, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with autograd.detect_anomaly(check_nan=False):
            assert not numtorch.is_anomaly_check_nan_enabled()
            out = a / a
            assert "out = a / a" in forward_trace(out.grad_fn)
            out.sum().backward()
    assert a.grad.isnan().all()
    assert numtorch.is_anomaly_check_nan_enabled()


def double_backward_error(torch):
    class Inner(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.clone()

        @staticmethod
        def backward(ctx, g):
            raise RuntimeError("inner failed")

    class Outer(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x.clone()

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return Inner.apply(g * x)

    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        with (
            pytest.raises(RuntimeError, match="inner failed") as error,
            torch.autograd.detect_anomaly(),
        ):
            x = torch.rand(3, requires_grad=True)
            y = Outer.apply(x)
            (g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
            g.sum().backward()
    text = "".join(str(w.message) for w in record)
    return error.value, text


def test_nested_double_backward_shows_the_parent_chain():
    error, text = double_backward_error(numtorch)
    assert "Error detected in InnerBackward" in text
    assert "return Inner.apply(g * x)" in text
    assert "Previous calculation was induced by OuterBackward" in text
    assert "y = Outer.apply(x)" in text
    assert text.index("InnerBackward") < text.index("OuterBackward")
    assert "Previous calculation was induced by OuterBackward" in "".join(error.__notes__)


def test_parent_chain_matches_torch():
    torch = pytest.importorskip("torch")
    _, theirs = double_backward_error(torch)
    _, ours = double_backward_error(numtorch)
    for needle in (
        "Error detected in InnerBackward",
        "Previous calculation was induced by OuterBackward. Traceback of forward call that "
        "induced the previous calculation:",
        "y = Outer.apply(x)",
    ):
        assert needle in theirs and needle in ours


def test_state_is_restored_also_on_exceptions():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(KeyError), autograd.detect_anomaly(check_nan=False):
            raise KeyError("x")
        assert not numtorch.is_anomaly_enabled() and numtorch.is_anomaly_check_nan_enabled()
        autograd.set_detect_anomaly(True)
        try:
            with pytest.raises(ValueError), autograd.set_detect_anomaly(False):
                assert not numtorch.is_anomaly_enabled()
                raise ValueError
            assert numtorch.is_anomaly_enabled()
            with autograd.detect_anomaly(), autograd.set_detect_anomaly(False):
                assert not numtorch.is_anomaly_enabled()
            assert numtorch.is_anomaly_enabled()
        finally:
            autograd.set_detect_anomaly(False)
        assert not numtorch.is_anomaly_enabled()

        @autograd.detect_anomaly()
        def recurse(n):
            assert numtorch.is_anomaly_enabled()
            if n == 0:
                raise ArithmeticError
            return recurse(n - 1)

        with pytest.raises(ArithmeticError):
            recurse(3)
        assert not numtorch.is_anomaly_enabled()
        numtorch.set_anomaly_enabled(True, check_nan=False)
        assert numtorch.is_anomaly_enabled() and not numtorch.is_anomaly_check_nan_enabled()
        numtorch.set_anomaly_enabled(False)
    assert not numtorch.is_anomaly_enabled() and numtorch.is_anomaly_check_nan_enabled()


def test_state_functions_match_torch():
    torch = pytest.importorskip("torch")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for lib in (torch, numtorch):
            states = []
            with lib.autograd.detect_anomaly(check_nan=False):
                states.append((lib.is_anomaly_enabled(), lib.is_anomaly_check_nan_enabled()))
                with lib.autograd.set_detect_anomaly(False):
                    states.append((lib.is_anomaly_enabled(), lib.is_anomaly_check_nan_enabled()))
            states.append((lib.is_anomaly_enabled(), lib.is_anomaly_check_nan_enabled()))
            if lib is torch:
                expected = states
        assert states == expected


def test_traces_are_plain_values_and_recorded_only_when_on():
    x = numtorch.ones(2, requires_grad=True)
    assert (x * 2).grad_fn._anomaly_trace is None

    def forward(t):
        big = numtorch.ones(1000)
        ref = weakref.ref(big)
        return t * 2, ref

    gc.disable()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with autograd.detect_anomaly():
                y, ref = forward(x)
        assert "return t * 2, ref" in forward_trace(y.grad_fn)
        assert ref() is None  # no frame (and its locals) kept alive by the trace
    finally:
        gc.enable()


def test_inplace_error_under_anomaly_carries_the_forward_trace():
    x = numtorch.ones(3, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with autograd.detect_anomaly():
            a = x.exp()
            a.add_(1)
            with pytest.raises(RuntimeError, match="output 0 of Exp, is at version 1") as error:
                a.sum().backward()
    assert "Good luck!" in str(error.value)
    assert "a = x.exp()" in "".join(error.value.__notes__)


def test_user_exception_type_is_kept():
    class Fails(autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, g):
            raise ValueError("boom")

    x = numtorch.ones(2, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with autograd.detect_anomaly():
            y = Fails.apply(x)
            with pytest.raises(ValueError, match="boom") as error:
                y.sum().backward()
    notes = error.value.__notes__
    assert "y = Fails.apply(x)" in "".join(notes)
    # beyond torch, also without anomaly mode: which custom Function raised
    assert "Raised in the backward of FailsBackward" in notes[0]
    assert x.grad is None


# -- beyond torch: forward NaN/Inf check ---------------------------------------------------------
def test_forward_check_raises_at_the_first_bad_op():
    x = numtorch.tensor([[0.0, 1.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with autograd.detect_anomaly(check_forward=True):
            y = (x + 1).exp()  # finite: runs
            with pytest.raises(RuntimeError) as error:
                x.log()
            message = str(error.value)
            assert "log()" in message and "Inf" in message and "[[1, 2]]" in message
            with pytest.raises(RuntimeError, match=r"div\(\) produced NaN .*\[\[1, 2\], \[\]\]"):
                numtorch.div(x, numtorch.tensor(0.0))
        z = x.log()  # off again after the context
    assert y.shape == (1, 2) and z.isinf().any()


def test_forward_check_is_off_by_default_and_with_plain_anomaly_mode():
    x = numtorch.tensor([0.0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        x.log()
        with autograd.detect_anomaly():
            x.log()
        with pytest.raises(RuntimeError), autograd.detect_anomaly(check_forward=True):
            x.log()
        x.log()  # restored after the exception


# -- errors in backward without anomaly mode ------------------------------------------------------
def test_custom_backward_error_keeps_type_and_state_and_can_be_retried():
    class Boom(autograd.Function):
        fail = True

        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, g):
            if Boom.fail:
                raise ValueError("boom")
            return g

    x = numtorch.ones(2, requires_grad=True)
    y = (Boom.apply(x) * x).sum()
    with pytest.raises(ValueError, match="boom") as error:
        y.backward(retain_graph=True)
    assert x.grad is None  # nothing accumulated by the failed backward
    assert error.value.__notes__ == [
        "Raised in the backward of BoomBackward, the node of the custom Function "
        "test_custom_backward_error_keeps_type_and_state_and_can_be_retried.<locals>.Boom."
    ]
    assert error.value.__traceback__ is not None
    frames = [f.name for f in traceback.extract_tb(error.value.__traceback__)]
    assert frames[-1] == "backward"  # the user's frame is where it raised
    Boom.fail = False
    y.backward()
    assert x.grad.tolist() == [2.0, 2.0]


def nested(depth):
    class Nest(autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, g):
            if depth == 0:
                return g
            t = numtorch.ones(1, requires_grad=True)
            with numtorch.enable_grad():
                inner = nested(depth - 1).apply(t).sum()
            (gi,) = autograd.grad(inner, t)
            return g * gi

    return Nest


def test_reentrant_backward_runs_and_deep_nesting_fails_cleanly():
    x = numtorch.ones(1, requires_grad=True)
    nested(50).apply(x).sum().backward()
    assert x.grad.tolist() == [1.0]
    x = numtorch.ones(1, requires_grad=True)
    with pytest.raises(RecursionError) as error:
        nested(3000).apply(x).sum().backward()
    assert len(error.value.__notes__) == 1  # annotated once, not once per level
    assert x.grad is None and numtorch.is_grad_enabled()
    assert numtorch._core.backward_run.is_checkpoint_valid()
    nested(5).apply(x).sum().backward()  # the engine still works afterwards
    assert x.grad.tolist() == [1.0]
