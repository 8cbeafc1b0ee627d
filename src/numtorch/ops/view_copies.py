"""The ``*_copy`` ops (``permute_copy``, ``view_copy``, ...) and ``unsafe_split``/``unsafe_chunk``:
a view op's result as a tensor of its own.

torch defines one per view op, for backends without views: the view op's arguments, checks
and derivative, its node's name with ``_copy`` appended (``PermuteBackward0_copy``). Here each
view primitive gets a twin entry whose forward copies, and each public copy op is its view
op's public function run with the view primitives swapped for their twins, so the two check
their arguments in one place.
"""

from __future__ import annotations

from types import FunctionType

from .._core import batch_rules
from .._core.grad_mode import is_grad_enabled
from .._core.op import defop, export, not_implemented
from .._core.tensor import _wrap_dim
from ..backend import xp
from . import complex as _complex
from . import concatenation, construction, indexing, shape, strided, triangular
from .overload_names import overload_names


def _copied(result, order):
    if isinstance(result, (list, tuple)):
        return type(result)(xp.array(part, copy=True, order=order) for part in result)
    return xp.array(result, copy=True, order=order)


def _twin(view_op, name: str, node: str, forward=None, aten=None, order="K"):
    """A primitive with ``view_op``'s derivative whose forward copies (into the ``order``
    layout; with ``order=None`` it does not copy), recorded as ``node``."""
    spec = view_op.spec
    forward = forward or spec.forward

    def copy_forward(*args):
        result = forward(*args)
        return result if order is None else _copied(result, order)

    formulas = {spec.params[i]: formula for i, formula, _ in spec.formulas}
    twin = defop(
        name=name,
        node=node,
        params=spec.params,
        promote=spec.promote,
        lists=[spec.params[i] for i in spec.lists],
        scalars=[spec.params[i] for i in spec.scalars],
        outputs=spec.outputs,
        returns=spec.returns,
        check=spec.check,
        aten=aten,
        schema_args=spec.schema_args,
        jvp=spec.jvp,
        batch=spec.batch,  # a copy batches as its view does
        **formulas,
    )(copy_forward)
    # the view op is marked only once every module is loaded: read its list
    twin.spec.complex_autograd = spec.name in _complex.COMPLEX_DIFFERENTIABLE
    return twin


def _copy_twin(view_op):
    spec = view_op.spec
    node = spec.node_class.__name__ + "_copy"
    # torch's copy ops return contiguous tensors, whatever the view's strides would be
    return _twin(view_op, spec.name + "_copy", node, aten=spec.aten + "_copy", order="C")


def _with_primitives(public, name: str, **primitives):
    """``public`` re-bound so that the globals it calls by name are ``primitives``."""
    public = getattr(public, "__wrapped__", public)  # its own code, not a wrapper's
    namespace = dict(public.__globals__)
    namespace.update(primitives)
    fn = FunctionType(public.__code__, namespace, name, public.__defaults__, public.__closure__)
    fn.__kwdefaults__ = public.__kwdefaults__
    fn.__doc__ = f"``torch.{name}``: ``{public.__name__}``'s result as a new tensor."
    return fn


def _copy_of(public, **primitives):
    name = public.__name__ + "_copy"
    twins = {key: _copy_twin(op) for key, op in primitives.items()}
    return export(_with_primitives(public, name, **twins), name=name, method=False)


# a copy needs no compatible strides: view_copy reshapes whatever the input's layout
_view_twin = _twin(
    shape._view,
    "view_copy",
    "ViewBackward0_copy",
    forward=lambda input, shape: xp.ascontiguousarray(input).reshape(shape),
)


@export(method=False)
def view_copy(input, size):
    return _view_twin(input, shape.infer_shape(shape.shape_arg(size), input._data.size))


