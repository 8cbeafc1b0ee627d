"""How an op call runs: arrays in, forward, a Tensor out, and a node recorded when needed.

This is numtorch's hot path. ``build_runner`` picks, once per op at registration, the
fastest runner that fits the op: unary and binary pointwise ops skip the general argument
handling whenever the operands need no type promotion; everything else takes the general
path, which does the full torch promotion and handles lists, views and several outputs.
"""

from __future__ import annotations

import functools

from ..backend import layout, xp
from . import dtypes as _dtypes
from . import grad_mode, unsigned
from .anomaly_mode import record_forward_trace
from .graph import FREED, next_sequence_nr  # noqa: F401 (FREED: its public name)
from .input_meta import input_meta
from .meta import check_same_device, has_meta, metafy, refuse_meta
from .observers import dispatch, refresh_slow
from .saved import SavedTensor, SavedTensorList, save_input
from .tensor import Tensor, typename
from .views import mark_view

_grad_enabled = grad_mode.is_grad_enabled
_ndarray = xp.ndarray
_new = object.__new__
_NO_EDGE = (None, 0)
_NUMBERS = (int, float, bool)
_NUMBER_TYPES = (int, float, complex, xp.generic)  # what a Number argument may be


def _wrap(out) -> Tensor:
    if out.__class__ is not _ndarray:
        out = xp.asarray(out)
    t = _new(Tensor)
    t._data = out
    t._requires_grad = False
    t._grad_fn = None
    t._base = None
    return t


def wrap_int(value: int, dtype):
    """A Python int outside ``dtype``'s range wrapped around into it, as torch converts
    scalars (``uint8 + 300`` adds 44); ints beyond int64 raise torch's OverflowError."""
    if not -(2**63) <= value < 2**64:
        raise OverflowError("int too big to convert")
    info = xp.iinfo(dtype)
    if info.min <= value <= info.max:
        return value
    return xp.array(value & 0xFFFFFFFFFFFFFFFF, dtype=xp.uint64).astype(dtype)[()]


_C_NAMES = {"uint8": "uint8_t", "int8": "int8_t", "int16": "int16_t", "int32": "int"}
_C_NAMES.update(
    int64="int64_t", float16="c10::Half", float32="float", float64="double", bool="bool"
)


def check_scalar_fits(value, dtype, lenient: bool = False) -> None:
    """torch's refusal of a number its op cannot convert to ``dtype`` (a numtorch dtype)
    exactly: where, pow and remainder check, where arithmetic wraps (see ``wrap_int``).
    ``lenient`` is where's conversion: negative values wrap into unsigned types, and numbers
    convert to half unchecked (a float beyond its range becomes an infinity)."""
    np_dtype = dtype.np
    if value.__class__ is int and np_dtype in _INT_RANGES:
        low, high = _INT_RANGES[np_dtype]
        if lenient and low == 0:
            low = -high
        fits = low <= value <= high
    elif value.__class__ in (int, float) and np_dtype == xp.float16:
        if lenient:
            return
        fits = not abs(value) > 65504.0  # NaN and inf convert
    else:
        return
    if not fits:
        name = _C_NAMES.get(dtype.name, dtype.name)
        raise RuntimeError(f"value cannot be converted to type {name} without overflow")


def fill_scalar(value, np_dtype):
    """A number as torch converts a fill value, bound or kernel parameter into the integer
    ``np_dtype``: an int that fits the signed or the unsigned range wraps in
    (``uint8.fill_(-3)`` is 253), a larger one raises torch's overflow error (NumPy's
    OverflowError leaked); a float within the range is truncated (2.5 fills 2), any other
    (-0.5 for uint8, NaN) raises that error too, where NumPy would wrap it in."""
    if value.__class__ is complex and np_dtype.kind not in "cb":
        if value.imag:  # torch converts a complex number only when it is real
            name = _dtypes.from_numpy_dtype(np_dtype).name
            raise RuntimeError(
                f"value cannot be converted to type {_C_NAMES.get(name, name)} without overflow"
            )
        value = value.real
    if value.__class__ is int:
        if not -(2**63) <= value < 2**64:  # beyond any torch scalar, whatever the dtype
            raise OverflowError("int too big to convert")
        if np_dtype in _INT_RANGES:
            check_scalar_fits(value, _dtypes.from_numpy_dtype(np_dtype), lenient=True)
            return wrap_int(value, np_dtype)
    elif value.__class__ is float and np_dtype in _INT_RANGES:
        low, high = _INT_RANGES[np_dtype]
        if not low <= value <= high:
            name = _dtypes.from_numpy_dtype(np_dtype).name
            raise RuntimeError(
                f"value cannot be converted to type {_C_NAMES.get(name, name)} without overflow"
            )
        return int(value)
    return value


