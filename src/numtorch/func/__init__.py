"""``torch.func``: composable function transforms (``grad``, ``vjp``, ``jvp``, ``jacrev``,
``jacfwd``, ``hessian``, ``linearize``, ``vmap``) and ``functional_call``."""

from .eager import debug_unwrap, functionalize
from .functional_call import functional_call, replace_all_batch_norm_modules_, stack_module_state
from .grad import grad, grad_and_value, vjp
from .jacobian import hessian, jacfwd, jacrev
from .jvp import jvp, linearize
from .rearrange import rearrange
from .vmap import vmap

__all__ = [
    "debug_unwrap",
    "functional_call",
    "functionalize",
    "grad",
    "grad_and_value",
    "hessian",
    "jacfwd",
    "jacrev",
    "jvp",
    "linearize",
    "rearrange",
    "replace_all_batch_norm_modules_",
    "stack_module_state",
    "vjp",
    "vmap",
]
