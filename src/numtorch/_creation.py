"""Tensor factories, devices and random number generation.

Random numbers come from torch's CPU generator, rebuilt (``_generator.py``,
``_random_kernels.py``): after the same ``manual_seed``, ``rand``/``randn``/``randint``/
``randperm``/``normal``/``bernoulli``/``multinomial`` and the in-place fills (``uniform_``,
``normal_``, ``random_``, ``exponential_``, ...), ``poisson``, ``binomial`` and
``_standard_gamma`` give torch's numbers, bit for bit. Double results of more than 65536
elements that need ``log``/``exp``/``tan`` may differ in the last bit;
``docs/differences.md`` has the details.
"""

from __future__ import annotations

import functools
import math
import numbers
import operator
import warnings
from typing import TypeVar

from . import _random_kernels as kernels
from ._core import dtypes as _dtypes
from ._core import layouts, unsigned
from ._core.device import check_device
from ._core.device import device as device  # re-exported: importers take it from here
from ._core.dispatch import fill_scalar
from ._core.grad_mode import is_inference_mode_enabled as _inference_mode
from ._core.grad_mode import no_grad as _no_grad
from ._core.meta import default_is_meta, is_meta_device, metafy
from ._core.tensor import Size, Tensor, typename
from ._core.warn_once import warn_once
from ._generator import Generator, default_generator, generator_or_default
from ._tensor_queries import empty_in_order, memory_format_order
from .backend import layout as memory_layout  # (the factories take a `layout` argument)
from .backend import xp

_Factory = TypeVar("_Factory")  # a decorated factory keeps its signature for type checkers


def meta_capable(factory: _Factory) -> _Factory:
    """Let a factory make meta tensors: ``device='meta'``, or a ``*_like`` of a meta tensor
    with no device given."""
    like = factory.__name__.endswith("_like")
    sized = factory.__name__ in ("empty", "zeros", "ones", "rand", "randn")

    @functools.wraps(factory)
    def make(*args, **kwargs):
        d = kwargs.get("device")
        if d is None and not like and default_is_meta():
            d = "meta"
        if is_meta_device(d):
            kwargs["device"] = None
            if sized:  # shape and dtype only: never fill (or touch) the memory
                kwargs.pop("generator", None)
                return metafy(empty.__wrapped__(*args, **kwargs))
            return metafy(_without_drawing(factory, args, kwargs))
        if like and d is None and args and getattr(args[0], "is_meta", False):
            return metafy(_without_drawing(factory, args, kwargs))
        if d is not None:  # the factories' one device check, before any draw
            check_device(d)
        return factory(*args, **kwargs)

    return make


def _without_drawing(factory, args, kwargs):
    """``factory(*args, **kwargs)`` leaving its generator as it was: a meta tensor holds no
    values, and torch draws none for it (later draws on the CPU stay torch's)."""
    if not factory.__name__.startswith("rand"):
        return factory(*args, **kwargs)
    gen = generator_or_default(kwargs.get("generator"))
    state = gen.get_state()
    try:
        return factory(*args, **kwargs)
    finally:
        gen.set_state(state)


# -- random numbers (Note [torch's random streams] in _generator.py) --------------------------
def manual_seed(seed: int) -> Generator:
    """Seed the global random generator: the same streams as torch's for the same seed."""
    return default_generator.manual_seed(int(seed))


def seed() -> int:
    return default_generator.seed()


def initial_seed() -> int:
    return default_generator.initial_seed()


def get_rng_state() -> Tensor:
    return default_generator.get_state()


def set_rng_state(new_state: Tensor) -> None:
    default_generator.set_state(new_state)


def bernoulli_mask(shape, p: float, like=None):
    """torch's ``empty(shape).bernoulli_(p)`` from the default generator, as booleans: the
    keep mask of dropout (which draws with ``p = 1 - dropout probability``). Given the
    input's array ``like``, drawn in its memory order as torch's ``empty_like`` is."""

    def draw(shape):
        return kernels.bernoulli_scalar(default_generator, math.prod(shape), p).reshape(shape)

    return draw(tuple(shape)) if like is None else layouts.in_memory_order(like, draw)


def uniform_doubles(n: int, low: float, high: float):
    """``n`` draws of torch's ``uniform_real_distribution<double>(low, high)`` from the
    default generator."""
    return kernels.uniform(default_generator, n, xp.float64, low, high)


def _rng(generator) -> xp.random.Generator:
    """NumPy's samplers on the generator's twister, for a sampler with no torch kernel here:
    seeded runs repeat and the stream advances, but the numbers are not torch's (every
    sampler of torch's draws through ``_random_kernels`` or ``_serial_samplers``)."""
    gen = generator_or_default(generator)
    gen._fresh = False
    return xp.random.Generator(gen._bits)