def kernel_scales(np_dtype, beta, alpha) -> tuple:
    """Note [Kernel numbers]: the scaled products (addmm, addmv, baddbmm, addbmm,
    sparse.addmm) take ``beta`` and ``alpha`` as parameters of a kernel of ``np_dtype``, not
    as operands: they take no part in the dtype, and an integer kernel converts them as a
    fill value (0.5 scales by 0; one outside the type's range raises). addr alone refuses a
    float number for integer tensors."""
    if np_dtype.kind in "iu":
        return fill_scalar(beta, np_dtype), fill_scalar(alpha, np_dtype)
    return beta, alpha


_INT_RANGES = {
    xp.dtype(name): (xp.iinfo(name).min, xp.iinfo(name).max)
    for name in ("uint8", "int8", "int16", "int32", "int64", "uint16", "uint32", "uint64")
}


def allocation_error(error: Exception) -> RuntimeError:
    """torch's RuntimeError for a tensor too large to allocate (NumPy raises MemoryError, or
    ValueError when the size overflows)."""
    return RuntimeError(f"DefaultCPUAllocator: can't allocate memory: {error}")


# What NumPy says when its ufunc has no loop for the operands' dtypes (a complex fmod, a
# boolean subtraction): torch's kernel has none either, and says so with its own error
# (NumPy's linalg refuses float16 as torch's LAPACK kernels do)
_NO_LOOP = (
    "not supported for the input types",
    "did not contain a loop",
    "numpy boolean",
    "is unsupported in linalg",
)


def kernel_dtype_error(spec, target, arrays, error: TypeError) -> Exception:
    """torch's NotImplementedError for a dtype the op's kernel has no loop for, or ``error``
    itself when it is not NumPy's missing-loop error."""
    if not any(text in str(error) for text in _NO_LOOP):
        return error
    if target is None:
        target = next((a.dtype for a in arrays if a.__class__ is _ndarray), xp.dtype(bool))
    name = _dtypes.from_numpy_dtype(target).scalar_name
    return NotImplementedError(f"\"{spec.aten}_cpu\" not implemented for '{name}'")


def argument_error(spec, args) -> TypeError:
    operands = spec.operands + spec.diff
    bad = next((i for i in operands if not _fits(spec, i, args[i])), None)
    if bad is None:  # else a None where no None default is (named after anything else)
        bad = next((i for i in operands if args[i] is None and spec.defaults[i] is not None), None)
    if bad is None:
        return TypeError(f"{spec.name}(): invalid combination of arguments")
    kind = "Tensor or Number" if bad in spec.scalars else "Tensor"
    return TypeError(
        f"{spec.name}(): argument '{spec.params[bad]}' (position {bad + 1}) must be {kind}, "
        f"not {typename(args[bad])}"
    )


def _fits(spec, i, a) -> bool:
    number = isinstance(a, (int, float, bool, complex, xp.generic))
    return a is None or isinstance(a, Tensor) or (number and i in spec.scalars)


def require_tensor(op: str, name: str, position: int, value) -> None:
    """torch's TypeError for a non-tensor argument (a NumPy array, a list) of a function
    that reads tensor fields directly."""
    if not isinstance(value, Tensor):
        raise TypeError(
            f"{op}(): argument '{name}' (position {position}) must be Tensor, not {typename(value)}"
        )


def require_tensors(op: str, names: tuple, *values) -> None:
    """``require_tensor`` for each of an op's tensor arguments, in position order, before the
    op reads any shape: torch's parser refuses a non-tensor first (``outer`` of a 2-D tensor
    and None names the None, not the rank). For the ops whose methods meet it unwrapped."""
    for position, value in enumerate(values, 1):
        if not isinstance(value, Tensor):
            require_tensor(op, names[position - 1], position, value)


