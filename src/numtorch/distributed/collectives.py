"""Collectives on tensors: MPI's buffer interface on the tensors' own NumPy arrays.

Every collective hands MPI a C-contiguous array (the tensor's own when it is contiguous, so
the operation happens in place; a contiguous copy otherwise, written back afterwards) and
never uses mpi4py's pickle-based lowercase methods. Tensors changed in place get their
version counter bumped, so autograd notices when a saved tensor was overwritten.
Collectives are blocking; ``async_op=True`` returns a completed ``Work``. Before any data
moves, the ranks compare what each called (``_fingerprint.py``): a mismatch raises the same
RuntimeError on every rank, naming each rank's call or tensor.
"""

from __future__ import annotations

import enum

from .._core.tensor import Tensor
from ..backend import xp
from . import _fingerprint, _mpi
from ._watchdog import CODES, COLLECTIVES
from .process_group import resolve


class RedOpType(enum.Enum):
    """Reduction operations (``ReduceOp.SUM`` etc.); AVG is a SUM divided by the group size."""

    SUM = 0
    AVG = 1
    PRODUCT = 2
    MIN = 3
    MAX = 4
    BAND = 5
    BOR = 6
    BXOR = 7


ReduceOp = RedOpType
ReduceOp.RedOpType = RedOpType  # torch spells the enum both ways

_MPI_OP_NAMES = {
    RedOpType.SUM: "SUM",
    RedOpType.AVG: "SUM",
    RedOpType.PRODUCT: "PROD",
    RedOpType.MIN: "MIN",
    RedOpType.MAX: "MAX",
    RedOpType.BAND: "BAND",
    RedOpType.BOR: "BOR",
    RedOpType.BXOR: "BXOR",
}
# MPI has no arithmetic on C bool; torch treats bool SUM/MAX as "any", MIN/PRODUCT as "all".
_BOOL_OP_NAMES = {
    RedOpType.SUM: "LOR",
    RedOpType.MAX: "LOR",
    RedOpType.BOR: "LOR",
    RedOpType.MIN: "LAND",
    RedOpType.PRODUCT: "LAND",
    RedOpType.BAND: "LAND",
    RedOpType.BXOR: "LXOR",
}


class Work:
    """The handle ``async_op=True`` returns; numtorch's collectives have already finished."""

    def __init__(self, result=None) -> None:
        self._result = result

    def wait(self, timeout=None) -> bool:
        return True

    def is_completed(self) -> bool:
        return True

    def is_success(self) -> bool:
        return True

    def result(self) -> list:
        return self._result or []


def _done(async_op: bool, *tensors):
    return Work(list(tensors)) if async_op else None


def _check_tensor(t, name: str) -> None:
    if not isinstance(t, Tensor):
        raise TypeError(
            f"Invalid function argument. Expected parameter `{name}` of type torch.Tensor "
            f"but got {type(t)} instead."
        )


def _check_list(tensors, name: str) -> None:
    if not isinstance(tensors, (list, tuple)) or not all(isinstance(t, Tensor) for t in tensors):
        raise TypeError(
            f"Invalid function argument. Expected parameter `{name}` of type "
            f"List[torch.Tensor] but got {type(tensors)} instead."
        )


def _writable(t: Tensor, name: str):
    data = t._data
    if not data.flags.writeable:
        raise RuntimeError(
            f"{name} writes into its tensor in place, but the tensor's memory is read-only "
            "(made from a read-only NumPy array, or an expanded view); pass a clone()"
        )
    return data


def _buffer(t: Tensor):
    """A C-contiguous array holding ``t``'s values: its own array when possible."""
    data = t._data
    return data if data.flags.c_contiguous else xp.ascontiguousarray(data)


def _store(t: Tensor, buf) -> None:
    """``t`` now holds ``buf`` (written into it unless it is ``t``'s own array)."""
    if buf is not t._data:
        t._data[...] = buf.reshape(t._data.shape)
    t._bump_version()


def _mpi_op(op, dtype):
    if not isinstance(op, RedOpType):
        raise ValueError(f"op should be a ReduceOp, got {op!r}")
    mpi = _mpi.load_mpi()
    if dtype.kind == "b":
        name = _BOOL_OP_NAMES.get(op)
        if name is None:
            raise ValueError(f"Cannot use ReduceOp.{op.name} with a bool tensor")
    else:
        name = _MPI_OP_NAMES[op]
        if op in (RedOpType.BAND, RedOpType.BOR, RedOpType.BXOR) and dtype.kind not in "iu":
            raise ValueError(f"Cannot use ReduceOp.{op.name} with non-integral dtype")
    return getattr(mpi, name) if mpi is not None else None