# -- helpers ---------------------------------------------------------------------------------
def shape_arg(args, name: str = "view") -> tuple:
    """``f(2, 3)``, ``f((2, 3))`` and ``f([2, 3])`` all mean the shape (2, 3)."""
    if len(args) == 1 and isinstance(args[0], (tuple, list, Size)):
        args = args[0]
    if all(type(s) is int for s in args):  # the common case, checked cheaply
        return tuple(args)
    shape = []
    # torch's parser reads a bool as an int past the first size (x.view(6, True) is 6 x 1),
    # and within a torch.Size, but refuses a first one (it picks the overload by it)
    lead_bool = not isinstance(args, Size)
    for s in args:
        if isinstance(s, Tensor):
            s = s.item()
        if not isinstance(s, numbers.Integral) or (lead_bool and isinstance(s, bool)):
            raise TypeError(
                f"{name}(): argument 'size' must be tuple of ints, but found element of type "
                f"{type(s).__name__}"
            )
        shape.append(int(s))
        lead_bool = False
    return tuple(shape)


def keyword_size(args: tuple, value, name: str, keyword: str = "size") -> tuple:
    """The sizes of ``f(*sizes)`` also given as torch's keyword (``torch.zeros(size=(2, 3))``,
    ``x.permute(dims=(1, 0))``): the keyword's value stands for the positional sizes."""
    if value is None:
        return args
    if args:
        raise TypeError(
            f"{name}() received an invalid combination of arguments - got both positional "
            f"sizes and {keyword}="
        )
    return (value,)


def _size(args, name: str) -> tuple:
    """A shape for a new tensor: as ``shape_arg``, and no negative sizes."""
    shape = shape_arg(args, name)
    if shape and min(shape) < 0:
        raise RuntimeError(f"{name}: Dimension size must be non-negative.")
    return shape


def _finish(data, requires_grad: bool, name: str) -> Tensor:
    if requires_grad.__class__ is not bool:  # torch's parser: a bool only (not 1, nor None)
        raise TypeError(
            f"{name[:-2]}(): argument 'requires_grad' must be bool, not {typename(requires_grad)}"
        )
    t = Tensor._make(data)
    if requires_grad:
        if data.dtype.kind not in "fcV":
            raise RuntimeError(
                "Only Tensors of floating point and complex dtype can require gradients "
                f"({name} made a {t.dtype} tensor; pass dtype=torch.float32)"
            )
        t._requires_grad = True
    if _inference_mode():
        from ._core.inference import mark

        mark(t)
    return t


def _float_dtype(dtype) -> _dtypes.dtype:
    return _dtypes.get_default_dtype() if dtype is None else _dtypes.to_dtype(dtype)


# -- from data -------------------------------------------------------------------------------
def _plain(data):
    # Nested sequences may hold tensors; turn them into Python numbers for NumPy.
    if isinstance(data, Tensor):
        if data._data.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return data._data.item()
    if isinstance(data, (list, tuple)):
        return [_plain(d) for d in data]
    return data


def _sequence_dtype(data):
    """torch's dtype for nested sequences: every element's type, promoted. Python floats
    count as the default dtype, ints as int64, bools as bool; NumPy scalars, arrays and
    tensors keep their own (None when there is no element)."""
    default = _dtypes.get_default_dtype()
    found = None
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, (list, tuple)):
            stack.extend(item)
            continue
        if isinstance(item, Tensor):
            d = item.dtype
        elif isinstance(item, (xp.ndarray, xp.generic)):  # before float: np.float64 is one
            if item.dtype.kind in "USO":
                continue  # NumPy's conversion below reports these
            d = _dtypes.from_numpy_dtype(item.dtype)
        elif isinstance(item, bool):
            d = _dtypes.bool_
        elif isinstance(item, int):
            d = _dtypes.int64
        elif isinstance(item, float):
            d = default
        elif isinstance(item, complex):
            d = default.to_complex()
        else:
            continue
        found = d if found is None or found is d else _dtypes.promote_types(found, d)
    return found


def _ragged_message(data) -> str:
    def walk(seq, depth):
        if not isinstance(seq, (list, tuple)):
            return None
        lengths = [len(s) if isinstance(s, (list, tuple)) else None for s in seq]
        if None in lengths and any(n is not None for n in lengths):
            raise TypeError("not a sequence")  # torch: a number where a sequence was expected
        first = lengths[0] if lengths else None
        for n in lengths:
            if n != first:
                return f"expected sequence of length {first} at dim {depth} (got {n})"
        for s in seq:
            found = walk(s, depth + 1)
            if found:
                return found
        return None

    return walk(data, 1) or "could not build a tensor from ragged nested sequences"


def _check_converts(arr, target) -> None:
    """torch converts each Python number into an integer dtype checked: an int must fit the
    signed or (for an unsigned dtype) the unsigned range, a float the dtype's range (NaN and
    inf never do); NumPy's cast would wrap silently (``[300]`` as uint8 gave 44)."""
    if target.kind not in "iu" or arr.dtype.kind not in "iuf" or not arr.size:
        return
    info = xp.iinfo(target)
    low, high = info.min, info.max
    if arr.dtype.kind in "iu" and low == 0:
        low = -high  # -1 converts to uint8's 255, as in C
    if arr.dtype.kind == "f":
        fits = bool(xp.isfinite(arr).all()) and low <= arr.min() and arr.max() <= high
    else:
        fits = low <= int(arr.min()) and int(arr.max()) <= high
    if not fits:
        raise RuntimeError(f"value cannot be converted to type {target.name} without overflow")


