"""Tensor: an array with autograd metadata.

The class is thin on purpose: operators and math methods are bound onto it by the op
registry (``numtorch.ops``); here live the data model and the autograd entry points.
Methods that need layers above this one are bound by those layers, like the ops' methods:
``backward`` by backward.py (the engine sits above), the legacy constructor
``Tensor(2, 3)`` by ``numtorch._legacy_types`` (it builds tensors through the factories).
"""

from __future__ import annotations

import sys
import warnings
import weakref
from collections import OrderedDict

from ..backend import xp
from ..backend.zeros import IMMUTABLE, EfficientZeros
from . import dtypes as _dtypes
from .device import device
from .dtypes import c_type_name
from .grad_mode import is_grad_enabled
from .graph import AccumulateGrad, _add_hook
from .inference import is_inference_mode_enabled
from .layouts import format_name, is_contiguous_as
from .meta import MetaArray, no_data
from .tensor_str import tensor_repr
from .versions import InferenceVersion, VersionCounter
from .views import refresh_view_grad_fn

_new = object.__new__


class Size(tuple):
    """A tensor shape, a tuple printed as ``torch.Size([2, 3])``."""

    def __repr__(self) -> str:
        return f"torch.Size({list(self)})"

    def __getitem__(self, key):
        item = tuple.__getitem__(self, key)
        return Size(item) if isinstance(key, slice) else item

    def numel(self) -> int:
        n = 1
        for s in self:
            n *= s
        return n

    # concatenation and repetition stay shapes, from either side, as torch.Size's do
    def __add__(self, other):
        if not isinstance(other, tuple):
            raise TypeError(
                f"can only concatenate tuple (not {type(other).__name__}) to torch.Size"
            )
        return _size_of(tuple.__add__(self, other))

    def __radd__(self, other):
        if not isinstance(other, tuple):
            return NotImplemented
        return _size_of(tuple.__add__(other, self))

    def __mul__(self, times):
        return Size(tuple.__mul__(self, times))

    __rmul__ = __mul__


def _size_of(items: tuple) -> Size:
    for i, s in enumerate(items):
        if not hasattr(s, "__index__"):
            raise TypeError(
                f"torch.Size() takes an iterable of 'int' (item {i} is {type(s).__name__!r})"
            )
    return Size(items)


def _without_imaginary(value, target: str):
    """torch converts a complex number to a real one only when its imaginary part is 0."""
    if isinstance(value, complex):
        if value.imag:
            raise RuntimeError(f"value cannot be converted to type {target} without overflow")
        return value.real
    return value


