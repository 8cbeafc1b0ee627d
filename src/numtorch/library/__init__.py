"""torch.library: Python custom operators (``custom_op``), their fake, kernel and autograd
registrations, the ``Library`` / ``define`` / ``impl`` route and ``opcheck``."""

from .custom_ops import (
    CustomOpDef,
    Library,
    custom_op,
    define,
    get_ctx,
    impl,
    impl_abstract,
    register_autograd,
    register_fake,
    register_kernel,
)
from .opcheck import OpCheckError, opcheck
from .schema import infer_schema

__all__ = [
    "CustomOpDef",
    "Library",
    "OpCheckError",
    "custom_op",
    "define",
    "get_ctx",
    "impl",
    "impl_abstract",
    "infer_schema",
    "opcheck",
    "register_autograd",
    "register_fake",
    "register_kernel",
]