def _check_element_kinds(data, target) -> None:
    """torch stores each number of the data into ``target`` by its Python kind: a real
    floating dtype takes anything but a Python complex; an integer dtype a Python float
    (range-checked later) or what ``operator.index`` takes (an int, a NumPy integer; not a
    NumPy float, a NumPy bool or a complex: TypeError); bool also a Python complex and a
    NumPy bool. NumPy's cast took them all."""
    if target.is_complex:
        return
    floating = target.is_floating_point
    as_bool = target is _dtypes.bool_
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, (list, tuple)):
            stack.extend(item)
        elif isinstance(item, (Tensor, xp.ndarray, str, bytes)):
            continue  # a tensor or array converts as a whole; strings are reported later
        elif floating:
            if isinstance(item, complex) and not isinstance(item, xp.generic):
                raise TypeError("must be real number, not complex")
        elif not (isinstance(item, float) or as_bool and isinstance(item, (complex, xp.bool_))):
            operator.index(item)  # torch's "'numpy.float32' object cannot be interpreted..."


def _infer_array(data, dtype):
    if isinstance(data, Tensor):
        return data._data.copy() if dtype is None else data._data.astype(dtype.np)
    if dtype is not None and not isinstance(data, xp.ndarray):
        _check_element_kinds(data, dtype)  # a NumPy scalar too: torch reads it as a number
    elif isinstance(data, (xp.ndarray, xp.generic)):  # a NumPy scalar keeps its dtype too
        arr = xp.array(data, copy=True)
        if dtype is not None:
            return arr.astype(dtype.np)
        _dtypes.from_numpy_dtype(arr.dtype)
        return arr
    if isinstance(data, (str, bytes)):
        raise TypeError(f"new(): invalid data type '{type(data).__name__}'")
    inferred = None
    if isinstance(data, (list, tuple)):
        inferred = _sequence_dtype(data)
        data = _plain(data)
    try:
        arr = xp.array(data)
    except ValueError as error:
        raise ValueError(_ragged_message(data)) from error
    kind = arr.dtype.kind
    if kind == "O":
        odd = [v for v in arr.reshape(-1) if not isinstance(v, (numbers.Number, xp.generic))]
        if odd and not isinstance(odd[0], (str, bytes)):
            raise RuntimeError(f"Could not infer dtype of {type(odd[0]).__name__}")
    if kind in "USO":
        first = data
        while isinstance(first, (list, tuple)) and first:
            first = first[0]
        if isinstance(first, str):  # torch reads the leading string as one more dimension
            raise ValueError("too many dimensions 'str'")
        if kind == "O" and all(isinstance(v, int) for v in arr.flat):
            # ints past uint64: NumPy falls back to objects
            raise ValueError("Overflow when unpacking long long")
        name = {"U": "str", "S": "bytes"}.get(kind, arr.dtype.name)
        raise TypeError(f"new(): invalid data type '{name}'")
    if dtype is not None:
        _check_converts(arr, dtype.np)
        return arr.astype(dtype.np)
    if kind in "iu" and arr.dtype == xp.uint64 and arr.size and arr.max() > xp.iinfo(xp.int64).max:
        raise ValueError("Overflow when unpacking long long")
    if inferred is not None:
        return arr.astype(inferred.np)
    if kind in "fV":
        return arr.astype(_dtypes.get_default_dtype().np)
    if kind == "c":
        return arr.astype(_dtypes.get_default_dtype().to_complex().np)
    if kind in "iu":
        if arr.dtype == xp.uint64 and arr.size and arr.max() > xp.iinfo(xp.int64).max:
            raise ValueError("Overflow when unpacking long long")
        return arr.astype(xp.int64)
    return arr


@meta_capable
def tensor(
    data, *, dtype=None, device=None, requires_grad: bool = False, pin_memory: bool = False
) -> Tensor:
    """Build a tensor from data (a number, nested sequences, an array), copying it.

    Python floats become the default dtype (float32), ints int64, bools bool.

    Example:
        >>> import numtorch as torch
        >>> torch.tensor([[1, 2], [3, 4]]).dtype
        torch.int64
        >>> torch.tensor(2.5)
        tensor(2.5000)
    """
    check_device(device)
    if isinstance(data, xp.ndarray):
        _no_negative_strides(data)
    elif isinstance(data, Tensor):
        warnings.warn(
            "To copy construct from a tensor, it is recommended to use sourceTensor.detach()."
            "clone() or sourceTensor.detach().clone().requires_grad_(True), rather than "
            "torch.tensor(sourceTensor).",
            UserWarning,
            stacklevel=3,
        )
    elif isinstance(data, list) and data and isinstance(data[0], xp.ndarray):
        warn_once(
            "Creating a tensor from a list of numpy.ndarrays is extremely slow. Please consider "
            "converting the list to a single numpy.ndarray with numpy.array() before converting "
            "to a tensor.",
            stacklevel=3,  # past the boundary wrapper (ops/boundary.py) to the caller
        )
    dt = None if dtype is None else _dtypes.to_dtype(dtype)
    return _finish(_infer_array(data, dt), requires_grad, "tensor()")


