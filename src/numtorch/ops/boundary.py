"""The boundary of the ``numtorch.<name>`` functions: torch's ``out=`` argument, and torch's
error types for what would otherwise leak from NumPy or from inside numtorch.

``publish`` wraps each function once, at import. The wrapper costs one Python call; the
error translation runs only once an exception is on its way out (Python's ``try`` is free
until something raises). Tensor methods are not wrapped: their ``self`` is a tensor already,
and the op runner turns NumPy's allocation failures into torch's error for them.
"""

from __future__ import annotations

import functools
import inspect
import types
import warnings

from .. import backend as xp
from .._core import batch_rules, grad_mode
from .._core import dtypes as _dtypes
from .._core.dispatch import allocation_error
from .._core.inplace import _can_cast
from .._core.observers import dispatch
from .._core.tensor import Tensor, typename
from .numpy_keywords import PYTHON_LEVEL, torch_keywords

_NO_OUT = object()
# what a first argument may be besides a tensor (numbers, sizes, names, sequences of tensors)
_NOT_BLAMED = (Tensor, int, float, complex, str, list, tuple, type)


def publish(name: str, fn):
    """``fn`` as ``numtorch.<name>``: with ``out=``, and torch's errors at the boundary."""
    if not isinstance(fn, types.FunctionType):
        return fn

    parsed = name not in PYTHON_LEVEL
    exact = _exact_out(name, fn)
    fills = name in _FACTORIES or name in _REDUCTIONS

    @functools.wraps(fn)
    def public(*args, out=_NO_OUT, **kwargs):
        if dispatch.torch_function is not None:  # Note [Torch function dispatch]
            given = kwargs if out is _NO_OUT else {**kwargs, "out": out}
            taken = dispatch.torch_function(public, args, given)
            if taken is not NotImplemented:
                return taken
        if fills and out is not _NO_OUT and out is not None:
            kwargs = _fill_dtype(name, out, kwargs)
        try:
            result = fn(*args, **kwargs)
        except TypeError:
            renamed = torch_keywords(kwargs) if kwargs and parsed else None
            if kwargs:
                renamed = _input_keyword(fn, renamed or kwargs) or renamed
            if renamed is None:  # Note [NumPy keyword names]
                # an object that is not a tensor but defines __torch_function__ takes over
                # (Note [Torch function dispatch]); found only once the op refused it
                objects = dispatch.torch_function_objects
                taken = NotImplemented if objects is None else objects(public, args, kwargs)
                if taken is NotImplemented:
                    raise
                return taken
            result = fn(*args, **renamed)
        except MemoryError as error:
            raise allocation_error(error) from None
        except ValueError as error:
            if "array is too big" not in str(error):
                raise
            raise allocation_error(error) from None
        except AttributeError as error:
            if name in _PYTHON_READS:
                raise
            not_tensor = _non_tensor_argument(name, fn, args, kwargs) or _read_as_tensor(
                name, fn, args, kwargs, error
            )
            if not_tensor is None:
                raise
            raise not_tensor from None
        except (RuntimeError, IndexError):  # from a NumPy array inside: torch's TypeError
            not_tensor = _non_tensor_argument(name, fn, args, kwargs, arrays_only=True)
            if not_tensor is None:
                raise
            raise not_tensor from None
        if out is _NO_OUT or out is None:
            return result
        return _write_out(name, result, out, exact)

    return public


# torch's logical kernels compute in their out's dtype, whatever it is
_LOGICAL = frozenset(("logical_and", "logical_not", "logical_or", "logical_xor"))

