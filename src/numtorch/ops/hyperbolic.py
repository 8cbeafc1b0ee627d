"""Inverse hyperbolic functions: asinh, acosh, atanh (and their ``arc*`` aliases).

Their in-place forms record a node of their own (``AcoshBackward1``) whose backward torch
leaves unimplemented; numtorch raises the same NotImplementedError.
"""

from __future__ import annotations

from .._core import batch_rules
from .._core.inplace import check_inplace, write_inplace
from .._core.op import FUNCTIONS, defop, export, refusing
from .._core.tensor import Tensor
from ..autograd.forward_grad import no_forward_derivative
from ..backend import xp
from .pointwise import _conj, _through_float64, _unary

# d/dx asinh x = 1 / sqrt(x**2 + 1); acosh: 1 / sqrt(x**2 - 1); atanh: 1 / (1 - x**2),
# conjugated for complex inputs (Note [Complex autograd])
asinh = _unary("asinh", xp.arcsinh, lambda grad, input: grad * _conj((input * input + 1).rsqrt()))


def _acosh_grad(grad, input):
    if input._data.dtype.kind == "c":
        # sqrt(z - 1) sqrt(z + 1) rather than sqrt(z**2 - 1): the branch of acosh's own
        # derivative off the real line (they differ in sign where Re z < 0), as torch takes it
        return grad / ((input - 1).sqrt() * (input + 1).sqrt()).conj()
    return grad * (input * input - 1).rsqrt()


acosh = _unary("acosh", xp.arccosh, _acosh_grad)
atanh = _unary("atanh", xp.arctanh, lambda grad, input: grad / _conj(1 - input * input), wide=True)
arcsinh = export(asinh, name="arcsinh")
arccosh = export(acosh, name="arccosh")
arctanh = export(atanh, name="arctanh")


def _not_implemented(what: str):
    @refusing
    def formula(grad):
        raise NotImplementedError(f"the derivative for '{what}' is not implemented.")

    return formula


def _inplace(name: str, ufunc):
    op = defop(
        name=name + "_",
        node=name[0].upper() + name[1:] + "Backward1",
        promote="float",
        params=("input",),
        batch=batch_rules.pointwise,  # (a wrapped ufunc is not recognised as pointwise)
        input=_not_implemented(f"inplace version of {name}"),
        jvp=no_forward_derivative(name + "_"),  # torch has none either
    )(ufunc)

    def method(self):
        check_inplace(self, name + "_")
        return write_inplace(self, op(self), name + "_")

    method.__name__ = method.__qualname__ = name + "_"
    return method


_INPLACE = (
    ("asinh", xp.arcsinh),
    ("acosh", xp.arccosh),
    ("atanh", _through_float64(xp.arctanh)),  # as atanh (Note [float32 math through float64])
)
for _name, _ufunc in _INPLACE:
    _method = _inplace(_name, _ufunc)
    for _public in (_name + "_", "arc" + _name[1:] + "_"):
        setattr(Tensor, _public, _method)
        FUNCTIONS[_public] = _method