permute_copy = _copy_of(shape.permute, _permute=shape._permute)
transpose_copy = _copy_of(shape.transpose, _transpose=shape._transpose)
t_copy = _copy_of(shape.t, _t=shape._t)
expand_copy = _copy_of(shape.expand, _expand=shape._expand)
squeeze_copy = _copy_of(
    shape.squeeze,
    _squeeze_all=shape._squeeze_all,
    _squeeze_dim=shape._squeeze_dim,
    _squeeze_dims=shape._squeeze_dims,
)
unsqueeze_copy = _copy_of(shape.unsqueeze, _unsqueeze=shape._unsqueeze)
select_copy = _copy_of(indexing.select, _select=indexing._select)
unbind_copy = _copy_of(concatenation.unbind, _unbind=concatenation._unbind)
unfold_copy = _copy_of(construction.unfold, _unfold=construction._unfold)
as_strided_copy = _copy_of(strided.as_strided, _as_strided=strided._as_strided)
view_as_real_copy = _copy_of(_complex.view_as_real, _view_as_real=_complex._view_as_real)
_view_as_complex_copy = _with_primitives(
    _complex.view_as_complex,
    "view_as_complex_copy",
    _view_as_complex=_copy_twin(_complex._view_as_complex),
)


@export(method=False)
def view_as_complex_copy(input):
    if input.requires_grad and is_grad_enabled():
        raise RuntimeError(
            "view_as_complex_copy does not support automatic differentiation for outputs with "
            "complex dtype."
        )
    return _view_as_complex_copy(input)


# diagonal's twin already exists: backward formulas take it
diagonal_copy = export(
    _with_primitives(triangular.diagonal, "diagonal_copy", _diagonal=triangular._diagonal_copy),
    name="diagonal_copy",
    method=False,
)

_split_twin = _copy_twin(concatenation._split)
_split_with_sizes_twin = _copy_twin(concatenation._split_with_sizes)
_split_copy = _with_primitives(
    concatenation.split, "split_copy", _split=_split_twin, _split_with_sizes=_split_with_sizes_twin
)


@export(method=False)
def split_copy(input, split_size, dim=0):
    if not isinstance(split_size, int):  # split_with_sizes_copy takes the list form
        raise TypeError(
            "split_copy(): argument 'split_size' (position 2) must be int, not "
            f"{type(split_size).__name__}"
        )
    return _split_copy(input, split_size, dim)


@export(method=False)
def split_with_sizes_copy(input, split_sizes, dim=0):
    return _split_copy(input, list(split_sizes), dim)


@export(method=False)
def slice_copy(input, dim=0, start=None, end=None, step=1):
    return _slice_copy(input, _wrap_dim(dim, input.ndim), start, end, step)


_slice_twin = _copy_twin(indexing._slice)
_slice_copy = _with_primitives(indexing.narrow_slice, "slice_copy", _slice=_slice_twin)
_alias_copy = _copy_twin(indexing._alias)


@export(method=False)
def alias_copy(input):
    return _alias_copy(input)


def _detach_copy_jvp(input_t):
    raise NotImplementedError(
        "Trying to use forward AD with aten::detach_copy that does not support it."
    )


# torch records a node that cannot differentiate (grad_fn=<NotImplemented>)
@defop(
    batch=batch_rules.pointwise,  # an elementwise copy
    name="detach_copy",
    node="NotImplemented",
    input=not_implemented("detach_copy"),
    jvp=_detach_copy_jvp,
)
def _detach_copy(input):
    return input.copy()


@export(method=False)
def detach_copy(input):
    return _detach_copy(input)


# unsafe_split and friends: split's results without view tracking (UnsafeSplitBackward0).
# They are not copies: as in torch, each part lies in the input's memory with its strides
# and offset (a write to a part reaches the input), but is no view (no base, its own version)
_unsafe = {
    "_split": _twin(concatenation._split, "unsafe_split", "UnsafeSplitBackward0", order=None),
    "_split_with_sizes": _twin(
        concatenation._split_with_sizes,
        "unsafe_split_with_sizes",
        "UnsafeSplitWithSizesBackward0",
        order=None,
    ),
}
unsafe_split = export(
    overload_names(split_size="split_size_or_sections")(
        _with_primitives(concatenation.split, "unsafe_split", **_unsafe)
    ),
    name="unsafe_split",
)
unsafe_chunk = export(
    _with_primitives(concatenation.chunk, "unsafe_chunk", **_unsafe), name="unsafe_chunk"
)


@export
def unsafe_split_with_sizes(input, split_sizes, dim=0):
    return unsafe_split(input, list(split_sizes), dim)
