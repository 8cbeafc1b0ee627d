"""dtype objects, the default dtype, and torch's type-promotion rules."""

from __future__ import annotations

import ml_dtypes

from ..backend import xp
from .observers import dispatch, refresh_slow

builtins_float, builtins_int, builtins_bool = float, int, bool


_BY_NAME: dict = {}


def _by_name(name: str):
    return _BY_NAME[name]


class dtype:
    """A tensor element type, printed and compared like ``torch.float32``."""

    __slots__ = (
        "name",
        "np",
        "is_floating_point",
        "is_complex",
        "is_signed",
        "itemsize",
        "_tag",
        "scalar_name",
        "c_name",
    )

    def __init__(self, name: str, np_dtype, tag: str, c_name: str):
        self.name = name
        self.np = xp.dtype(np_dtype)
        # bfloat16 is a NumPy extension dtype (ml_dtypes) of kind "V", so kind alone won't do
        self.is_floating_point = self.np.kind in "fV" or self.np == BFLOAT16_NP
        self.is_complex = self.np.kind == "c"
        self.is_signed = self.np.kind in "fic" or self.is_floating_point
        self.itemsize = self.np.itemsize
        self._tag = tag  # torch's legacy type name: FloatTensor, LongTensor, ...
        self.scalar_name = tag[: -len("Tensor")]  # as torch's messages name it: Float, Long
        self.c_name = c_name  # as its C++ messages name it: float, long int
        _BY_NAME.setdefault(name, self)

    def __repr__(self) -> str:
        return f"torch.{self.name}"

    def __reduce__(self):  # a dtype is a singleton: copies and pickles give it back
        return (_by_name, (self.name,))

    def to_real(self) -> dtype:
        return {complex64: float32, complex128: float64}.get(self, self)

    def to_complex(self) -> dtype:
        # bfloat16 has no complex form: torch takes complex64 (float16 would be complex32)
        return {float32: complex64, float64: complex128, bfloat16: complex64}.get(self, self)


# Note [bfloat16]
# bfloat16 arrays use ml_dtypes' NumPy extension dtype. torch computes bfloat16 ops in
# float32 and rounds the result once; the op runner does the same (see ``compute_dtype``),
# so sums and products do not accumulate rounding errors the way bfloat16 NumPy loops would.
BFLOAT16_NP = xp.dtype(ml_dtypes.bfloat16)

float16 = dtype("float16", xp.float16, "HalfTensor", "c10::Half")
bfloat16 = dtype("bfloat16", BFLOAT16_NP, "BFloat16Tensor", "c10::BFloat16")
float32 = dtype("float32", xp.float32, "FloatTensor", "float")
float64 = dtype("float64", xp.float64, "DoubleTensor", "double")
complex64 = dtype("complex64", xp.complex64, "ComplexFloatTensor", "c10::complex<float>")
complex128 = dtype("complex128", xp.complex128, "ComplexDoubleTensor", "c10::complex<double>")
uint8 = dtype("uint8", xp.uint8, "ByteTensor", "unsigned char")
int8 = dtype("int8", xp.int8, "CharTensor", "signed char")
int16 = dtype("int16", xp.int16, "ShortTensor", "short int")
int32 = dtype("int32", xp.int32, "IntTensor", "int")
int64 = dtype("int64", xp.int64, "LongTensor", "long int")
bool_ = dtype("bool", xp.bool_, "BoolTensor", "bool")
# Note [Wide unsigned dtypes]
# torch 2.3+ has uint16, uint32 and uint64 with little support: creation, casts, copies,
# views and a few kernels; other ops raise NotImplementedError and promotion with any dtype
# but a float raises (_core/unsigned.py refuses the ops, promote_types the rest). Once one
# is used, every op takes the checked dispatch path for the rest of the process.
uint16 = dtype("uint16", xp.uint16, "UInt16Tensor", "unsigned short")
uint32 = dtype("uint32", xp.uint32, "UInt32Tensor", "unsigned int")
uint64 = dtype("uint64", xp.uint64, "UInt64Tensor", "unsigned long")
WIDE_UNSIGNED = (uint16, uint32, uint64)
# Quantized dtypes (Note [Quantized tensors] in numtorch/_quantized/tensor.py): their
# tensors hold these integer arrays; they are not in ALL_DTYPES, so no array maps back to
# them and no op promotes to them.
qint8 = dtype("qint8", xp.int8, "QInt8Tensor", "c10::qint8")
quint8 = dtype("quint8", xp.uint8, "QUInt8Tensor", "c10::quint8")
qint32 = dtype("qint32", xp.int32, "QInt32Tensor", "c10::qint32")
quint4x2 = dtype("quint4x2", xp.uint8, "QUInt4x2Tensor", "c10::quint4x2")
quint2x4 = dtype("quint2x4", xp.uint8, "QUInt2x4Tensor", "c10::quint2x4")
QUANTIZED_DTYPES = (qint8, quint8, qint32, quint4x2, quint2x4)

