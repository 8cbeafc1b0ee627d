"""Multi-process training over MPI, as ``torch.distributed``.

Start ranks with ``python -m numtorch.distributed.run -n 2 train.py`` (or ``mpiexec``), call
``init_process_group("mpi")`` in each, then use collectives on tensors. Importing this
package does not import mpi4py; the process group does, when it is created.
"""

from .collectives import (
    ReduceOp,
    Work,
    all_gather,
    all_gather_into_tensor,
    all_reduce,
    barrier,
    broadcast,
    gather,
    reduce,
    reduce_scatter,
    reduce_scatter_tensor,
    scatter,
)
from .process_group import (
    Backend,
    GroupMember,
    ProcessGroup,
    destroy_process_group,
    get_backend,
    get_process_group_ranks,
    get_rank,
    get_world_size,
    group,
    init_process_group,
    is_available,
    is_initialized,
    is_mpi_available,
    new_group,
)

__all__ = [
    "Backend",
    "GroupMember",
    "ProcessGroup",
    "ReduceOp",
    "Work",
    "all_gather",
    "all_gather_into_tensor",
    "all_reduce",
    "barrier",
    "broadcast",
    "destroy_process_group",
    "gather",
    "get_backend",
    "get_process_group_ranks",
    "get_rank",
    "get_world_size",
    "group",
    "init_process_group",
    "is_available",
    "is_initialized",
    "is_mpi_available",
    "new_group",
    "reduce",
    "reduce_scatter",
    "reduce_scatter_tensor",
    "scatter",
]
