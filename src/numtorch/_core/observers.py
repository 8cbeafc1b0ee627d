"""Switches read on every op call: one flag check when profiling and anomaly checks are off.

An observer is an object with ``wrap(spec, args, run)`` (called for every op while it is
active: return a callable that runs ``run`` and observes it) and optionally
``wrap_node(node, run)`` (the same for every backward node the engine runs, AccumulateGrad
included). The profiler and the forward NaN/Inf checks are observers. An observer may
also have ``wrap_composite(name, args, run)``: called for functions marked ``composite``.
"""

import functools
import inspect


class Dispatch:
    slow = False  # True while any observer is active, or __torch_function__ overrides may act
    # True while an observer, autocast, meta tensors or vmap is active: what the engine
    # checks, since __torch_function__ overrides leave backward alone (torch's engine never
    # asks them) and it stays on gradient arrays
    observing = False
    observers: list = []
    anomaly = False  # record forward traces on new nodes
    autocast = None  # the innermost active torch.autocast region (numtorch.amp)
    meta = False  # a meta tensor exists (see Note [Meta tensors through ops] in meta.py)
    unsigned = False  # a uint16/32/64 dtype was used: ops check it (unsigned.py)
    in_backward = 0  # formulas running while meta is on: their saved CPU arrays may mix
    batching = None  # while vmap is active: runs ops on batched tensors (func/batching.py)
    batched_write = None  # the same for in-place writes
    # moves forward-mode tangents along with an in-place write (autograd/forward_inplace.py,
    # set when it loads: a tensor has tangents only once forward AD is in use)
    tangent_write = None
    # offers op calls to __torch_function__ overrides (numtorch/overrides.py, set once a
    # Tensor subclass that dispatches is defined or a TorchFunctionMode is entered)
    torch_function = None
    # the same for objects that are not tensors, asked when an op refused one (ops/boundary.py)
    torch_function_objects = None
    # runs ops that have a quantized tensor operand (numtorch/_quantized/dispatch.py, set
    # while one exists): NotImplemented for others, torch's refusal for unsupported ops
    quantized = None


dispatch = Dispatch()

# Functions marked ``composite``, by torch op name: what each shows the profiler
# (tests/ops/test_op_entries.py checks it against torch's schemas).
COMPOSITES: dict = {}


def refresh_slow() -> None:
    """Recompute ``dispatch.slow`` after a switch changed."""
    dispatch.observing = (
        bool(dispatch.observers)
        or dispatch.autocast is not None
        or dispatch.meta
        or dispatch.unsigned
        or dispatch.batching is not None
        or dispatch.quantized is not None
    )
    dispatch.slow = dispatch.observing or dispatch.torch_function is not None


def add_observer(observer) -> None:
    if observer not in dispatch.observers:
        dispatch.observers.append(observer)
    refresh_slow()


def remove_observer(observer) -> None:
    if observer in dispatch.observers:
        dispatch.observers.remove(observer)
    refresh_slow()


def composite(name: str, order: tuple | None = None, schema_args: int | None = None):
    """Mark a function built from ops as torch's op ``name`` (``aten::linear``), so the
    profiler shows it as torch does: one range around the ops it runs. Costs one flag
    check when no observer is active. Observers see every argument, defaults included,
    in the order of torch's schema (``order`` maps it from the function's own), cut or
    padded with None to ``schema_args`` where torch's schema has a different count."""

    def decorate(fn):
        signature = None

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            nonlocal signature
            if not dispatch.slow:
                return fn(*args, **kwargs)
            if dispatch.torch_function is not None:  # a torch op: offered as one call
                taken = dispatch.torch_function(wrapper, args, kwargs)
                if taken is not NotImplemented:
                    return taken
            if dispatch.autocast is not None:
                args, kwargs = dispatch.autocast.cast_call(name, args, kwargs)
            if not dispatch.observers:
                return fn(*args, **kwargs)

            def run():
                return fn(*args, **kwargs)

            if signature is None:
                signature = inspect.signature(fn)
            try:
                bound = signature.bind(*args, **kwargs)
            except TypeError:  # let the call itself raise it
                return fn(*args, **kwargs)
            bound.apply_defaults()
            every = list(bound.arguments.values())
            if order is not None:
                every = [every[i] for i in order]
            if schema_args is not None:
                every = (every + [None] * schema_args)[:schema_args]
            for observer in dispatch.observers:
                wrap = getattr(observer, "wrap_composite", None)
                if wrap is not None:
                    run = wrap(name, every, run)
            return run()

        every = len(order) if order is not None else len(inspect.signature(fn).parameters)
        wrapper.schema_args = schema_args if schema_args is not None else every
        wrapper.composite = name  # what __torch_function__ handlers may ask of a call
        COMPOSITES.setdefault(name, []).append(wrapper)
        return wrapper

    return decorate