def as_tensor(data, dtype=None, device=None) -> Tensor:
    """Like ``tensor`` but shares memory with a NumPy array or tensor when it can."""
    check_device(device)
    dt = None if dtype is None else _dtypes.to_dtype(dtype)
    if isinstance(data, Tensor):
        return data if dt is None or data.dtype is dt else data.to(dt)
    if isinstance(data, xp.ndarray) and (dt is None or data.dtype == dt.np):
        return from_numpy(data)
    return tensor(data, dtype=dt)


def from_numpy(array) -> Tensor:
    """A tensor sharing memory with a NumPy array (changes to one show in the other)."""
    if not isinstance(array, xp.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(array).__name__})")
    _dtypes.from_numpy_dtype(array.dtype)
    if not array.dtype.isnative:
        raise ValueError("given numpy array has byte order different from the native byte order")
    _no_negative_strides(array)
    if not array.flags.writeable:
        warn_once(
            "The given NumPy array is not writable, and PyTorch does not support non-writable "
            "tensors. This means writing to this tensor will result in undefined behavior. You "
            "may want to copy the array to protect its data or make it writable before "
            "converting it to a tensor. This type of warning will be suppressed for the rest of "
            "this program.",
            stacklevel=3,
        )
    return Tensor._make(array)


def _no_negative_strides(array) -> None:
    if any(s < 0 for s in array.strides):  # as torch, which cannot represent them
        raise ValueError(
            "At least one stride in the given numpy array is negative, and tensors with negative "
            "strides are not currently supported. (You can probably work around this by making "
            "a copy of your array  with array.copy().) "
        )


def asarray(obj, dtype=None, device=None, copy=None, requires_grad=None) -> Tensor:
    out = tensor(obj, dtype=dtype) if copy else as_tensor(obj, dtype=dtype)
    if requires_grad is None:  # unspecified: a tensor keeps its requires_grad, as torch's
        return out
    if not requires_grad:
        return out.detach() if out.requires_grad else out  # shares the memory, as torch's
    return out.requires_grad_(True)


# -- filled tensors --------------------------------------------------------------------------
@meta_capable
def empty(
    *sizes,
    size=None,
    dtype=None,
    device=None,
    requires_grad=False,
    out=None,
    layout=None,
    pin_memory=False,
    memory_format=None,
) -> Tensor:
    shape = _size(keyword_size(sizes, size, "empty"), "empty")
    order = memory_format_order(memory_format, len(shape))
    return _finish(empty_in_order(shape, order, _float_dtype(dtype).np), requires_grad, "empty()")


@meta_capable
def zeros(
    *sizes,
    size=None,
    dtype=None,
    device=None,
    requires_grad=False,
    out=None,
    layout=None,
    pin_memory=False,
) -> Tensor:
    """A tensor of zeros (default dtype float32).

    Example:
        >>> import numtorch as torch
        >>> torch.zeros(2, 3).shape
        torch.Size([2, 3])
    """
    shape = _size(keyword_size(sizes, size, "zeros"), "zeros")
    return _finish(xp.zeros(shape, _float_dtype(dtype).np), requires_grad, "zeros()")


@meta_capable
def ones(
    *sizes,
    size=None,
    dtype=None,
    device=None,
    requires_grad=False,
    out=None,
    layout=None,
    pin_memory=False,
) -> Tensor:
    shape = _size(keyword_size(sizes, size, "ones"), "ones")
    return _finish(xp.ones(shape, _float_dtype(dtype).np), requires_grad, "ones()")


@meta_capable
def full(
    size,
    fill_value,
    *,
    dtype=None,
    device=None,
    requires_grad=False,
    out=None,
    layout=None,
    pin_memory=False,
) -> Tensor:
    shape = _size((size,), "full")
    if isinstance(fill_value, Tensor):
        fill_value = fill_value.item()
    elif isinstance(fill_value, xp.generic):
        fill_value = _dtypes.parsed_number(fill_value)
    dt = _dtypes.scalar_dtype(fill_value) if dtype is None else _dtypes.to_dtype(dtype)
    return _finish(xp.full(shape, fill_scalar(fill_value, dt.np), dt.np), requires_grad, "full()")


