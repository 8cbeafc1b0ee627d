"""torch.overrides and __torch_function__: Tensor subclasses, objects that are not tensors,
modes and the disabling context managers, each against torch."""

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")
LIBS = pytest.mark.parametrize("lib", [numtorch, torch], ids=["numtorch", "torch"])


def logging_subclass(lib):
    calls = []

    class Logged(lib.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            calls.append(func.__name__)
            return super().__torch_function__(func, types, args, kwargs or {})

    return Logged, calls


@LIBS
def test_a_plain_subclass_keeps_its_type_and_records_an_alias(lib):
    class Tagged(lib.Tensor):
        pass

    x = lib.ones(2, requires_grad=True)
    y = x.as_subclass(Tagged)
    z = y * 2
    assert type(z) is Tagged and type(lib.add(y, 1)) is Tagged and type(y[0]) is Tagged
    assert type(y.sum()) is Tagged
    assert z.grad_fn.name() == "AliasBackward0"
    assert z.grad_fn.next_functions[0][0].name() == "MulBackward0"
    assert repr(y) == "Tagged([1., 1.], grad_fn=<AliasBackward0>)"
    z.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0]


@LIBS
def test_a_logging_subclass_sees_functions_methods_operators_and_in_place(lib):
    Logged, calls = logging_subclass(lib)
    a = lib.ones(2).as_subclass(Logged)
    b = a + 1
    lib.mul(a, 2)
    a.sum()
    e = a.add_(1)
    assert calls == ["add", "mul", "sum", "add_"]
    assert type(b) is Logged and e is a and a.tolist() == [2.0, 2.0]


@LIBS
def test_parameters_opt_out(lib):
    p = lib.nn.Parameter(lib.ones(2))
    assert type(p * 2) is lib.Tensor
    assert lib.nn.Parameter.__torch_function__ is lib._C._disabled_torch_function_impl


@LIBS
def test_an_object_that_is_not_a_tensor_takes_over(lib):
    class Scalar:
        def __init__(self, value):
            self.value = value

        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            if func is lib.mean:
                return float(np.mean([a.value for a in args if isinstance(a, Scalar)]))
            return ("taken", func.__name__)

    assert lib.mean(Scalar(3)) == 3.0
    assert lib.add(Scalar(1), 2) == ("taken", "add")
    assert lib.overrides.has_torch_function((Scalar(1),))
    assert lib.overrides.is_tensor_like(Scalar(1)) and not lib.overrides.is_tensor_like(3)
    assert lib.overrides.is_tensor_like(lib.ones(1))
    assert not lib.overrides.has_torch_function((lib.ones(1),))