# torch's kernels that check their out's dtype against the result's, beyond the elementwise
# ops that keep their dtype: the products, linear algebra, sorting and selection, the scans
# of extrema, softmax, the view copies (their structured kernels check it; the others, and
# torch's functions composed in Python, cast the result to out's dtype)
_EXACT_OUT = frozenset(
    ("addbmm", "addmm", "addmv", "alias_copy", "amax", "amin", "aminmax", "argsort",
     "as_strided_copy", "avg_pool2d", "avg_pool3d", "baddbmm", "bmm", "bucketize", "clamp",
     "cross", "cummax", "cummin", "detach_copy", "diag", "diagonal_copy", "dot",
     "expand_copy", "float_power", "frac", "frexp", "gather", "gelu", "hardshrink", "histc",
     "histogram", "index_add", "index_copy", "index_select", "inner", "isin", "kthvalue",
     "ldexp", "linalg_cholesky", "linalg_cholesky_ex", "linalg_cross", "linalg_det",
     "linalg_eigh", "linalg_eigvalsh", "linalg_inv", "linalg_ldl_factor",
     "linalg_ldl_factor_ex", "linalg_ldl_solve", "linalg_lu", "linalg_lu_factor",
     "linalg_lu_factor_ex", "linalg_lu_solve", "linalg_matrix_norm", "linalg_multi_dot",
     "linalg_norm", "linalg_qr", "linalg_slogdet", "linalg_solve",
     "linalg_solve_triangular", "linalg_svdvals", "linalg_vecdot", "linalg_vector_norm",
     "log_softmax", "logcumsumexp", "logsigmoid", "lu_solve", "lu_unpack", "masked_select",
     "matmul", "mm", "mode", "msort", "mv", "nanquantile", "native_batch_norm", "norm",
     "ormqr", "permute_copy", "quantile", "round", "scatter", "scatter_add", "searchsorted",
     "select_copy", "slice_copy", "softmax", "softplus", "softshrink", "sort",
     "special_round", "split_with_sizes_copy", "squeeze_copy", "t_copy", "take",
     "take_along_dim", "tensordot", "topk", "transpose_copy", "triangular_solve", "tril",
     "triu", "unbind_copy", "unfold_copy", "unsqueeze_copy", "vdot", "view_as_real_copy",
     "view_copy", "where")
)  # fmt: skip


# the ops whose (values, indices) out= kernels check dtypes, where their one-result
# overloads (max(a, b)) cast
_EXACT_TUPLE_OUT = frozenset(("max", "min", "median", "nanmedian"))


def _exact_out(name, fn) -> bool:
    """Whether ``out=`` must have the result's dtype: torch's elementwise ops that keep their
    input's dtype (abs, neg, floor, sign) check it, and the kernels of ``_EXACT_OUT``, where
    the promoting ops (add, sin) cast their result to ``out``'s dtype."""
    if name in _EXACT_OUT:
        return True
    spec = getattr(fn, "spec", None)
    return (
        spec is not None
        and spec.batch is batch_rules.pointwise
        and spec.promote is None
        and spec.outputs == 1
        and name not in _LOGICAL
    )


def publish_all(namespace: dict, names, prefix: str = "") -> None:
    """Publish ``names`` of a module's ``namespace`` in place (``torch.linalg``'s functions
    take ``out=`` as the ``torch.<name>`` ones do); ``prefix`` makes the name torch's errors
    give (``linalg_det()``)."""
    for name in names:
        namespace[name] = publish(prefix + name, namespace[name])


def _input_keyword(fn, kwargs: dict) -> dict | None:
    """``kwargs`` with ``input`` given to the first parameter where ``fn`` names that one
    otherwise: torch's parser calls a schema's ``self`` ``input`` (``torch.linalg.cholesky(
    input=A)``, ``torch.unfold_copy(input=x, ...)``). Only after a call failed: free before."""
    if "input" not in kwargs:
        return None
    params = _parameters(fn)
    if not params or params[0][0] in ("input", *kwargs):
        return None
    renamed = dict(kwargs)
    renamed[params[0][0]] = renamed.pop("input")
    return renamed


def _parameters(fn) -> list:
    """(name, default) of ``fn``'s positional parameters (a registered op's from its spec)."""
    spec = getattr(fn, "spec", None)
    if spec is not None:
        return list(zip(spec.params, spec.defaults))
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    params = inspect.signature(fn).parameters.values()
    return [(p.name, p.default) for p in params if p.kind in kinds]