def _like_dtype(input: Tensor, dtype):
    if not isinstance(input, Tensor):
        raise TypeError(f"argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    return input.dtype if dtype is None else _dtypes.to_dtype(dtype)


def _like_array(input, dtype, memory_format, fill_value):
    """The array of a ``*_like`` factory: in the input's memory order under torch's default
    ``preserve_format`` (backend/layout.py), channels-last when asked, row-major otherwise."""
    name = layouts.format_name(memory_format)
    if fill_value is not None and dtype.np.kind in "iu":  # converted as torch's fill
        fill_value = fill_scalar(fill_value, dtype.np)
    if name in (None, "preserve_format"):
        if fill_value is None:
            return memory_layout.empty_like(input._data, dtype.np)
        return memory_layout.full_like(input._data, fill_value, dtype.np)
    shape = input._data.shape
    data = xp.empty(shape, dtype.np) if fill_value is None else xp.full(shape, fill_value, dtype.np)
    if name in ("channels_last", "channels_last_3d"):  # Note [Channels last]
        layouts.check_rank(input._data.ndim, name)
        return layouts.copy_as(data, name)
    return data


@meta_capable
def empty_like(
    input,
    *,
    dtype=None,
    device=None,
    requires_grad=False,
    layout=None,
    pin_memory=False,
    memory_format=None,
) -> Tensor:
    dtype = _like_dtype(input, dtype)
    data = _like_array(input, dtype, memory_format, None)
    return _finish(data, requires_grad, "empty_like()")


@meta_capable
def zeros_like(
    input,
    *,
    dtype=None,
    device=None,
    requires_grad=False,
    layout=None,
    pin_memory=False,
    memory_format=None,
) -> Tensor:
    dtype = _like_dtype(input, dtype)
    data = _like_array(input, dtype, memory_format, 0)
    return _finish(data, requires_grad, "zeros_like()")


@meta_capable
def ones_like(
    input,
    *,
    dtype=None,
    device=None,
    requires_grad=False,
    layout=None,
    pin_memory=False,
    memory_format=None,
) -> Tensor:
    dtype = _like_dtype(input, dtype)
    data = _like_array(input, dtype, memory_format, 1)
    return _finish(data, requires_grad, "ones_like()")


@meta_capable
def full_like(
    input,
    fill_value,
    *,
    dtype=None,
    device=None,
    requires_grad=False,
    layout=None,
    pin_memory=False,
    memory_format=None,
) -> Tensor:
    dtype = _like_dtype(input, dtype)
    data = _like_array(input, dtype, memory_format, fill_value)
    return _finish(data, requires_grad, "full_like()")


# -- ranges ----------------------------------------------------------------------------------
@meta_capable
def arange(
    start=0, end=None, step=1, *, dtype=None, device=None, requires_grad=False, out=None
) -> Tensor:
    """Values from ``start`` to ``end`` (exclusive) by ``step``; int64 when all are ints."""
    if end is None:
        start, end = 0, start
    values = [v.item() if isinstance(v, Tensor) else v for v in (start, end, step)]
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if dtype is None:
        integral = all(isinstance(v, numbers.Integral) for v in values)
        dt = _dtypes.int64 if integral else _dtypes.get_default_dtype()
    else:
        dt = _dtypes.to_dtype(dtype)
        unsigned.refuse("arange_cpu", dt)
    if dt.is_complex or dt is _dtypes.bool_:
        raise NotImplementedError(f"\"arange_cpu\" not implemented for '{dt.scalar_name}'")
    for v in values:
        if isinstance(v, float) and not math.isfinite(v):
            raise RuntimeError(f"unsupported range: {values[0]} -> {values[1]}")
    start, end, step = values
    if (end - start) * step < 0:  # torch checks the bounds as given, in double
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    if dt.is_floating_point:
        data = xp.arange(start, end, step, dtype=xp.float64).astype(dt.np)
    else:
        data = _integral_range(start, end, step, dt)
    return _finish(data, requires_grad, "arange()")


def _integral_range(start, end, step, dt):
    """torch's integral arange: the values count from the bounds and step truncated to int64
    (wrapping into ``dt``); int64 counts them from the truncated values too, the narrower
    dtypes from the bounds as given, in double."""
    first, last, by = int(start), int(end), int(step)
    if dt is _dtypes.int64:
        if by == 0:
            raise ValueError("step must be nonzero")
        count = last - first + by - (1 if by > 0 else -1)
        size = abs(count) // abs(by) if (count >= 0) == (by > 0) else 0
    else:
        size = max(0, math.ceil((float(end) - float(start)) / float(step)))
    return (xp.arange(size, dtype=xp.int64) * by + first).astype(dt.np)


@meta_capable
def _refuse_spaced(kernel: str, dtype, steps: int) -> None:
    # torch's kernels have no bool version (nor one for the wide unsigned dtypes); up to
    # one step never reaches the kernel
    if dtype.np.kind == "b" and steps > 1:
        raise NotImplementedError(f"\"{kernel}\" not implemented for 'Bool'")
    unsigned.refuse(kernel, dtype)


def linspace(
    start, end, steps, *, dtype=None, device=None, requires_grad=False, out=None
) -> Tensor:
    """``steps`` evenly spaced values from ``start`` to ``end`` inclusive."""
    start, end = (v.item() if isinstance(v, Tensor) else v for v in (start, end))
    complex_bound = any(isinstance(v, complex) for v in (start, end))
    if dtype is None and complex_bound:  # torch infers the complex default dtype
        dt = _dtypes.get_default_dtype().to_complex()
    else:
        dt = _float_dtype(dtype)
    if complex_bound and not dt.is_complex:
        raise RuntimeError(
            "torch.linspace(): inferred dtype c10::complex<float> can't be safely cast to "
            f"passed dtype {dt.scalar_name}"
        )
    _refuse_spaced("linspace_cpu", dt, steps)
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    if steps == 0:
        return _finish(xp.empty(0, dt.np), requires_grad, "linspace()")  # no bound converted
    if not (dt.is_floating_point or dt.is_complex):
        # torch converts the bounds to an integral dtype first, as a fill value (to bool: 0.5
        # is True, not truncated to 0)
        convert = bool if dt is _dtypes.bool_ else functools.partial(fill_scalar, np_dtype=dt.np)
        start, end = (int(convert(v)) for v in (start, end))
    # torch's kernel: the first half counts up from start, the second half down from end.
    work = dt.np if dt.is_floating_point or dt.is_complex else xp.dtype(xp.float64)
    idx = xp.arange(steps)
    if steps <= 1:
        data = xp.full(steps, start, dtype=work)
    else:
        work = xp.dtype(work)
        step = (work.type(end) - work.type(start)) / work.type(steps - 1)
        half = steps // 2
        if work == xp.float64:
            # torch's vectorized kernel fuses the multiply-add (one rounding)
            data = xp.where(
                idx < half,
                _fused_multiply_add(step, idx, start),
                _fused_multiply_add(-step, steps - 1 - idx, end),
            )
        else:
            # float32 fuses too: float64 arithmetic rounded once at the end gives the same
            # values (float16 is not fused)
            fused = xp.float64 if work == xp.float32 else work.type
            step = fused(step)
            data = xp.where(
                idx < half,
                fused(work.type(start)) + step * idx.astype(fused),
                fused(work.type(end)) - step * (steps - 1 - idx).astype(fused),
            ).astype(work)
    return _finish(data.astype(dt.np), requires_grad, "linspace()")


def _fused_multiply_add(step, count, offset):
    """``step * count + offset`` in float64 with a single rounding, ``count`` an integer
    array: ``step`` split into halves of 26 and 27 bits makes both partial products exact
    (for counts under 2**26), and the error of the first sum is carried into the last."""
    step, offset = float(step), float(offset)
    split = step * 134217729.0  # 2**27 + 1
    high = split - (split - step)
    low = step - high
    n = count.astype(xp.float64)
    big = n * high
    total = big + offset
    shifted = total - big
    error = (big - (total - shifted)) + (offset - shifted)
    return total + (error + n * low)


def logspace(
    start, end, steps, base=10.0, *, dtype=None, device=None, requires_grad=False
) -> Tensor:
    _refuse_spaced("logspace_cpu", _float_dtype(dtype), steps)
    exps = linspace(start, end, steps, dtype=_dtypes.float64)._data
    data = (base**exps).astype(_float_dtype(dtype).np)
    return _finish(data, requires_grad, "logspace()")


@meta_capable
def eye(n, m=None, *, dtype=None, device=None, requires_grad=False, out=None) -> Tensor:
    for name, value in (("n", n), ("m", m)):
        if value is not None and value < 0:
            raise RuntimeError(f"{name} must be greater or equal to 0, got {value}")
    unsigned.refuse("eye", _float_dtype(dtype))
    data = xp.eye(n, n if m is None else m, dtype=_float_dtype(dtype).np)
    return _finish(data, requires_grad, "eye()")


# -- random ----------------------------------------------------------------------------------
def _random_float(size, dtype, generator, requires_grad, name):
    dt = _float_dtype(dtype)
    shape = _size(size, name)
    gen = generator_or_default(generator)
    n = math.prod(shape)
    if dt.is_complex:  # torch fills the complex tensor's real view
        real = dt.to_real().np
        if name == "randn":  # variance 1/2 for each of the real and imaginary parts
            pairs = kernels.normal(gen, 2 * n, real, 0.0, 0.5**0.5)
        else:
            pairs = kernels.uniform(gen, 2 * n, real)
        pairs = pairs.reshape(shape + (2,))
        return _finish(pairs.view(dt.np)[..., 0], requires_grad, f"{name}()")
    if not dt.is_floating_point:
        kernel = "normal_kernel_cpu" if name == "randn" else "check_uniform_bounds"
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{dt.scalar_name}'")
    sample = kernels.normal if name == "randn" else kernels.uniform
    return _finish(sample(gen, n, dt.np).reshape(shape), requires_grad, f"{name}()")


@meta_capable
def rand(
    *sizes,
    size=None,
    generator=None,
    dtype=None,
    device=None,
    requires_grad=False,
    out=None,
    layout=None,
    pin_memory=False,
) -> Tensor:
    """Uniform samples in [0, 1)."""
    return _random_float(keyword_size(sizes, size, "rand"), dtype, generator, requires_grad, "rand")


@meta_capable
def randn(
    *sizes,
    size=None,
    generator=None,
    dtype=None,
    device=None,
    requires_grad=False,
    out=None,
    layout=None,
    pin_memory=False,
) -> Tensor:
    """Standard normal samples."""
    return _random_float(
        keyword_size(sizes, size, "randn"), dtype, generator, requires_grad, "randn"
    )


_LIKE_KEYWORDS = ("generator", "device", "requires_grad", "layout", "pin_memory", "memory_format")


def _like_keywords(name: str, kwargs: dict) -> dict:
    for key in kwargs:
        if key not in _LIKE_KEYWORDS:
            raise TypeError(f"{name}() got an unexpected keyword argument '{key}'")
    return {k: v for k, v in kwargs.items() if k in ("generator", "device", "requires_grad")}


@meta_capable
def rand_like(input, *, dtype=None, **kwargs) -> Tensor:
    kwargs = _like_keywords("rand_like", kwargs)
    dtype = _like_dtype(input, dtype)
    return _drawn_like(
        input,
        lambda shape: rand(shape, dtype=dtype, **kwargs),
        lambda t, generator: t.uniform_(0, 1, generator=generator),
        kwargs,
        dtype,
    )


@meta_capable
def randn_like(input, *, dtype=None, **kwargs) -> Tensor:
    kwargs = _like_keywords("randn_like", kwargs)
    dtype = _like_dtype(input, dtype)
    return _drawn_like(
        input,
        lambda shape: randn(shape, dtype=dtype, **kwargs),
        lambda t, generator: t.normal_(0, 1, generator=generator),
        kwargs,
        dtype,
    )


def _drawn_like(input: Tensor, draw, fill, kwargs, dtype) -> Tensor:
    """torch draws into ``empty_like(input)``, which keeps a non-row-major input's layout,
    with the in-place sampler (a non-contiguous fill runs in memory order, one value at a
    time); a row-major input is drawn as the plain factory draws."""
    if layouts.memory_order(input._data) is None:
        return draw(input.shape)
    result = empty_like(input, dtype=dtype)
    with _no_grad():
        fill(result, kwargs.get("generator"))
    return result.requires_grad_(kwargs.get("requires_grad", False))


@meta_capable
def randint(
    low=0,
    high=None,
    size=None,
    *,
    generator=None,
    dtype=None,
    device=None,
    requires_grad=False,
    layout=None,
    pin_memory=False,
) -> Tensor:
    """Random integers in [low, high) (int64 unless ``dtype`` says otherwise)."""
    if size is None:
        low, high, size = 0, low, high
    elif high is None:
        low, high = 0, low
    if size is None:
        raise TypeError("randint() missing required argument 'size'")
    dt = _dtypes.int64 if dtype is None else _dtypes.to_dtype(dtype)
    if low >= high:
        raise RuntimeError(
            f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}"
        )
    shape = _size((size,), "randint")
    _check_from_to(low, high, dt)
    gen = generator_or_default(generator)
    data = kernels.random_from_to(gen, math.prod(shape), dt.np, low, high).reshape(shape)
    return _finish(data, requires_grad, "randint()")