def broadcast_shape(*shapes) -> tuple:
    """The shape the given shapes broadcast to, or torch's RuntimeError naming the first
    dimension that does not match."""
    try:
        return tuple(xp.broadcast_shapes(*shapes))
    except ValueError:
        pass
    a = tuple(shapes[0])
    for b in shapes[1:]:
        b = tuple(b)
        for k in range(1, min(len(a), len(b)) + 1):
            if a[-k] != b[-k] and 1 not in (a[-k], b[-k]):
                raise RuntimeError(
                    f"The size of tensor a ({a[-k]}) must match the size of tensor b ({b[-k]}) "
                    f"at non-singleton dimension {max(len(a), len(b)) - k}"
                ) from None
        a = tuple(xp.broadcast_shapes(a, b))
    raise AssertionError("unreachable: some pair of shapes must mismatch")


def broadcast_error(spec, args, error: ValueError) -> RuntimeError:
    """torch's message for operands whose shapes do not broadcast."""
    shapes = [args[i]._data.shape for i in range(len(args)) if isinstance(args[i], Tensor)]
    if len(shapes) >= 2 and "broadcast" in str(error):
        try:
            broadcast_shape(*shapes)
        except RuntimeError as mismatch:
            return mismatch
    return RuntimeError(f"{spec.name}(): {error}")


def _promote(spec, args, arrays):
    """Cast the operand arrays to torch's result dtype (Note [Type promotion])."""
    try:
        dt = _dtypes.result_type(*[args[i] for i in spec.operands])
    except TypeError:
        raise argument_error(spec, args) from None
    if spec.promote == "float" and not dt.is_floating_point and not dt.is_complex:
        dt = _dtypes.get_default_dtype()
    target = dt.np
    if (
        spec.opmath_scalar
        and target in _HALVES
        and args[0].__class__ is Tensor
        and _is_scalar(args[1])
    ):
        _in_opmath(args, arrays)
        return target
    for i in spec.operands:
        a = arrays[i]
        if a.__class__ is _ndarray:
            if a.dtype != target:
                arrays[i] = a.astype(target)
        elif a.__class__ is int and target in _INT_RANGES:
            arrays[i] = wrap_int(a, target)
    return target


# Note [Half-precision scalars]
# torch's mul and div kernels read a scalar second operand (a number, or any 0-d tensor of a
# half-precision tensor: type promotion keeps the half) at its original value in float32,
# the halves' opmath, and round the product or quotient once: x * 0.1 in float16 is not x
# times 0.1 rounded to float16 first. The other ops read it rounded to the half.
_HALVES = frozenset({xp.dtype(xp.float16), _dtypes.BFLOAT16_NP})


def _is_scalar(value) -> bool:
    return value.__class__ in _NUMBERS or (isinstance(value, Tensor) and value._data.ndim == 0)


def _in_opmath(args, arrays) -> None:
    # both operands in float32; run_general rounds the result to the half
    arrays[0] = arrays[0].astype(xp.float32)
    other = args[1]
    arrays[1] = xp.asarray(other._data if isinstance(other, Tensor) else other).astype(xp.float32)


_BF16 = _dtypes.BFLOAT16_NP
_FLOAT_KINDS = "fcV"  # complex, and V: bfloat16, the one extension dtype numtorch admits


def _in_float32(spec, args, arrays):
    """Run an op with bfloat16 operands as torch does: in float32, rounded once at the end
    (Note [bfloat16]). An op given a dtype (a cast, ``sum(dtype=...)``) or wider float
    operands runs as it is."""
    for a in args:
        if isinstance(a, (_dtypes.dtype, xp.dtype)):  # cat's and stack's result dtype too
            return spec.forward(*arrays)
    for a in arrays:
        if a.__class__ is _ndarray and a.dtype.kind in "fc":
            return spec.forward(*arrays)
    wide = [
        a.astype(xp.float32)
        if a.__class__ is _ndarray and a.dtype is _BF16
        else [x.astype(xp.float32) if x.dtype is _BF16 else x for x in a]
        if a.__class__ is list and a and a[0].__class__ is _ndarray
        else a
        for a in arrays
    ]
    if spec.promote:
        # a number promoted with the tensors is read as a bfloat16 (Note [Half-precision
        # scalars]); a kernel's own parameters (lerp's weight, addmm's beta) are not
        for i in spec.operands[:2]:
            if wide[i].__class__ is float or wide[i].__class__ is int:
                wide[i] = float(xp.asarray(wide[i]).astype(_BF16))
    out = spec.forward(*wide)
    if spec.outputs == 1:
        return _narrow(out)
    return tuple(_narrow(o) for o in out)