def _non_tensor_argument(name, fn, args, kwargs, arrays_only=False) -> TypeError | None:
    """torch's TypeError for a None (or another non-tensor object) where the function needs
    a tensor, found after the function failed on it."""
    for position, (param, default) in enumerate(_parameters(fn)):
        if position < len(args):
            value = args[position]
        elif param in kwargs:
            value = kwargs[param]
        else:
            continue
        if arrays_only and type(value) is not xp.ndarray:
            continue  # the function's own error stands (it was raised knowingly)
        if value is None:
            if position > 0 and default is None:
                continue  # an optional argument left out
        elif type(value) is xp.ndarray and position > 0:
            pass  # an array where a tensor goes, as torch names it
        elif position > 0 or not _blamed(name, value):
            continue
        return TypeError(
            f"{name}(): argument '{param}' (position {position + 1}) must be Tensor, "
            f"not {typename(value)}"
        )
    return None


# torch's functions written in Python that read a tensor's fields of their arguments before
# any parser sees them: a number there raises Python's AttributeError in torch too
_PYTHON_READS = frozenset(("norm", "split", "stft", "tensordot", "unravel_index"))


def _read_as_tensor(name, fn, args, kwargs, error: AttributeError) -> TypeError | None:
    """torch's TypeError for an argument the function read a tensor's attribute of (a number
    or a list where a tensor goes, alone or as an element of a sequence of tensors): torch's
    parser refuses it before the op runs. Found from the object the attribute was missing
    on, so an argument that is legitimately a number is never blamed."""
    culprit = getattr(error, "obj", None)
    if culprit is None or not hasattr(Tensor, getattr(error, "name", None) or ""):
        return None
    params = [param for param, _ in _parameters(fn)]
    named = list(zip(params, args)) + [(k, v) for k, v in kwargs.items() if k in params]
    for param, value in named:
        if value is culprit:
            return TypeError(
                f"{name}(): argument '{param}' (position {params.index(param) + 1}) must be "
                f"Tensor, not {typename(value)}"
            )
    # an element of a sequence of tensors, or of *tensors (torch's one list argument)
    sequences = [(params.index(p), v) for p, v in named if isinstance(v, (list, tuple))]
    if len(args) > len(params):
        sequences.append((len(params), args[len(params) :]))
    for position, elements in sequences:
        for i, element in enumerate(elements):
            if element is culprit:
                return TypeError(
                    f"expected Tensor as element {i} in argument {position}, but got "
                    f"{typename(element)}"
                )
    return None


# the functions whose first argument may be a NumPy array
_TAKE_ARRAYS = frozenset(
    ("tensor", "as_tensor", "asarray", "from_numpy", "save", "sparse_coo_tensor", "is_tensor")
)


def _blamed(name, first) -> bool:
    # a first argument torch would refuse: not a tensor, a size or a sequence, nor anything
    # of numtorch's or NumPy's but a dtype (NumPy scalars: the function's own checks name
    # them). A NumPy array is refused by every function that does not convert one; a
    # number or a dtype by one that failed on it (torch's parser wants a Tensor there).
    if type(first) is xp.ndarray:
        return name not in _TAKE_ARRAYS
    if isinstance(first, (bool, int, float, complex, _dtypes.dtype)):
        return True
    if isinstance(first, _NOT_BLAMED):
        return False
    return type(first).__module__.partition(".")[0] not in ("numtorch", "numpy")


# the ops whose schema returns a list of tensors (Tensor[]): their out= variants write the
# list and return nothing
_OUT_LISTS = frozenset(("split_copy", "split_with_sizes_copy", "unbind_copy"))


# torch's kernels that resize their out themselves, without the warning of a resized
# output: the factories but arange (they resize before they fill) and a few others
_RESIZED_SILENTLY = frozenset(
    ("zeros", "ones", "empty", "full", "linspace", "logspace", "eye", "rand", "randn",
     "randint", "randperm", "bernoulli", "addbmm", "logsigmoid")
)  # fmt: skip


# torch's factories make out's dtype where no dtype is given (torch.ones(3, out=longs)), and
# so do its sums and products (torch.sum(x, 0, out=longs) sums x as longs)
_FACTORIES = frozenset(
    ("zeros", "ones", "empty", "full", "arange", "linspace", "logspace", "eye", "rand",
     "randn", "randint", "randperm")
)  # fmt: skip
_REDUCTIONS = frozenset(("sum", "prod", "nansum", "cumsum", "cumprod"))