# torch's C type names in its range errors, and the ranges it checks (float, double and
# bfloat16 only warn about precision)
_RANGE_NAMES = {"uint8": "unsigned char", "int8": "signed char", "int16": "short int"}
_RANGE_NAMES.update(int32="int", int64="long int", bool="bool", float16="c10::Half")


def _check_from_to(low, high, dt) -> None:
    """torch's refusal of a [low, high) range that the dtype cannot hold (randint and
    random_ draw in the dtype's own values, where NumPy would wrap), and of complex dtypes."""
    if dt.is_complex:
        raise RuntimeError(
            "check_random_bounds handles only integral, floating-point and boolean types"
        )
    name = _RANGE_NAMES.get(dt.name)
    if name is None:
        return
    if dt.name == "bool":
        lowest, highest = 0, 1
    elif dt.name == "float16":
        lowest, highest = -65504, 65504
    else:
        info = xp.iinfo(dt.np)
        lowest, highest = int(info.min), int(info.max)
    if not lowest <= low <= highest:
        raise RuntimeError(f"from is out of bounds for {name}")
    if not lowest <= high - 1 <= highest:
        raise RuntimeError(f"to - 1 is out of bounds for {name}")


def randint_like(input, low=0, high=None, *, dtype=None, **kwargs) -> Tensor:
    if high is None:
        low, high = 0, low
    dtype = _like_dtype(input, dtype)
    return _drawn_like(
        input,
        lambda shape: randint(low, high, shape, dtype=dtype, **kwargs),
        lambda t, generator: t.random_(low, high, generator=generator),
        kwargs,
        dtype,
    )