def _has_bf16(arrays) -> bool:
    for a in arrays:
        if a.__class__ is _ndarray:
            if a.dtype is _BF16:
                return True
        elif a.__class__ is list and a and a[0].__class__ is _ndarray and a[0].dtype is _BF16:
            return True
    return False


def _narrow(out):
    if isinstance(out, (_ndarray, xp.generic)) and out.dtype == xp.float32:
        return xp.asarray(out).astype(_BF16)
    return out


def _numbers_parsed(args) -> tuple:
    # NumPy scalars as torch's argument parser reads them (a slope, a bound, an operand)
    return tuple(_dtypes.parsed_number(a) if isinstance(a, xp.generic) else a for a in args)


def _iterator_layout(spec, args, out, common):
    """Note [Elementwise result layout] (backend/layout.py): the operands are the tensors as
    given and the numbers torch wraps, in the forward's order; those promotion casts to the
    ``common`` dtype are taken as cast."""
    if all(a._data.flags.c_contiguous for a in args if isinstance(a, Tensor)):
        return out
    numbers = spec.layout_numbers
    operands, cast = [], []
    for i, a in enumerate(args):
        if isinstance(a, Tensor):
            if common is not None and i in spec.operands and a._data.dtype != common:
                cast.append(len(operands))
            operands.append(a._data)
        elif i in numbers and a.__class__ in _NUMBERS:
            operands.append(a)
    return layout.iterator_result(out, operands, cast)


def run_general(spec, args):
    """The full path: any op, any arguments."""
    if dispatch.slow:
        return observed(spec, args)
    given = args  # as passed: an error names a NumPy scalar as torch does
    for a in args:
        if isinstance(a, xp.generic):
            args = _numbers_parsed(args)
            break
    arrays = list(args)
    requires_grad = False
    lists = spec.lists
    for i in spec.diff:
        a = arrays[i]
        if isinstance(a, Tensor):
            arrays[i] = a._data
            if a._requires_grad:
                requires_grad = True
        elif i in lists:
            arrays[i] = [t._data for t in a]
            if not requires_grad:
                requires_grad = any(t._requires_grad for t in a)
        elif a is None:
            if i in spec.scalars and spec.defaults[i] is not None:  # a Number is never None
                raise argument_error(spec, given)
        elif i not in spec.scalars or not isinstance(a, _NUMBER_TYPES):
            raise argument_error(spec, given)  # (a string or a list is no Number either)
    for i in spec.tensor_operands:
        if not isinstance(args[i], Tensor) and i not in lists and args[i] is not None:
            raise argument_error(spec, given)
    for i in spec.nondiff:
        a = arrays[i]
        if isinstance(a, Tensor):
            arrays[i] = a._data
        elif i in lists:
            arrays[i] = [t._data if isinstance(t, Tensor) else t for t in a]
        elif i in spec.scalars and (
            spec.defaults[i] is not None if a is None else not isinstance(a, _NUMBER_TYPES)
        ):
            raise argument_error(spec, given)
    if spec.check is not None:  # after the argument types, which torch's parser checks first
        spec.check(args)
    target = _promote(spec, args, arrays) if spec.promote else None
    if spec.dtypes is not None:
        _check_kernel_dtype(spec, target, arrays, args)
    try:
        if spec.widens_bfloat16 and _has_bf16(arrays):
            out = _in_float32(spec, args, arrays)
        else:
            out = spec.forward(*arrays)
    except ValueError as error:
        if "broadcast" not in str(error):
            raise
        raise broadcast_error(spec, args, error) from None
    except MemoryError as error:
        raise allocation_error(error) from None
    except TypeError as error:
        _refuse_none(spec, given)
        broadcast_first(spec, args)
        raise kernel_dtype_error(spec, target, arrays, error) from None
    except AttributeError:  # a NumPy loop met None: torch's parser refuses it first
        _refuse_none(spec, given)
        raise
    except NotImplementedError:
        broadcast_first(spec, args)
        raise
    if spec.iterator_layout:
        out = _iterator_layout(spec, args, out, target)
    if spec.outputs == 1:
        result = _wrap(out)
        if target is not None and result._data.dtype != target and spec.promote != "compare":
            if target.kind == "c" and result._data.dtype.kind == "f":
                # a complex op with a real result (dist: a norm) is real of the same precision
                target = xp.finfo(target).dtype
            result._data = result._data.astype(target)
        if spec.view:
            mark_view(result, args[0], spec, args)
        if requires_grad and _grad_enabled() and result._data.dtype.kind in _FLOAT_KINDS:
            record(spec, args, (result,))
        return result
    results = tuple(_wrap(o) for o in out)
    if spec.view:
        for nr, r in enumerate(results):
            mark_view(r, args[0], spec, args, nr)
    if requires_grad and _grad_enabled() and results:  # no outputs (unbind of 0): no node
        record(spec, args, results)
    return results if spec.returns is None else spec.returns(*results)