class Tensor:
    """A multi-dimensional array that can record operations for automatic differentiation.

    Example:
        >>> import numtorch as torch
        >>> x = torch.tensor([1.0, 2.0], requires_grad=True)
        >>> (x * x).sum().backward()
        >>> x.grad
        tensor([2., 4.])
    """

    # Note [Tensor fields]
    # The four fields read by every op are slots, set whenever a tensor is made (see
    # ``_make``); the rest are class-level defaults, so making a tensor sets only what
    # differs and rarely needs an instance dict (dict-backed creation costs ~2x).
    __slots__ = ("_data", "_requires_grad", "_grad_fn", "_base", "__dict__", "__weakref__")
    _grad = None
    _output_nr = 0
    _vc = None  # VersionCounter, created on first need (saving, views, in-place)
    _view_steps = None  # how to replay this view from _base (numtorch.ops.views)
    _view_version = 0
    _hooks = None  # leaf tensor hooks (non-leaf hooks live on grad_fn)
    _accumulator = None  # weakref to the leaf's AccumulateGrad
    _post_accumulate_hooks = None
    _retains_grad = False
    _is_param = False
    _batched = False  # a vmap BatchedTensor (func/batched_tensor.py): no array of its own
    _fw_grads = None  # forward-mode tangents, level -> Tensor (Note [Forward grads])

    # Note [NumPy interop]
    # As torch's tensors do: NumPy defers its ndarray operators to a tensor (the priority),
    # a tensor's operators decline ndarrays (NotImplemented), so ``t + a`` ends in NumPy's
    # ``a.__radd__``, which reads the tensor through ``__array__``; NumPy functions and
    # ufuncs do the same, and ``__array_wrap__`` turns their results back into tensors.
    __array_priority__ = 1000

    @staticmethod
    def _make(data, cls=None) -> Tensor:
        """A new tensor (of class ``cls``, Tensor by default) around ``data``, no copy."""
        t = _new(cls or Tensor)
        t._data = data
        t._requires_grad = False
        t._grad_fn = None
        t._base = None
        return t

    # -- basic properties ------------------------------------------------------------------
    @property
    def shape(self) -> Size:
        return Size(self._data.shape)

    @property
    def dtype(self) -> _dtypes.dtype:
        return _dtypes._FROM_NUMPY[self._data.dtype]

    @property
    def device(self):
        return device("meta" if self._data.__class__ is MetaArray else "cpu")

    @property
    def is_meta(self) -> bool:
        return self._data.__class__ is MetaArray

    # CPU-only: every device probe answers False, as on torch's CPU build
    is_cuda = is_xpu = is_mps = is_mkldnn = is_vulkan = is_ipu = is_mtia = is_maia = False
    is_xla = False
    is_sparse = False
    is_quantized = False

    @property
    def ndim(self) -> int:
        return self._data.ndim

    @property
    def itemsize(self) -> int:
        return self._data.itemsize

    @property
    def nbytes(self) -> int:
        return self._data.nbytes

    def size(self, dim: int | None = None):
        if dim is None:
            return Size(self._data.shape)
        return self._data.shape[_read_dim(self._data.ndim, dim)]

    def dim(self) -> int:
        return self._data.ndim

    def ndimension(self) -> int:
        return self._data.ndim

    def numel(self) -> int:
        return self._data.size

    nelement = numel

    def element_size(self) -> int:
        return self._data.itemsize

    def stride(self, dim: int | None = None):
        strides = tuple(s // self._data.itemsize for s in self._data.strides)
        return strides if dim is None else strides[_read_dim(self._data.ndim, dim)]

    def is_contiguous(self, memory_format=None) -> bool:
        return is_contiguous_as(self._data, format_name(memory_format))

    def is_floating_point(self) -> bool:
        return self._data.dtype.kind in "fV"  # V: bfloat16 (Note [bfloat16])

    def is_complex(self) -> bool:
        return self._data.dtype.kind == "c"

    def data_ptr(self) -> int:
        return self._data.__array_interface__["data"][0]

    def storage_offset(self) -> int:
        """Elements between the start of the underlying storage and this tensor's first."""
        root = self._data
        while isinstance(root.base, xp.ndarray):
            root = root.base
        offset = self.data_ptr() - root.__array_interface__["data"][0]
        return offset // self._data.itemsize

    def get_device(self) -> int:
        return -1

    def is_inference(self) -> bool:
        vc = self._vc
        return vc is not None and vc.inference

    # -- conversion to Python and NumPy ----------------------------------------------------
    def item(self):
        if self._data.size != 1:
            raise RuntimeError(
                f"a Tensor with {self._data.size} elements cannot be converted to Scalar"
            )
        if self._data.__class__ is MetaArray:
            raise RuntimeError("Tensor.item() cannot be called on meta tensors")
        return self._data.item()

    def tolist(self):
        if self._data.__class__ is MetaArray:
            no_data()
        return self._data.tolist()

    def numpy(self, *, force: bool = False):
        if self._data.__class__ is MetaArray:
            raise TypeError(
                "can't convert meta device type tensor to numpy. Use Tensor.cpu() to copy the "
                "tensor to host memory first."
            )
        if self._data.dtype.kind == "V":
            raise TypeError("Got unsupported ScalarType BFloat16")
        # as torch's, only while grad is recorded: a custom Function's forward (run under
        # no_grad) may hand its inputs to NumPy
        if self._requires_grad and not force and is_grad_enabled():
            raise RuntimeError(
                "Can't call numpy() on Tensor that requires grad. "
                "Use tensor.detach().numpy() instead."
            )
        return self._data

    def __array__(self, dtype=None, copy=None):
        data = self.numpy()
        return data if dtype is None else data.astype(dtype, copy=False)

    def __array_wrap__(self, array, context=None, return_scalar=False):
        if array.dtype == xp.bool_:  # as torch: NumPy's bool results come back as uint8
            array = array.astype(xp.uint8)
        return Tensor._make(xp.asarray(array))

    def __len__(self) -> int:
        if not self._data.ndim:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __iter__(self):
        if not self._data.ndim:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))

    def __contains__(self, element) -> bool:
        if not isinstance(element, (Tensor, int, float, bool, complex, xp.generic)):
            raise RuntimeError(
                "Tensor.__contains__ only supports Tensor or scalar, but you passed in a "
                f"{type(element)}."
            )
        other = element._data if isinstance(element, Tensor) else element
        return bool((self._data == other).any())

    def __bool__(self) -> bool:
        if self._data.size != 1:
            raise RuntimeError(
                "Boolean value of Tensor with more than one value is ambiguous"
                if self._data.size
                else "Boolean value of Tensor with no values is ambiguous"
            )
        return bool(self.item())

    def __float__(self) -> float:
        if self._requires_grad and not _warned_float_of_grad and is_grad_enabled():
            _warn_float_of_grad()
        return float(_without_imaginary(self._python_scalar(), "double"))

    def __int__(self) -> int:
        return int(_without_imaginary(self._python_scalar(), "int64_t"))

    def _python_scalar(self):
        if self._data.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return self.item()

    def __complex__(self) -> complex:
        return complex(self.item())

    def __index__(self) -> int:
        if self._data.dtype.kind not in "biu" or self._data.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self._data.item())

    def __hash__(self) -> int:
        return id(self)

    def __repr__(self) -> str:
        cls = self.__class__
        if cls is Tensor or cls.__module__.startswith("numtorch."):
            return tensor_repr(self)
        # a user's subclass that dispatches (a classmethod __torch_function__: not
        # Parameter's opt-out) prints its own name, as torch's does
        if hasattr(getattr(cls, "__torch_function__", None), "__func__"):
            return tensor_repr(self, cls.__name__ + "(")
        return tensor_repr(self)

    def __format__(self, spec: str) -> str:
        if self._data.ndim == 0:
            return self._data.item().__format__(spec)
        return object.__format__(self, spec)

    def __reduce_ex__(self, protocol):
        # torch pickles the values, requires_grad and the attributes a user set: never the
        # graph, the gradient or numtorch's bookkeeping (a view pickles its own elements)
        return (_rebuild_tensor, (self._data, self._requires_grad, type(self), self._user_state()))

    def _user_state(self) -> dict:
        """The attributes a user set on this tensor (numtorch's own start with ``_``): what
        copies and pickles carry over."""
        return {k: v for k, v in self.__dict__.items() if not k.startswith("_")}

    def __deepcopy__(self, memo):
        if self._grad_fn is not None:
            raise RuntimeError(
                "Only Tensors created explicitly by the user (graph leaves) support the "
                "deepcopy protocol at the moment."
            )
        if id(self) in memo:
            return memo[id(self)]
        new = Tensor._make(self._data.copy(), type(self))
        new._requires_grad = self._requires_grad
        if self._grad is not None:
            new._grad = self._grad.__deepcopy__(memo)
        new.__dict__.update(self._user_state())
        memo[id(self)] = new
        return new

    # -- autograd --------------------------------------------------------------------------
    @property
    def requires_grad(self) -> bool:
        if self._requires_grad or self._base is None:
            return self._requires_grad
        # a view whose base was since written in place with a tensor that requires grad:
        # torch asks the base (reading the flag never refreshes the view's grad_fn, so it
        # never raises for the views of a multi-view op)
        return self._vc.version != self._view_version and self._base._requires_grad

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        if value.__class__ is not bool:
            raise RuntimeError("requires_grad must be a bool")
        self._set_requires_grad(value, "requires_grad")

    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        if requires_grad.__class__ is not bool:  # torch's parser: a bool only (not 1, nor None)
            raise TypeError(
                "requires_grad_(): argument 'requires_grad' (position 1) must be bool, not "
                f"{typename(requires_grad)}"
            )
        self._set_requires_grad(requires_grad, "requires_grad_")
        return self

    def _set_requires_grad(self, value: bool, how: str) -> None:
        if self._grad_fn is not None:
            if value:
                return
            raise RuntimeError(
                "you can only change requires_grad flags of leaf variables. If you want to use "
                "a computed variable in a subgraph that doesn't require differentiation use "
                "var_no_grad = var.detach()."
            )
        if value and self._data.dtype.kind not in "fcV":
            raise RuntimeError(
                f"only Tensors of floating point dtype can require gradients (got {self.dtype}; "
                f"convert first, e.g. x.float().{how}(True))"
            )
        vc = self._vc
        if value and vc is not None and vc.inference and not is_inference_mode_enabled():
            raise RuntimeError(
                "Setting requires_grad=True on inference tensor outside InferenceMode is not "
                "allowed."
            )
        self._requires_grad = value

    @property
    def grad_fn(self):
        if self._base is not None and self._vc.version != self._view_version:
            refresh_view_grad_fn(self)
        return self._grad_fn

    @property
    def is_leaf(self) -> bool:
        return self.grad_fn is None

    @property
    def output_nr(self) -> int:
        return self._output_nr

    @property
    def _version(self) -> int:
        if self._vc is None:
            return 0
        if self._vc.__class__ is InferenceVersion:
            raise RuntimeError("Inference tensors do not track version counter.")
        return self._vc.version

    def _is_view(self) -> bool:
        return self._base is not None

    @property
    def grad(self) -> Tensor | None:
        if self._grad_fn is not None and not self._retains_grad and self._grad is None:
            warnings.warn(
                "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. "
                "Its .grad attribute won't be populated during autograd.backward(). If you "
                "indeed want the .grad field to be populated for a non-leaf Tensor, use "
                ".retain_grad() on the non-leaf Tensor. If you access the non-leaf Tensor by "
                "mistake, make sure you access the leaf Tensor instead.",
                UserWarning,
                stacklevel=2,
            )
        return self._grad

    @grad.setter
    def grad(self, value) -> None:
        if value is not None:
            if not isinstance(value, Tensor):
                raise TypeError(
                    f"assigned grad expected to be a Tensor or None but got grad of "
                    f"type {type(value).__name__}"
                )
            if value._data.shape != self._data.shape:
                raise RuntimeError(
                    f"attempting to assign a gradient of size '{list(value._data.shape)}' to a "
                    f"tensor of size '{list(self._data.shape)}'. Please ensure that the gradient "
                    "and the tensor are the same size"
                )
            # grad_dtype: the tensor's dtype unless set; None takes any (Note [grad_dtype])
            wanted = self.__dict__.get("_grad_dtype", self.dtype)
            if wanted is not None and value.dtype is not wanted:
                raise RuntimeError(
                    f"attempting to assign a gradient with dtype '{c_type_name(value.dtype)}' "
                    f"to a tensor with grad_dtype '{wanted.scalar_name}'. The gradient must "
                    "match the tensor's grad_dtype (defaults to the tensor's dtype). You can "
                    "set the tensor's grad_dtype attribute with a specific dtype, or None to "
                    "allow any dtype. Set grad_dtype with caution. Diverging the dtypes of a "
                    "tensor and its gradient may break downstream systems that assume they "
                    "match."
                )
        self._grad = value

    @grad.deleter
    def grad(self) -> None:
        self._grad = None

    @property
    def data(self) -> Tensor:
        """The same storage as a tensor outside autograd; in-place changes are not tracked."""
        return Tensor._make(self._data)

    @data.setter
    def data(self, value: Tensor) -> None:
        if not isinstance(value, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(value).__name__}")
        if self._requires_grad and value._data.dtype.kind not in "fcV":
            raise RuntimeError(
                "data set to a tensor that requires gradients must be floating point or complex "
                "dtype"
            )
        self._data = value._data

    @property
    def retains_grad(self) -> bool:
        return self._retains_grad

    def retain_grad(self) -> None:
        """Populate ``.grad`` of this non-leaf tensor during backward."""
        if not self._requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if self._grad_fn is None or self._retains_grad:
            return
        self._grad_fn._register_retains_grad(self._output_nr, self)
        self._retains_grad = True

    def register_hook(self, hook):
        """Call ``hook(grad)`` when this tensor's gradient is computed; a returned tensor
        replaces the gradient. Returns a handle with ``remove()``."""
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self._grad_fn is not None:
            return self._grad_fn._register_tensor_hook(self._output_nr, hook)
        if self._hooks is None:
            self._hooks = OrderedDict()
        return _add_hook(self._hooks, hook)

    def register_post_accumulate_grad_hook(self, hook):
        """Call ``hook(tensor)`` after the leaf's ``.grad`` has received all its gradients."""
        if self._grad_fn is not None:
            raise RuntimeError(
                "post accumulate grad hooks cannot be registered on non-leaf tensors"
            )
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self._post_accumulate_hooks is None:
            self._post_accumulate_hooks = OrderedDict()
        return _add_hook(self._post_accumulate_hooks, hook)

    def detach(self) -> Tensor:
        """A tensor sharing storage and version counter, outside the graph."""
        out = Tensor._make(self._data)
        vc = self._vc
        if vc is None:
            vc = self._vc = VersionCounter()
        out._vc = vc
        return out

    def detach_(self) -> Tensor:
        if self._base is not None and self._requires_grad:
            raise RuntimeError(
                "Can't detach views in-place. Use detach() instead. If you are using "
                "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is set "
                "as True, gradients are views of DDP buckets, and hence detach_() cannot be "
                "called on these gradients. To fix this error, please refer to the "
                "Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution."
            )
        self._grad_fn = None
        self._output_nr = 0
        self._requires_grad = False
        return self

    # -- engine helpers --------------------------------------------------------------------
    def _edge(self):
        """The (node, output_nr) through which gradient flows into this tensor."""
        fn = self._grad_fn
        if self._base is not None and self._vc.version != self._view_version:
            fn = self.grad_fn  # Note [Views of a tensor that starts requiring grad]
        if fn is not None:
            return (fn, self._output_nr)
        if not self._requires_grad:
            return (None, 0)
        acc = self._accumulator() if self._accumulator is not None else None
        if acc is None:
            if self.__dict__.get("_view_no_grad"):
                return (None, 0)  # Note [Views made without grad mode] in views.py
            acc = AccumulateGrad(self)
            self._accumulator = weakref.ref(acc)
        return (acc, 0)

    def _get_vc(self) -> VersionCounter:
        vc = self._vc
        if vc is None:
            vc = self._vc = VersionCounter()
        return vc

    def _bump_version(self) -> None:
        vc = self._vc
        if vc is None:
            self._vc = VersionCounter(1)
        else:
            vc.version += 1

    def _owned_copy(self) -> Tensor:
        """A tensor for ``.grad`` whose writable, contiguous array nothing else shares.

        The gradient's array is taken over without a copy when nothing else refers to it:
        a fresh array, or a contiguous view covering the whole of a fresh array (a weight
        gradient computed transposed, a bias gradient reshaped after its sum).
        """
        data = self._data
        if data.__class__ is MetaArray:  # nothing to own: a meta gradient has no data
            return Tensor._make(data)
        # References: self._data, the local name, and getrefcount's own argument.
        if sys.getrefcount(data) <= 3 and data.flags.writeable and data.flags.c_contiguous:
            base = data.base
            if base is None:
                return Tensor._make(data)
            # References to the base: data.base, the local name, getrefcount's argument,
            # and the view's root tensor when that root is held by nothing but this view.
            root = self._base
            owners = 4 if root is not None and root._data is base else 3
            if (
                base.base is None
                and base.size == data.size
                and type(base) is xp.ndarray
                and sys.getrefcount(base) <= owners
                and (owners == 3 or sys.getrefcount(root) <= 3)
            ):
                return Tensor._make(data)
        return Tensor._make(xp.array(data, order="C"))

    def _accumulate_(self, other: Tensor) -> None:
        """In-place ``self += other`` for gradient accumulation (same shape by contract)."""
        data, source = self._data, other._data
        if data.__class__ is EfficientZeros:  # torch's in-place += on a ZeroTensor .grad
            raise RuntimeError(IMMUTABLE)
        if data.dtype.kind == "c":  # torch's add: Note [Complex alpha] in ops/pointwise.py
            source = source * (1 + 0j)
        if data.flags.writeable and data.dtype == source.dtype:
            xp.add(data, source, out=data)
        else:
            self._data = (data + source).astype(data.dtype, copy=False)
        self._bump_version()