@LIBS
def test_all_handlers_declining_raises_type_error(lib):
    class Declines(lib.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            return NotImplemented

    with pytest.raises(TypeError, match="Multiple dispatch failed for 'torch.add'"):
        lib.add(lib.ones(1).as_subclass(Declines), 1)


@LIBS
def test_a_mode_sees_the_ops_run_in_its_block(lib):
    seen = []

    class Mode(lib.overrides.TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            seen.append(func.__name__)
            return func(*args, **(kwargs or {}))

    t = lib.ones(1)
    with Mode():
        r = lib.add(t, 1).exp()
        t.mul_(3)
    lib.add(t, 1)
    assert seen == ["add", "exp", "mul_"]
    assert r.tolist() == pytest.approx([np.e**2]) and t.tolist() == [3.0]


@LIBS
def test_disable_subclass_dispatch(lib):
    Logged, calls = logging_subclass(lib)
    a = lib.ones(2).as_subclass(Logged)
    with lib._C.DisableTorchFunctionSubclass():
        r = a + 1
    assert calls == [] and type(r) is lib.Tensor
    with lib._C.DisableTorchFunction():
        assert not lib.overrides.has_torch_function((a,))


@LIBS
def test_handle_torch_function_in_a_users_function(lib):
    Logged, calls = logging_subclass(lib)

    def scaled(x, k=2.0):
        if lib.overrides.has_torch_function((x,)):
            return lib.overrides.handle_torch_function(scaled, (x,), x, k=k)
        return x * k

    a = lib.ones(1).as_subclass(Logged)
    result = scaled(a, k=3.0)
    assert calls[0] == "scaled" and result.tolist() == [3.0] and type(result) is Logged


def test_overridable_and_ignored_functions_are_disjoint():
    from numtorch import overrides

    overridable = set(overrides.get_overridable_functions()[numtorch])
    assert numtorch.add in overridable and numtorch.exp in overridable
    assert not overridable & overrides.get_ignored_functions()
    assert overrides.resolve_name(numtorch.add) == "torch.add"
    assert overrides.is_tensor_method_or_property(numtorch.Tensor.add)
    assert not overrides.is_tensor_method_or_property(numtorch.add)


@LIBS
def test_unary_and_variadic_checks_and_the_base_mode(lib):
    Logged, _ = logging_subclass(lib)
    a = lib.ones(1).as_subclass(Logged)
    overrides = lib.overrides
    assert overrides.has_torch_function_unary(a) and not overrides.has_torch_function_unary(
        lib.ones(1)
    )
    assert overrides.has_torch_function_variadic(lib.ones(1), a)
    assert not overrides.has_torch_function_variadic(lib.ones(1), 2)
    with overrides.BaseTorchFunctionMode():
        assert lib.add(lib.ones(1), 1).tolist() == [2.0]


@LIBS
def test_make_subclass_builds_a_leaf_sharing_memory(lib):
    class Buffer(lib.Tensor):
        pass

    data = lib.ones(2)
    b = lib.Tensor._make_subclass(Buffer, data, True)
    assert type(b) is Buffer and b.requires_grad and b.is_leaf and b.grad_fn is None
    assert (b * 2).grad_fn.name() == "AliasBackward0"
    data.add_(1)
    assert b.tolist() == [2.0, 2.0]
    with pytest.raises(TypeError):
        lib.Tensor._make_subclass(Buffer, [1.0])


@LIBS
def test_testing_overrides_are_dummies_returning_minus_one(lib):
    import inspect

    dummies = lib.overrides.get_testing_overrides()
    assert lib.add in dummies and lib.exp in dummies
    assert dummies[lib.add](lib.ones(1), lib.ones(1)) == -1
    assert list(inspect.signature(dummies[lib.exp]).parameters)[0] == "input"
    assert all(callable(d) for d in dummies.values())


@LIBS
def test_is_tensor_like_is_re_exported_by_autograd(lib):
    class TensorLike:
        @classmethod
        def __torch_function__(cls, func, types, args, kwargs):
            return -1

    assert lib.autograd.is_tensor_like is lib.overrides.is_tensor_like
    assert [lib.autograd.is_tensor_like(x) for x in (lib.ones(1), 6, None, TensorLike())] == [
        True,
        False,
        False,
        True,
    ]


def _redispatch_story(lib):
    """torch.overrides.redispatch_function from a subclass and from a mode."""
    seen = []
    overrides = lib.overrides

    class Logging(lib.Tensor):
        depth = 0

        @classmethod
        def __torch_function__(cls, func, types, args, kwargs=None):
            seen.append("  " * cls.depth + func.__name__)
            cls.depth += 1
            try:
                return overrides.redispatch_function(func, types, args, kwargs)
            finally:
                cls.depth -= 1

    def scaled_mul(a, b):
        if overrides.has_torch_function((a, b)):
            return overrides.handle_torch_function(scaled_mul, (a, b), a, b)
        return a * b + 1

    x, y = Logging(lib.tensor([3.0])), Logging(lib.tensor([4.0]))
    result = scaled_mul(x, y)
    seen += [type(result).__name__, result.tolist(), type(x * 2).__name__]

    class Mode(overrides.TorchFunctionMode):
        def __torch_function__(self, func, types, args, kwargs=None):
            seen.append("mode " + func.__name__)
            with self:
                return overrides.redispatch_function(func, types, args, kwargs)

    a, b = lib.tensor([3.0]), lib.tensor([4.0])
    with Mode():
        result = scaled_mul(a, b)
    seen.append(result.tolist())
    return seen


def test_redispatch_function_skips_one_level_as_torch():
    assert _redispatch_story(numtorch) == _redispatch_story(torch)


def _functional_ops_seen(lib):
    """torch's functional ops (linear, layer_norm, cross_entropy) are offered as one call."""
    seen = []

    class Mode(lib.overrides.TorchFunctionMode):
        def __torch_function__(self, func, types, args, kwargs=None):
            seen.append(func.__name__)
            return func(*args, **(kwargs or {}))

    F = lib.nn.functional
    x, w, target = lib.ones(2, 3), lib.ones(4, 3), lib.zeros(2, dtype=lib.long)
    with Mode():
        out = F.layer_norm(F.linear(x, w), (4,))
        F.cross_entropy(out, target)
    logged, calls = logging_subclass(lib)
    y = F.linear(x.as_subclass(logged), w)
    return seen, calls, type(y) is logged


def test_functional_ops_are_offered_to_torch_function_as_one_call():
    assert _functional_ops_seen(numtorch) == _functional_ops_seen(torch)