def randperm(n, *, generator=None, dtype=None, device=None, requires_grad=False) -> Tensor:
    dt = _dtypes.int64 if dtype is None else _dtypes.to_dtype(dtype)
    unsigned.refuse("randperm", dt)
    perm = kernels.randperm(generator_or_default(generator), n)
    return _finish(perm.astype(dt.np), requires_grad, "randperm()")


def _check_std(std) -> None:
    if std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")


def normal(mean=0.0, std=1.0, size=None, *, generator=None, dtype=None, **_) -> Tensor:
    """Normal samples; ``mean``/``std`` may be tensors (then broadcast) or numbers."""
    m = mean._data if isinstance(mean, Tensor) else mean
    s = std._data if isinstance(std, Tensor) else std
    if isinstance(std, Tensor):
        if (s < 0).any():
            raise RuntimeError("normal expects all elements of std >= 0.0")
    else:
        _check_std(s)
    if size is None:
        from ._core.dispatch import broadcast_shape

        size = broadcast_shape(xp.shape(m), xp.shape(s))
    like = mean if isinstance(mean, Tensor) else std if isinstance(std, Tensor) else None
    dt = _float_dtype(dtype) if like is None else like.dtype
    shape = _size((size,), "normal")
    gen = generator_or_default(generator)
    if like is None:
        data = kernels.normal(gen, math.prod(shape), dt.np, m, s).reshape(shape)
    else:  # torch draws standard normals, then multiplies by std and adds mean
        noise = kernels.normal(gen, math.prod(shape), dt.np).reshape(shape)
        data = noise * xp.asarray(s, dt.np) + xp.asarray(m, dt.np)
    return Tensor._make(xp.asarray(data, dtype=dt.np))