def _wrap_dim(dim: int, ndim: int) -> int:
    """Normalise a possibly negative ``dim``, raising torch's IndexError when out of range."""
    if dim.__class__ is not int:
        dim = _dim_index(dim)
    lo = -max(ndim, 1)
    hi = max(ndim, 1) - 1
    if not lo <= dim <= hi:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{lo}, {hi}], but got {dim})"
        )
    return dim - lo if dim < 0 else dim  # a 0-d tensor's dim -1 is its dim 0


def _dim_index(dim) -> int:
    return int_argument(dim, "dim")


def int_argument(value, name: str, op: str | None = None) -> int:
    """An int argument given as other than an int (callers test ``value.__class__ is int``
    first): torch's argument parser takes what converts to an index (a NumPy integer, a 0-d
    integer tensor) and refuses the rest, a bool or a float included, with a TypeError
    before the op looks at any shape."""
    if value.__class__ is not bool and value.__class__ is not xp.bool_:
        if not isinstance(value, Tensor):
            try:
                return value.__index__()
            except (AttributeError, TypeError):
                pass
        elif value._data.ndim == 0 and value._data.dtype.kind in "iu":
            return int(value._data)
    kind = "Tensor" if isinstance(value, Tensor) else typename(value)
    where = f"{op}(): " if op else ""
    raise TypeError(f"{where}argument '{name}' must be int, not {kind}")