def _average(buf, size: int) -> None:
    if size > 1:
        # Integer tensors truncate, as torch's NCCL AVG does.
        xp.divide(buf, size, out=buf, casting="unsafe")


class _Watched:
    """Context manager around one collective: numbers it, checks that every rank called the
    same one on matching tensors (``_fingerprint.py``) and tells the watchdog it runs."""

    __slots__ = ("pg", "name", "buffer", "op", "root")

    def __init__(self, pg, name: str, buffer, op=None, root: int = -1) -> None:
        self.pg = pg
        self.name = name
        self.buffer = buffer
        self.op = -1 if op is None else op.value
        self.root = root

    def __enter__(self):
        pg = self.pg
        pg.seq += 1
        watchdog = pg.watchdog
        if watchdog is None:  # a group of one: nothing to wait for or to compare
            return
        watchdog.start(self.name, self.buffer, pg.seq)
        if pg.check:
            try:
                _compare_calls(pg, self.name, pg.seq, self.op, self.root, self.buffer)
            except BaseException:
                watchdog.finish()
                raise

    def __exit__(self, *exc) -> None:
        if self.pg.watchdog is not None:
            self.pg.watchdog.finish()


_OP_NAMES = {op.value: f"ReduceOp.{op.name}" for op in RedOpType}


def _compare_calls(pg, name: str, seq: int, op: int, root: int, buffer) -> None:
    mine = _fingerprint.record(CODES[name], seq, op, root, buffer)
    table = xp.empty((pg.size(), _fingerprint.FIELDS), dtype=xp.int64)
    pg.comm.Allgather(mine, table)
    why = _fingerprint.mismatch(table, COLLECTIVES, pg.ranks, _OP_NAMES)
    if why is not None:
        raise RuntimeError(f"numtorch.distributed (rank {pg.ranks[pg.rank()]}): {why}")


# Note [Chunked all-reduce]
# One MPI all-reduce of a buffer larger than the L3 cache (32 MiB here, with MPI's own
# scratch copy) runs at a third of the bandwidth of the same data in cache-sized pieces
# (measured with MPICH, see research/distributed.md: 100 MB at 2.7 GB/s in one call, 10.6
# GB/s in 4 MB pieces). The reduction is elementwise, so the pieces give the same values.
_CHUNK_BYTES = 4 * 2**20
_CHUNK_ABOVE = 16 * 2**20


