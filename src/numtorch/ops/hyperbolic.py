"""Inverse hyperbolic functions: asinh, acosh, atanh (and their ``arc*`` aliases).

Their in-place forms record a node of their own (``AcoshBackward1``) whose backward torch
leaves unimplemented; numtorch raises the same NotImplementedError.
"""

from __future__ import annotations

from .._core.inplace import check_inplace, write_inplace
from .._core.op import FUNCTIONS, defop, export, refusing
from .._core.tensor import Tensor
from ..autograd.forward_grad import no_forward_derivative
from ..backend import xp
from .pointwise import _unary

# d/dx asinh x = 1 / sqrt(x**2 + 1); acosh: 1 / sqrt(x**2 - 1); atanh: 1 / (1 - x**2)
asinh = _unary("asinh", xp.arcsinh, lambda grad, input: grad * (input * input + 1).rsqrt())
acosh = _unary("acosh", xp.arccosh, lambda grad, input: grad * (input * input - 1).rsqrt())
atanh = _unary("atanh", xp.arctanh, lambda grad, input: grad / (1 - input * input))
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
        input=_not_implemented(f"inplace version of {name}"),
        jvp=no_forward_derivative(name + "_"),  # torch has none either
    )(ufunc)

    def method(self):
        check_inplace(self, name + "_")
        return write_inplace(self, op(self), name + "_")

    method.__name__ = method.__qualname__ = name + "_"
    return method


for _name, _ufunc in (("asinh", xp.arcsinh), ("acosh", xp.arccosh), ("atanh", xp.arctanh)):
    _method = _inplace(_name, _ufunc)
    for _public in (_name + "_", "arc" + _name[1:] + "_"):
        setattr(Tensor, _public, _method)
        FUNCTIONS[_public] = _method
