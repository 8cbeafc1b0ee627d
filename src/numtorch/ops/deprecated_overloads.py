"""torch's deprecated overloads that put a scalar factor before the tensors.

Code written for early torch passes the factor first: ``p.data.add_(-lr, p.grad)``,
``exp_avg_sq.mul_(beta2).addcmul_(1 - beta2, grad, grad)``, ``torch.addmm(beta, M, alpha, a,
b)``. torch still runs these, warning once per program (one warning for all of them), and so
does numtorch. Each form is told apart by its count of positional arguments, which the current
signatures never reach with a number in the factor's place: on the current forms the check
costs one ``len``.
"""

from __future__ import annotations

import functools
import numbers

from .._core.op import FUNCTIONS
from .._core.tensor import Tensor
from .._core.warn_once import warn_once

# factor first: name -> (the factor's keyword, the tensors after it)
_FACTOR_FIRST = {
    "add": ("alpha", ("other",)),
    "sub": ("alpha", ("other",)),
    "addcmul": ("value", ("tensor1", "tensor2")),
    "addcdiv": ("value", ("tensor1", "tensor2")),
}
# beta (and alpha) first: name -> the two tensors multiplied
_BETA_FIRST = {
    "addmm": ("mat1", "mat2"),
    "addmv": ("mat", "vec"),
    "addr": ("vec1", "vec2"),
    "addbmm": ("batch1", "batch2"),
    "baddbmm": ("batch1", "batch2"),
}


def _is_scalar(value) -> bool:
    return isinstance(value, numbers.Number) or (isinstance(value, Tensor) and value.ndim == 0)


def _number(value):
    return value.item() if isinstance(value, Tensor) else value


def _warn(name: str, old: str, new: str, method: bool) -> None:
    warn_once(
        f"This overload of {name} is deprecated:\n\t{name}({old})\nConsider using one of the "
        f"following signatures instead:\n\t{name}({new})",
        stacklevel=3 if method else 4,  # a function runs inside its boundary wrapper
        key="deprecated overload",  # one warning between all of them, as torch's
    )


def _factor_first(name: str, fn, method: bool):
    keyword, tensors = _FACTOR_FIRST[name]
    count = len(tensors) + 2  # self or input, the factor, the tensors
    listed = ", ".join(f"Tensor {t}" for t in tensors)
    head = "" if method else "Tensor input, "
    tail = "" if method else ", Tensor out = None"
    old = f"{head}Number {keyword}, {listed}" + ("" if method else ", *" + tail)
    new = f"{head}{listed}, *, Number {keyword} = 1{tail}"

    @functools.wraps(fn)
    def accepting(*args, **kwargs):
        if len(args) == count and _is_scalar(args[-len(tensors) - 1]):
            *first, factor = args[: -len(tensors)]
            if all(isinstance(t, Tensor) for t in args[-len(tensors) :]):
                _warn(fn.__name__, old, new, method)
                kwargs[keyword] = _number(factor)
                return fn(*first, *args[-len(tensors) :], **kwargs)
        return fn(*args, **kwargs)

    return accepting


def _beta_first(name: str, fn, method: bool):
    left, right = _BETA_FIRST[name]
    head = "" if method else "Tensor input, "
    new = f"{head}Tensor {left}, Tensor {right}, *, Number beta = 1, Number alpha = 1"

    @functools.wraps(fn)
    def accepting(*args, **kwargs):
        # methods: (self, beta, [alpha,] a, b); functions: (beta, input, [alpha,] a, b)
        if len(args) in (4, 5) and _is_scalar(args[1] if method else args[0]):
            self, beta = (args[0], args[1]) if method else (args[1], args[0])
            alpha, rest = (None, args[2:]) if len(args) == 4 else (args[2], args[3:])
            if (alpha is None or _is_scalar(alpha)) and all(
                isinstance(t, Tensor) for t in (self, *rest)
            ):
                given = "Number beta, " + ("" if method else "Tensor input, ")
                given += "" if alpha is None else "Number alpha, "
                _warn(fn.__name__, f"{given}Tensor {left}, Tensor {right}", new, method)
                kwargs["beta"] = _number(beta)
                if alpha is not None:
                    kwargs["alpha"] = _number(alpha)
                return fn(self, *rest, **kwargs)
        return fn(*args, **kwargs)

    return accepting


def _install() -> None:
    for table, wrap in ((_FACTOR_FIRST, _factor_first), (_BETA_FIRST, _beta_first)):
        for name in table:
            FUNCTIONS[name] = wrap(name, FUNCTIONS[name], method=False)
            for method in (name, name + "_"):
                setattr(Tensor, method, wrap(name, getattr(Tensor, method), method=True))


_install()