def all_reduce(tensor: Tensor, op=ReduceOp.SUM, group=None, async_op: bool = False):
    """Reduce ``tensor`` across all ranks in place: every rank ends with the result.

    Example:
        >>> import numtorch as torch, numtorch.distributed as dist
        >>> dist.init_process_group("mpi")
        >>> t = torch.tensor([1.0, 2.0])
        >>> dist.all_reduce(t, op=dist.ReduceOp.SUM)
        >>> t  # in a world of one the sum is the tensor itself
        tensor([1., 2.])
        >>> dist.destroy_process_group()
    """
    _check_tensor(tensor, "tensor")
    pg = resolve(group)
    if pg is None:
        return _done(async_op)
    data = _writable(tensor, "all_reduce")
    mpi_op = _mpi_op(op, data.dtype)
    buf = _buffer(tensor)
    with _Watched(pg, "all_reduce", buf, op):
        if buf.nbytes <= _CHUNK_ABOVE:
            pg.comm.Allreduce(pg.in_place, buf, op=mpi_op)
        else:
            flat = buf.reshape(-1)
            step = max(_CHUNK_BYTES // flat.itemsize, 1)
            for start in range(0, flat.size, step):
                pg.comm.Allreduce(pg.in_place, flat[start : start + step], op=mpi_op)
    if op is RedOpType.AVG:
        _average(buf, pg.size())
    _store(tensor, buf)
    return _done(async_op, tensor)


def broadcast(
    tensor: Tensor, src: int | None = None, group=None, async_op: bool = False, group_src=None
):
    """Copy rank ``src``'s ``tensor`` into ``tensor`` on every other rank.

    Example:
        >>> import numtorch as torch, numtorch.distributed as dist
        >>> dist.init_process_group("mpi")
        >>> t = torch.zeros(2) if dist.get_rank() else torch.tensor([5.0, 6.0])
        >>> dist.broadcast(t, src=0)
        >>> t
        tensor([5., 6.])
        >>> dist.destroy_process_group()
    """
    _check_tensor(tensor, "tensor")
    pg = resolve(group)
    if pg is None:
        return _done(async_op)
    root = _root(pg, src, group_src, "src")
    if pg.rank() == root:
        buf = _buffer(tensor)
    else:
        _writable(tensor, "broadcast")
        buf = _buffer(tensor)
    with _Watched(pg, "broadcast", buf, root=root):
        pg.comm.Bcast(buf, root=root)
    if pg.rank() != root:
        _store(tensor, buf)
    return _done(async_op, tensor)


def _root(pg, rank, group_rank, what: str) -> int:
    if rank is not None and group_rank is not None:
        raise ValueError(f"Can not specify both {what} and group_{what}")
    if group_rank is not None:
        root = group_rank
    elif rank is not None:
        return pg.group_rank(rank, what)
    else:
        root = 0
    if not 0 <= root < pg.size():
        raise ValueError(f"Invalid {what} rank {root} for a group of size {pg.size()}")
    return root


def _check_like(tensors, tensor: Tensor, name: str, count: int) -> None:
    if len(tensors) != count:
        raise RuntimeError(
            f"{name}: expected a list of {count} tensors (one per rank), got {len(tensors)}"
        )
    for i, t in enumerate(tensors):
        if t._data.shape != tensor._data.shape or t._data.dtype != tensor._data.dtype:
            raise RuntimeError(
                f"{name}: tensor {i} of the list has shape {list(t.shape)} and dtype "
                f"{t.dtype}, expected shape {list(tensor.shape)} and dtype {tensor.dtype}"
            )


def all_gather(tensor_list: list, tensor: Tensor, group=None, async_op: bool = False):
    """Fill ``tensor_list[r]`` with rank r's ``tensor``, on every rank.

    Example:
        >>> import numtorch as torch, numtorch.distributed as dist
        >>> dist.init_process_group("mpi")
        >>> out = [torch.zeros(2)]
        >>> dist.all_gather(out, torch.tensor([3.0, 4.0]))
        >>> out
        [tensor([3., 4.])]
        >>> dist.destroy_process_group()
    """
    _check_list(tensor_list, "tensor_list")
    _check_tensor(tensor, "tensor")
    pg = resolve(group)
    if pg is None:
        return _done(async_op)
    _check_like(tensor_list, tensor, "all_gather", pg.size())
    for t in tensor_list:
        _writable(t, "all_gather")
    send = _buffer(tensor)
    recv = xp.empty((pg.size(), *send.shape), dtype=send.dtype)
    with _Watched(pg, "all_gather", send):
        pg.comm.Allgather(send, recv)
    for t, part in zip(tensor_list, recv):
        _store(t, part)
    return _done(async_op, *tensor_list)


def all_gather_into_tensor(output_tensor: Tensor, input_tensor: Tensor, group=None, async_op=False):
    """Concatenate every rank's ``input_tensor`` (in rank order) into ``output_tensor``."""
    _check_tensor(output_tensor, "output_tensor")
    _check_tensor(input_tensor, "input_tensor")
    pg = resolve(group)
    if pg is None:
        return _done(async_op)
    _check_sizes(output_tensor, input_tensor, pg.size(), "all_gather_into_tensor")
    _writable(output_tensor, "all_gather_into_tensor")
    send, recv = _buffer(input_tensor), _buffer(output_tensor)
    with _Watched(pg, "all_gather_into_tensor", send):
        pg.comm.Allgather(send, recv)
    _store(output_tensor, recv)
    return _done(async_op, output_tensor)


def _check_sizes(big: Tensor, small: Tensor, size: int, name: str) -> None:
    if big._data.dtype != small._data.dtype:
        raise RuntimeError(f"{name}: tensors must have the same dtype ({big.dtype}, {small.dtype})")
    if big._data.size != size * small._data.size:
        raise ValueError(
            f"{name}: the larger tensor ({list(big.shape)}) must have world size ({size}) "
            f"times the elements of the smaller one ({list(small.shape)})"
        )


def reduce_scatter(output: Tensor, input_list: list, op=ReduceOp.SUM, group=None, async_op=False):
    """Reduce ``input_list[r]`` across ranks into ``output`` on rank r."""
    _check_tensor(output, "output")
    _check_list(input_list, "input_list")
    pg = resolve(group)
    if pg is None:
        return _done(async_op)
    _check_like(input_list, output, "reduce_scatter", pg.size())
    send = xp.stack([t._data for t in input_list])
    return _reduce_scatter(pg, output, send, op, async_op, "reduce_scatter")


def reduce_scatter_tensor(
    output: Tensor, input: Tensor, op=ReduceOp.SUM, group=None, async_op=False
):
    """Reduce ``input`` across ranks; rank r gets the r-th of ``world_size`` equal parts."""
    _check_tensor(output, "output")
    _check_tensor(input, "input")
    pg = resolve(group)
    if pg is None:
        return _done(async_op)
    _check_sizes(input, output, pg.size(), "reduce_scatter_tensor")
    return _reduce_scatter(pg, output, _buffer(input), op, async_op, "reduce_scatter_tensor")


def _reduce_scatter(pg, output: Tensor, send, op, async_op: bool, name: str):
    _writable(output, name)
    mpi_op = _mpi_op(op, send.dtype)
    recv = _buffer(output)
    if recv is output._data and xp.may_share_memory(recv, send):
        recv = xp.empty_like(recv)
    with _Watched(pg, name, send, op):
        pg.comm.Reduce_scatter_block(send, recv, op=mpi_op)
    if op is RedOpType.AVG:
        _average(recv, pg.size())
    _store(output, recv)
    return _done(async_op, output)


def reduce(tensor: Tensor, dst=None, op=ReduceOp.SUM, group=None, async_op=False, group_dst=None):
    """Reduce ``tensor`` across ranks into ``tensor`` on rank ``dst`` only."""
    _check_tensor(tensor, "tensor")
    pg = resolve(group)
    if pg is None:
        return _done(async_op)
    root = _root(pg, dst, group_dst, "dst")
    mpi_op = _mpi_op(op, tensor._data.dtype)
    if pg.rank() == root:
        _writable(tensor, "reduce")
    buf = _buffer(tensor)
    with _Watched(pg, "reduce", buf, op, root):
        if pg.rank() == root:
            pg.comm.Reduce(pg.in_place, buf, op=mpi_op, root=root)
        else:
            pg.comm.Reduce(buf, None, op=mpi_op, root=root)
    if pg.rank() == root:
        if op is RedOpType.AVG:
            _average(buf, pg.size())
        _store(tensor, buf)
    return _done(async_op, tensor)


def gather(tensor: Tensor, gather_list=None, dst=None, group=None, async_op=False, group_dst=None):
    """Collect every rank's ``tensor`` into ``gather_list`` on rank ``dst``."""
    _check_tensor(tensor, "tensor")
    pg = resolve(group)
    if pg is None:
        return _done(async_op)
    root = _root(pg, dst, group_dst, "dst")
    send = _buffer(tensor)
    recv = None
    if pg.rank() == root:
        _check_list(gather_list, "gather_list")
        _check_like(gather_list, tensor, "gather", pg.size())
        for t in gather_list:
            _writable(t, "gather")
        recv = xp.empty((pg.size(), *send.shape), dtype=send.dtype)
    elif gather_list:
        raise ValueError("Argument ``gather_list`` must NOT be specified on non-destination ranks.")
    with _Watched(pg, "gather", send, root=root):
        pg.comm.Gather(send, recv, root=root)
    if recv is not None:
        for t, part in zip(gather_list, recv):
            _store(t, part)
    return _done(async_op, *(gather_list or ()))


def scatter(
    tensor: Tensor, scatter_list=None, src=None, group=None, async_op=False, group_src=None
):
    """Rank r receives ``scatter_list[r]`` of rank ``src`` into ``tensor``."""
    _check_tensor(tensor, "tensor")
    pg = resolve(group)
    if pg is None:
        return _done(async_op)
    root = _root(pg, src, group_src, "src")
    _writable(tensor, "scatter")
    send = None
    if pg.rank() == root:
        _check_list(scatter_list, "scatter_list")
        _check_like(scatter_list, tensor, "scatter", pg.size())
        send = xp.stack([t._data for t in scatter_list])
    elif scatter_list:
        raise ValueError("Argument ``scatter_list`` must NOT be specified on non-source ranks.")
    recv = _buffer(tensor)
    with _Watched(pg, "scatter", recv, root=root):
        pg.comm.Scatter(send, recv, root=root)
    _store(tensor, recv)
    return _done(async_op, tensor)


def barrier(group=None, async_op: bool = False, device_ids=None, timeout=None):
    """Wait until every rank of ``group`` reaches this call."""
    pg = resolve(group)
    if pg is None:
        return _done(async_op)
    with _Watched(pg, "barrier", None):
        pg.comm.Barrier()
    return _done(async_op)