def _refuse_none(spec, args) -> None:
    """torch's TypeError for a None the op failed on, given for an operand its schema does
    not make optional (a None default): found once the op failed, since some forwards take
    None for an optional tensor their signature does not mark (a convolution's bias)."""
    for i in spec.operands:
        if args[i] is None and spec.defaults[i] is not None:
            raise argument_error(spec, args)


def _check_kernel_dtype(spec, target, arrays, args) -> None:
    """Note [Kernel dtypes]: the dtype the op computes in (the promoted one, else its first
    tensor's) must be one its torch kernel runs."""
    if target is None:
        first = arrays[spec.operands[0]] if spec.operands else None
        if first.__class__ is not _ndarray:
            return
        target = first.dtype
    if target not in spec.dtypes.supported:
        raise kernel_refusal(spec, args, target)


def kernel_refusal(spec, args, np_dtype) -> Exception:
    """The error for a dtype the op's kernel lacks (Note [Kernel dtypes]), after torch's
    earlier check that a pointwise op's tensor operands broadcast."""
    if spec.dtypes.in_kernel(np_dtype):  # an op's own check comes before the shapes'
        broadcast_first(spec, args)
    return spec.dtypes.error(np_dtype)


def broadcast_first(spec, args) -> None:
    """torch's TensorIterator checks that a pointwise op's tensors broadcast before its
    kernel refuses their dtype: run where a dtype is refused, that error first."""
    if spec.iterator_layout:
        shapes = [a._data.shape for a in args if isinstance(a, Tensor)]
        if len(shapes) > 1:
            broadcast_shape(*shapes)


def _is_mask(index) -> bool:
    data = getattr(index, "_data", index)
    return getattr(data, "dtype", None) == xp.bool_ and getattr(data, "ndim", 0) > 0


def observed(spec, args):
    """Run an op with the active observers (profiler, forward checks) wrapped around it."""
    if dispatch.torch_function is not None:  # Note [Torch function dispatch] (overrides.py)
        out = dispatch.torch_function(spec, args)
        if out is not NotImplemented:
            return out
    if dispatch.batching is not None:  # vmap: rules call ops, which must come back here
        out = dispatch.batching(spec, args)
        if out is not NotImplemented:
            return out
    dispatch.slow = False
    try:
        if dispatch.quantized is not None:  # Note [Quantized tensors] (numtorch/_quantized)
            out = dispatch.quantized(spec, args)
            if out is not NotImplemented:
                return out
        if dispatch.unsigned:
            unsigned.check_op(spec, args)
        if dispatch.autocast is not None:
            args = dispatch.autocast.cast_op(spec.name, args)
        if dispatch.meta and has_meta(args):
            key = args[1] if spec.name == "index" else ()
            if any(_is_mask(i) for i in (key if isinstance(key, tuple) else (key,))):
                refuse_meta("nonzero", args[0])  # a boolean mask selects by value
            if not dispatch.in_backward:
                check_same_device(args)
            return metafy(spec.run(args))
        run = lambda: spec.run(args)
        for observer in dispatch.observers:
            run = observer.wrap(spec, args, run)
        return run()
    finally:
        refresh_slow()


def _edge_of(a):
    """The (node, output_nr) edge to tensor ``a``'s history (see Tensor._edge)."""
    fn = a._grad_fn
    if fn is not None and a._base is None:
        return (fn, a._output_nr)
    if fn is None and a._requires_grad and a._accumulator is not None:
        acc = a._accumulator()
        if acc is not None:
            return (acc, 0)
    return a._edge()