def _read_dim(ndim: int, dim: int) -> int:
    """``dim`` of a tensor whose size torch's kernel reads before any shape check: torch's
    IndexError for a 0-d tensor (which has no size to read) or a dim out of range."""
    if ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    return _wrap_dim(dim, ndim)


def typename(obj) -> str:
    """``'torch.FloatTensor'`` for a tensor, else the qualified type name.

    Example:
        >>> import numtorch as torch
        >>> torch.typename(torch.ones(1)), torch.typename(3)
        ('torch.FloatTensor', 'int')
    """
    if isinstance(obj, Tensor):
        return obj.type()
    # a class or function is named by its own qualified name, anything else by its type's
    named = obj if hasattr(obj, "__qualname__") else type(obj)
    module = getattr(named, "__module__", "") or ""
    name = named.__qualname__
    if module in ("", "builtins"):
        return name
    return f"{module.replace('numtorch', 'torch')}.{name}"


_warned_float_of_grad = False


def _warn_float_of_grad() -> None:
    # torch warns once per process, from float() only (not item(), int() or formatting),
    # and only where grad mode is on (LBFGS's float(loss) under no_grad stays silent)
    global _warned_float_of_grad
    _warned_float_of_grad = True
    warnings.warn(
        "Converting a tensor with requires_grad=True to a scalar may lead to unexpected "
        "behavior.\nConsider using tensor.detach() first.",
        UserWarning,
        stacklevel=3,
    )


def _rebuild_tensor(data, requires_grad, cls, state):
    """A pickled tensor (Tensor.__reduce_ex__): a leaf over ``data``, as torch unpickles one."""
    tensor = Tensor._make(data, cls)
    tensor._requires_grad = requires_grad
    tensor.__dict__.update(state)
    return tensor