half, float, double = float16, float32, float64
short, int, long = int16, int32, int64
cfloat, cdouble = complex64, complex128

ALL_DTYPES = (float16, float32, float64, complex64, complex128, uint8, int8, int16, int32, int64)
ALL_DTYPES += (bool_, bfloat16, uint16, uint32, uint64)

_FROM_NUMPY = {d.np: d for d in ALL_DTYPES}


def note_dtype(d: dtype) -> None:
    """Send ops through the check of unsigned.py from now on: a wide unsigned dtype is in use."""
    if not dispatch.unsigned:
        dispatch.unsigned = True
        refresh_slow()


def from_numpy_dtype(np_dtype) -> dtype:
    """The numtorch dtype of a NumPy dtype; a clear TypeError for unsupported ones."""
    found = _FROM_NUMPY.get(np_dtype)
    if found is None:
        try:
            found = _FROM_NUMPY.get(xp.dtype(np_dtype))
        except TypeError:
            found = None
    if found is not None:
        if found in WIDE_UNSIGNED:
            note_dtype(found)
        return found
    np_dtype = xp.dtype(np_dtype)
    name = np_dtype.type.__name__  # numpy.object_, numpy.str_: torch names the scalar type
    if not np_dtype.isnative and np_dtype.newbyteorder("=") in _FROM_NUMPY:
        raise ValueError(
            "given numpy array has byte order different from the native byte order. "
            "Conversion between byte orders is currently not supported."
        )
    raise TypeError(
        f"can't convert np.ndarray of type numpy.{name}. The only supported types are: "
        "float64, float32, float16, bfloat16, complex64, complex128, int64, int32, int16, "
        "int8, uint64, uint32, uint16, uint8, and bool."
    )


_default = [float32]


def get_default_dtype() -> dtype:
    """The floating dtype used for Python floats and float factories (float32 at start)."""
    return _default[0]


def set_default_dtype(d: dtype) -> None:
    """Set the default floating dtype (``float32`` or ``float64``, also float16)."""
    if not isinstance(d, dtype) or not d.is_floating_point:
        raise TypeError(f"only floating-point types are supported as the default type, got {d}")
    _default[0] = d


def to_dtype(d) -> dtype:
    """Accept a numtorch dtype, a NumPy dtype or a Python type and return a numtorch dtype."""
    if isinstance(d, dtype):
        if d in WIDE_UNSIGNED:
            note_dtype(d)
        return d
    if d is builtins_float:  # as torch: Python's float is double, whatever the default
        return float64
    if d is complex:
        return complex128
    if d is builtins_int:
        return int64
    if d is builtins_bool:
        return bool_
    if isinstance(d, str):
        raise TypeError(
            f"dtype must be a numtorch dtype such as torch.float32, not the string {d!r}"
        )
    return from_numpy_dtype(xp.dtype(d))


# Note [Type promotion]
# torch promotes in three priority groups: tensors with dims, zero-dim tensors, and Python
# scalars. A lower group only matters when it brings a higher *category* (bool < int < float
# < complex); Python floats then count as the default dtype, Python ints as int64.
# NumPy 2 treats zero-dim arrays like any array and maps int+float16 to float64, so numtorch
# computes the result dtype itself and casts before calling NumPy.

_CATEGORY = {
    d: (0 if d is bool_ else 3 if d.is_complex else 2 if d.is_floating_point else 1)
    for d in ALL_DTYPES
}
_promote_cache: dict = {}


def promote_types(a: dtype, b: dtype) -> dtype:
    """torch.promote_types: the smallest dtype both ``a`` and ``b`` convert to safely."""
    if a is b:
        return a
    key = (a, b)
    hit = _promote_cache.get(key)
    if hit is not None:
        return hit
    ca, cb = _CATEGORY[a], _CATEGORY[b]
    if (a in WIDE_UNSIGNED or b in WIDE_UNSIGNED) and max(ca, cb) != 2:
        raise RuntimeError(
            "Promotion for uint16, uint32, uint64 types is not supported, attempted to "
            f"promote {a.scalar_name} and {b.scalar_name}"
        )
    if {a, b} == {float16, bfloat16}:
        result = float32  # neither holds the other: float32 holds both
    elif ca != cb and min(ca, cb) < 2 <= max(ca, cb):
        result = a if ca > cb else b  # int or bool with a float/complex: the float type wins
    elif ca == 0 or cb == 0:
        result = b if ca == 0 else a
    else:
        # NumPy has no promotion rules for bfloat16; it promotes as float32 does above it
        a_np = float32.np if a is bfloat16 else a.np
        b_np = float32.np if b is bfloat16 else b.np
        result = _FROM_NUMPY[xp.promote_types(a_np, b_np)]
    _promote_cache[key] = result
    return result