def record(spec, args, results: tuple):
    """Create the op's node: edges to the inputs' histories, saved values, output links."""
    node = spec.node_class()
    node._sequence_nr = next_sequence_nr()
    node._saved = None
    edges = []
    metas = []
    mask = 0
    bit = 1
    complex_seen = results[0]._data.dtype.kind == "c"
    for i in spec.diff:
        a = args[i]
        if isinstance(a, Tensor) and (a._requires_grad or a._grad_fn is not None):
            edges.append(_edge_of(a))
            metas.append(input_meta(a._data))
            mask |= bit
            if a._data.dtype.kind == "c":
                complex_seen = True
        elif i in spec.lists:
            mask |= _list_edges(node, a, edges, metas) * bit
        else:
            edges.append(_NO_EDGE)
            metas.append(None)
        bit <<= 1
    if complex_seen:
        check_complex_autograd(spec)
    node.next_functions = tuple(edges)
    node._input_meta = tuple(metas)
    if len(results) == 1:
        result = results[0]
        result._grad_fn = node
        result._requires_grad = True
    else:
        # Integer outputs (indices) are not outputs of the node, as in torch: a node of
        # max(dim) or sort receives one gradient; nor are the floating outputs after the
        # differentiable ones (native_layer_norm's statistics).
        nr = 0
        for r in results[: spec.differentiable_outputs]:
            if r._data.dtype.kind in _FLOAT_KINDS:
                r._grad_fn = node
                r._output_nr = nr
                r._requires_grad = True
                nr += 1
        node._num_outputs = nr
    plan = spec._plans.get(mask)  # after linking: saved outputs must know their node
    if plan is None:
        plan = spec.save_plan(mask)
    if plan:
        _save(node, spec, plan, args, results)
    if dispatch.anomaly:
        record_forward_trace(node)
    return node


# Note [Complex autograd]
# torch's gradients of real losses w.r.t. complex tensors are conjugate Wirtinger
# derivatives (the gradient of |z|**2 is 2z): a holomorphic op's formula multiplies by the
# conjugate of its derivative. Formulas written for real tensors omit that conjugate, so an
# op records a node with complex inputs or outputs only once its formulas are checked for
# complex tensors (``complex_autograd`` on its spec, set in ops/complex.py); any other
# op refuses at the forward instead of giving a silently wrong gradient. The ops torch
# itself does not differentiate for complex tensors refuse with torch's error
# (``complex_refusal``: torch's name of the op).


def check_complex_autograd(spec) -> None:
    if not spec.complex_autograd:
        if spec.complex_refusal is not None:
            raise RuntimeError(
                f"{spec.complex_refusal} does not support automatic differentiation for outputs "
                "with complex dtype."
            )
        raise NotImplementedError(
            f"numtorch has no derivative of {spec.name} for complex tensors yet; compute "
            "it on real tensors (torch.view_as_real, .real, .imag) or detach the input"
        )


def _list_edges(node, tensors, edges, metas) -> bool:
    node._list_len = len(tensors)
    any_edge = False
    for t in tensors:
        if isinstance(t, Tensor) and (t._requires_grad or t._grad_fn is not None):
            edges.append(_edge_of(t))
            metas.append(input_meta(t._data))
            any_edge = True
        else:
            edges.append(_NO_EDGE)
            metas.append(None)
    return any_edge


@functools.lru_cache(maxsize=512)
def _element_strides(byte_strides: tuple, itemsize: int) -> tuple:
    # one tuple per layout, shared by every node that saves it (no allocation per node)
    return tuple(s // itemsize for s in byte_strides)


def _save(node, spec, plan, args, results):
    """Fill the node's value slots following ``plan`` (Note [Saved values in slots])."""
    freed = False  # anything backward frees
    for kind, _, i, slot in plan:
        if kind == "result":
            setattr(node, slot, SavedTensor(results[i], True))
            freed = True
            continue
        a = args[i]
        if kind == "input":
            freed = True
            if isinstance(a, Tensor):
                value = save_input(a)  # Note [Saved inputs kept bare]
            elif i in spec.lists:
                value = SavedTensorList.save(a)
            else:
                value = a  # a number standing for a tensor (freed like one)
        elif kind == "shape":
            value = tuple(t._data.shape for t in a) if i in spec.lists else a._data.shape
        elif kind == "strides":
            value = _element_strides(a._data.strides, a._data.itemsize)
        elif kind == "dtype":
            value = a.dtype
        elif isinstance(a, Tensor):
            freed = True
            value = SavedTensor(a, False)
        else:
            value = a
        setattr(node, slot, value)
    if freed:
        node._saved = plan
