"""``torch.autograd.graph``: the graph's nodes, saved-tensor hooks, ``increment_version``, and
(beyond torch) ``dump``/``to_dot`` to read a graph. The code lives in ``numtorch._core``."""

from .._core.graph import Node  # noqa: F401
from .._core.graph_dump import dump, to_dot  # noqa: F401
from .._core.saved import (  # noqa: F401
    disable_saved_tensors_hooks,
    increment_version,
    save_on_cpu,
    saved_tensors_hooks,
)