def scalar_dtype(value) -> dtype:
    """The dtype a Python scalar takes when it stands alone (torch.tensor(value))."""
    t = type(value)
    if t is builtins_bool:
        return bool_
    if t is builtins_int:
        return int64
    if t is builtins_float:
        return get_default_dtype()
    if t is complex:
        return complex128 if get_default_dtype() is float64 else complex64
    if isinstance(value, xp.generic):
        return from_numpy_dtype(value.dtype)
    raise TypeError(f"expected a number, got {t.__name__}")


def parsed_number(value):
    """A NumPy scalar as torch's argument parser reads one where a Python number may stand:
    an integer as ``int``, ``complex128`` (a Python complex) as ``complex``, and every other
    (float of any width, ``bool_``, ``complex64``'s real part) as ``float``. So
    ``int_tensor * np.float64(2)`` is float32 and ``torch.full((2,), np.bool_(True))`` too."""
    if isinstance(value, xp.integer):
        return builtins_int(value)
    if isinstance(value, complex):
        return complex(value)
    if isinstance(value, xp.complexfloating):
        return builtins_float(value.real)
    return builtins_float(value)


def _combine(higher, lower):
    # torch's combine_categories: the higher priority group wins unless the lower group
    # brings a float (or complex) into an integral or bool result.
    if higher is None:
        return lower
    if lower is None:
        return higher
    if _CATEGORY[higher] == 2 and _CATEGORY[lower] == 3:
        return higher.to_complex()  # a complex number with a float tensor keeps its precision
    if _CATEGORY[higher] >= 2:
        return higher
    if higher is bool_ or _CATEGORY[lower] >= 2:
        return promote_types(higher, lower)
    return higher


def result_type(*operands) -> dtype:
    """torch.result_type over tensors and Python scalars (see Note [Type promotion])."""
    dims = zero = scalars = None
    for op in operands:
        data = getattr(op, "_data", None)
        if data is not None:
            d = _FROM_NUMPY[data.dtype]
            if data.ndim:
                dims = d if dims is None else promote_types(dims, d)
            else:
                zero = d if zero is None else promote_types(zero, d)
        elif op is not None:
            d = scalar_dtype(op)
            scalars = d if scalars is None else promote_types(scalars, d)
    return _combine(dims, _combine(zero, scalars))


def is_floating_point_dtype(d: dtype) -> bool:
    return d.is_floating_point


class finfo:
    """Machine limits of a floating dtype (``torch.finfo(torch.float32).eps``)."""

    def __init__(self, type: dtype | None = None):
        type = get_default_dtype() if type is None else type
        if not type.is_floating_point and not type.is_complex:
            raise TypeError(
                "torch.finfo() requires a floating point input type. "
                "Use torch.iinfo to handle 'torch.finfo'"
            )
        info = ml_dtypes.finfo(type.np) if type is bfloat16 else xp.finfo(type.np)
        self.bits = info.bits
        self.eps = builtins_float(info.eps)
        self.max = builtins_float(info.max)
        self.min = builtins_float(info.min)
        self.tiny = self.smallest_normal = builtins_float(info.smallest_normal)
        self.resolution = 10.0**-info.precision
        self.dtype = type.to_real().name

    def __repr__(self) -> str:
        fields = ("resolution", "min", "max", "eps", "smallest_normal", "tiny")
        shown = ", ".join(f"{f}={getattr(self, f):g}" for f in fields)
        return f"finfo({shown}, dtype={self.dtype})"


class iinfo:
    """Limits of an integer dtype (``torch.iinfo(torch.int8).max``)."""

    def __init__(self, type: dtype):
        if type.is_floating_point or type.is_complex:
            raise TypeError(
                "torch.iinfo() requires an integer input type. "
                "Use torch.finfo to handle 'torch.iinfo'"
            )
        info = xp.iinfo(type.np)
        self.bits, self.max, self.min = info.bits, builtins_int(info.max), builtins_int(info.min)
        self.dtype = type.name

    def __repr__(self) -> str:
        return f"iinfo(min={self.min:g}, max={self.max:g}, dtype={self.dtype})"


# the C++ type names torch's messages give for a tensor's element type (its TypeMeta)
_C_TYPE_NAMES = {
    "Float": "float",
    "Double": "double",
    "Half": "c10::Half",
    "BFloat16": "c10::BFloat16",
    "Long": "long int",
    "Int": "int",
    "Short": "short int",
    "Char": "signed char",
    "Byte": "unsigned char",
    "Bool": "bool",
    "UInt16": "unsigned short",
    "UInt32": "unsigned int",
    "UInt64": "unsigned long",
    "ComplexFloat": "c10::complex<float>",
    "ComplexDouble": "c10::complex<double>",
}


def c_type_name(d: dtype) -> str:
    return _C_TYPE_NAMES.get(d.scalar_name, d.scalar_name.lower())
