"""The pieces of ``torch.utils.benchmark``, under torch's module names."""

from .common import *  # noqa: F403
from .compare import *  # noqa: F403
from .timer import *  # noqa: F403