def _fill_dtype(name, out, kwargs: dict) -> dict:
    """The keywords making ``out``'s dtype, which one given must equal."""
    if not isinstance(out, Tensor):
        return kwargs
    dtype = kwargs.get("dtype")
    if dtype is None:
        return {**kwargs, "dtype": out.dtype}
    if dtype is out.dtype:
        return kwargs
    if name in _REDUCTIONS:
        raise RuntimeError(
            f"Expected out tensor to have dtype {dtype.scalar_name}, but got "
            f"{out.dtype.scalar_name} instead"
        )
    raise RuntimeError(
        f"dtype {dtype.scalar_name} does not match dtype of out parameter ({out.dtype.scalar_name})"
    )


# the transforms with a real result: torch refuses a complex out (where it casts the others)
_REAL_TRANSFORMS = frozenset(
    ("fft_hfft", "fft_hfft2", "fft_hfftn", "fft_irfft", "fft_irfft2", "fft_irfftn")
)

# the functions that run torch's cat on their inputs
_CONCATENATIONS = frozenset(
    ("cat", "concat", "concatenate", "stack", "hstack", "vstack", "dstack", "column_stack",
     "row_stack")
)  # fmt: skip


def _write_out(name, result, out, exact=False):
    if isinstance(result, tuple) and isinstance(out, (tuple, list)):
        if len(out) != len(result):
            raise TypeError(f"{name}(): argument 'out' must be a tuple of {len(result)} Tensors")
        exact = exact or name in _EXACT_TUPLE_OUT
        written = [_write_one(name, r, o, exact) for r, o in zip(result, out)]
        if name in _OUT_LISTS:
            return None
        return type(result)(*written) if hasattr(result, "_fields") else tuple(written)
    if not isinstance(result, Tensor):
        raise TypeError(f"{name}() got an unexpected keyword argument 'out'")
    return _write_one(name, result, out, exact)


def _write_one(name, result: Tensor, out, exact=False) -> Tensor:
    """Copy ``result`` into ``out`` as torch's out= kernels do: resized when the shape
    differs (with torch's warning unless ``out`` was empty), cast to ``out``'s dtype where
    torch's casting rules allow, never recorded for autograd."""
    if not isinstance(out, Tensor):
        raise TypeError(f"{name}(): argument 'out' must be Tensor, not {type(out).__name__}")
    if grad_mode.is_grad_enabled() and (out.requires_grad or result.requires_grad):
        raise RuntimeError(
            f"{name}(): functions with out=... arguments don't support automatic "
            "differentiation, but one of the arguments requires grad."
        )
    if name in _REAL_TRANSFORMS and out.is_complex():
        raise RuntimeError(
            f"{name.removeprefix('fft_')} expects a floating point output tensor, but got "
            f"{out.dtype.scalar_name}"
        )
    if exact and result.dtype is not out.dtype:
        raise RuntimeError(
            f"Found dtype {out.dtype.scalar_name} but expected {result.dtype.scalar_name}"
        )
    if result.dtype is not out.dtype and not _can_cast(result.dtype, out.dtype):
        if name in _CONCATENATIONS:  # torch's cat checks its inputs against out: a TypeError
            raise TypeError(
                f"torch.cat(): input types can't be cast to the desired output type "
                f"{out.dtype.scalar_name}"
            )
        raise RuntimeError(
            f"result type {result.dtype.scalar_name} can't be cast to the desired output type "
            f"{out.dtype.scalar_name}"
        )
    if tuple(out.shape) != tuple(result.shape):
        if out.numel() != 0 and name not in _RESIZED_SILENTLY:
            warnings.warn(
                f"An output with one or more elements was resized since it had shape "
                f"{list(out.shape)}, which does not match the required output shape "
                f"{list(result.shape)}. This behavior is deprecated, and in a future PyTorch "
                "release outputs will not be resized unless they have zero elements. You can "
                "explicitly reuse an out tensor t by resizing it, inplace, to zero elements "
                "with t.resize_(0).",
                UserWarning,
                stacklevel=4,
            )
        out.resize_(result.shape)
    with grad_mode.no_grad():
        out.copy_(result)
    return out