def bernoulli(input, p=None, *, generator=None) -> Tensor:
    gen = generator_or_default(generator)
    if p is None:
        keep = kernels.bernoulli_tensor(gen, input._data)
    else:
        keep = kernels.bernoulli_scalar(gen, input._data.size, p).reshape(input._data.shape)
    return Tensor._make(keep.astype(input._data.dtype))


def multinomial(input, num_samples, replacement=False, *, generator=None) -> Tensor:
    """``num_samples`` category indices per row of (unnormalised) probabilities."""
    _check_multinomial(input, num_samples, replacement)
    probs = xp.atleast_2d(input._data)
    gen = generator_or_default(generator)
    data = kernels.multinomial(gen, probs, num_samples, replacement).astype(xp.int64)
    return Tensor._make(data if input._data.ndim == 2 else data[0])


def _check_multinomial(input, num_samples, replacement) -> None:
    # torch's checks and messages, in its order
    data = input._data
    if data.dtype.kind not in "fV":
        raise RuntimeError(
            "multinomial only supports floating-point dtypes for input, got: "
            + input.dtype.scalar_name
        )
    if data.ndim not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    if not replacement and num_samples > data.shape[-1]:
        raise RuntimeError(
            "cannot sample n_sample > prob_dist.size(-1) samples without replacement"
        )
    if not xp.isfinite(data).all() or (data < 0).any():
        raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    rows = xp.atleast_2d(data)
    if (rows.sum(-1) <= 0).any():
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")


def random_fill_(t: Tensor, kind: str, a, b, generator=None) -> Tensor:
    """In-place fills used by ``uniform_``/``normal_``/...: writes through views, bumps version."""
    complex_fill = t.is_complex() and kind in ("uniform", "normal")
    if not t.is_floating_point() and not complex_fill:
        kernel = {"uniform": "check_uniform_bounds", "normal": "normal_kernel_cpu"}.get(kind)
        if kernel is not None:
            raise NotImplementedError(f"\"{kernel}\" not implemented for '{t.dtype.scalar_name}'")
        if kind == "exponential":
            raise RuntimeError(
                "Exponential distribution is a continuous probability distribution. dtype must "
                f"be a floating point but you specified {t.dtype.scalar_name}"
            )
    if t.is_meta:  # no data to fill: torch draws nothing, so the generator's stream is unchanged
        if kind == "normal":
            _check_std(b)
        return t
    gen = generator_or_default(generator)
    array = t._data
    order = memory_layout.fill_order(array.shape, array.strides)
    shape = tuple(array.shape[d] for d in order)
    n = array.size
    dtype = array.dtype
    if complex_fill:  # torch fills the real view: (real, imaginary) pairs in memory order
        n, shape, dtype = 2 * n, shape + (2,), t.dtype.to_real().np
        if kind == "normal":
            b = b / 2**0.5  # each part gets half the variance
    if kind == "uniform":
        if a > b:
            raise RuntimeError(
                f"uniform_ expects to return a [from, to) range, but found from={a} > to={b}"
            )
        values = kernels.uniform(gen, n, dtype, a, b)
    elif kind == "normal":
        _check_std(b)
        contiguous = array.flags.c_contiguous
        values = kernels.normal(gen, n, dtype, a, b, contiguous)
    elif kind == "bernoulli":
        if isinstance(a, Tensor):
            p = xp.broadcast_to(a._data, array.shape).transpose(order)
            values = kernels.bernoulli_tensor(gen, xp.ascontiguousarray(p))
        else:
            values = kernels.bernoulli_scalar(gen, n, a)
    elif kind == "exponential":
        values = kernels.exponential(gen, n, a, dtype == xp.float64)
    elif kind == "random":
        if b is None:
            if t.is_complex():
                raise NotImplementedError(
                    f"\"random_kernel_cpu\" not implemented for '{t.dtype.scalar_name}'"
                )
            values = kernels.random_full(gen, n, dtype)
        else:
            _check_from_to(a, b, t.dtype)
            values = kernels.random_from_to(gen, n, dtype, a, b)
    else:
        raise ValueError(kind)
    values = xp.asarray(values).reshape(shape)
    if complex_fill:
        values = values.view(array.dtype)[..., 0]
    values = values.transpose(xp.argsort(order))
    from ._core.inplace import check_inplace

    if t._batched:  # vmap(randomness="same"): one sample's draws, written into every sample
        return t.copy_(Tensor._make(xp.asarray(values, dtype=t._data.dtype)))
    check_inplace(t, f"{kind}_")
    t._data[...] = values
    t._bump_version()
    return t
