"""DistributedDataParallel: one model replica per rank, gradients averaged in backward.

Note [DDP buckets]
Parameters that require grad are packed, in reverse registration order (roughly the order
their gradients become ready) and per dtype, into buckets of at most ``bucket_cap_mb``.
Each bucket owns one flat contiguous array. A post-accumulate-grad hook copies a parameter's
finished ``.grad`` into its slot; when every slot of a bucket is filled, the bucket is
all-reduced (one buffer-based MPI call, then divided by the world size) and the averages are
copied back into the ``.grad`` tensors. Buckets are reduced strictly in index order, so every
rank issues the same collectives in the same order whatever order its hooks fire in. The
engine runs post-accumulate hooks once the backward walk is done, so other collectives made
during backward (SyncBatchNorm's) always come before the bucket reductions, on every rank.

A parameter that gets no gradient leaves its bucket unfinished. With
``find_unused_parameters=True`` the forward output's graph is searched for the parameters it
reaches; the others are marked ready at once (their slots hold zeros), and a final
all-reduce of a used-parameter mask tells which of them some other rank did use (those get
the average as ``.grad``; parameters no rank used keep theirs). Without it, the next forward
raises torch's error naming the parameters that received no gradient.
"""

from __future__ import annotations

import contextlib
import weakref
import zlib

from ... import _creation
from ... import distributed as dist
from ..._core import dtypes as _dtypes
from ..._core import grad_mode
from ..._core.tensor import Tensor
from ...backend import xp
from ..modules.module import Module

_UNFINISHED = (
    "Expected to have finished reduction in the prior iteration before starting a new one. "
    "This error indicates that your module has parameters that were not used in producing "
    "loss. You can enable unused parameter detection by passing the keyword argument "
    "`find_unused_parameters=True` to `torch.nn.parallel.DistributedDataParallel`, and by \n"
    "making sure all `forward` function outputs participate in calculating loss. \n"
    "If you already have done the above, then the distributed data parallel module wasn't "
    "able to locate the output tensors in the return value of your module's `forward` "
    "function. Please include the loss function and the structure of the return value of "
    "`forward` of your module when reporting this issue (e.g. list, dict, iterable).\n"
)


class _Bucket:
    """A flat array holding the gradients of some parameters (Note [DDP buckets])."""

    __slots__ = ("flat", "tensor", "indices", "slots", "views", "pending")

    def __init__(self, indices: list[int], params: list[Tensor]) -> None:
        self.indices = indices
        self.flat = xp.empty(
            sum(params[i]._data.size for i in indices), params[indices[0]]._data.dtype
        )
        self.tensor = Tensor._make(self.flat)
        self.slots = {}  # parameter index -> view of its gradient's slot in `flat`
        self.views = {}  # the same as tensors, for gradient_as_bucket_view
        start = 0
        for i in indices:
            shape = params[i]._data.shape
            size = params[i]._data.size
            self.slots[i] = self.flat[start : start + size].reshape(shape)
            self.views[i] = Tensor._make(self.slots[i])
            start += size
        self.pending = len(indices)


def _bucket_indices(params: list[Tensor], cap_bytes: int) -> list[list[int]]:
    """Parameter indices per bucket: reverse order, per dtype, each bucket <= cap (or one
    parameter larger than the cap on its own)."""
    finished, open_buckets = [], {}
    for i in reversed(range(len(params))):
        data = params[i]._data
        indices, size = open_buckets.get(data.dtype, ([], 0))
        if indices and size + data.nbytes > cap_bytes:
            finished.append(indices)
            indices, size = [], 0
        open_buckets[data.dtype] = (indices + [i], size + data.nbytes)
    finished.extend(indices for indices, _ in open_buckets.values() if indices)
    return finished


def _find_tensors(obj):
    if isinstance(obj, Tensor):
        yield obj
    elif isinstance(obj, (list, tuple)):
        for item in obj:
            yield from _find_tensors(item)
    elif isinstance(obj, dict):
        for item in obj.values():
            yield from _find_tensors(item)


def _reached_leaves(outputs) -> set[int]:
    """ids of the leaf tensors the autograd graph of ``outputs`` leads to."""
    reached, seen, stack = set(), set(), []
    for t in _find_tensors(outputs):
        if t.grad_fn is not None:
            stack.append(t.grad_fn)
        elif t.requires_grad:
            reached.add(id(t))
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        variable = getattr(node, "variable", None)  # AccumulateGrad
        if variable is not None:
            reached.add(id(variable))
        stack.extend(n for n, _ in node.next_functions if n is not None and n not in seen)
    return reached


class DistributedDataParallel(Module):
    """Data-parallel training: each rank runs ``module`` on its share of the batch, and
    backward leaves every rank with the gradients averaged over all ranks.

    At construction rank 0's parameters and buffers are broadcast to the others (so all
    replicas start equal); with ``broadcast_buffers`` the buffers are broadcast again at each
    forward. Gradients are averaged in buckets of ``bucket_cap_mb`` during backward (Note
    [DDP buckets]). ``no_sync()`` skips the averaging to accumulate gradients locally.
    With ``gradient_as_bucket_view`` the ``.grad`` tensors become views of the buckets after
    the first averaging (one copy less per step; ``.grad`` then changes when a bucket does).
    ``device_ids``, ``output_device``, ``dim`` and ``static_graph`` are accepted for torch
    compatibility and change nothing on CPU.

    Example:
        >>> import numtorch as torch
        >>> import numtorch.distributed as dist
        >>> dist.init_process_group("mpi")
        >>> model = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(2, 1))
        >>> model(torch.ones(3, 2)).sum().backward()
        >>> [name for name, _ in model.named_parameters()]
        ['module.weight', 'module.bias']
        >>> dist.destroy_process_group()
    """

    def __init__(
        self,
        module: Module,
        device_ids=None,
        output_device=None,
        dim: int = 0,
        broadcast_buffers: bool = True,
        init_sync: bool = True,
        process_group=None,
        bucket_cap_mb: float | None = None,
        find_unused_parameters: bool = False,
        check_reduction: bool = False,
        gradient_as_bucket_view: bool = False,
        static_graph: bool = False,
        **unsupported,
    ) -> None:
        super().__init__()
        if unsupported:
            raise TypeError(
                "DistributedDataParallel() got unsupported arguments "
                f"{sorted(unsupported)} (numtorch runs on CPU over MPI)"
            )
        named = [(n, p) for n, p in module.named_parameters() if p.requires_grad]
        if not named:
            raise RuntimeError(
                "DistributedDataParallel is not needed when a module doesn't have any "
                "parameter that requires a gradient."
            )
        self.module = module
        self.process_group = process_group if process_group is not None else dist.group.WORLD
        if self.process_group is None:
            dist.get_world_size()  # raises torch's "not initialized" error
        self.world_size = dist.get_world_size(self.process_group)
        self.rank = dist.get_rank(self.process_group)
        self.broadcast_buffers = broadcast_buffers
        self.find_unused_parameters = find_unused_parameters
        self.gradient_as_bucket_view = gradient_as_bucket_view
        self.static_graph = static_graph
        self.bucket_bytes_cap = int((25 if bucket_cap_mb is None else bucket_cap_mb) * 2**20)
        self.require_backward_grad_sync = True
        self.require_forward_param_sync = True
        self._param_names = [n for n, _ in named]
        self._params = [p for _, p in named]
        self._verify_same_model()
        if init_sync and self.world_size > 1:
            self._broadcast([p for p in module.parameters()] + list(module.buffers()))
        self._buckets = [
            _Bucket(indices, self._params)
            for indices in _bucket_indices(self._params, self.bucket_bytes_cap)
        ]
        self._bucket_of = {i: b for b in self._buckets for i in b.indices}
        self._syncing = False  # this iteration's backward averages gradients
        self._started = False  # a gradient hook fired in this iteration
        self._ready = [False] * len(self._params)
        self._used = xp.zeros(len(self._params), dtype=xp.int32)
        self._next_bucket = 0
        self_ref = weakref.ref(self)
        self._hook_handles = [
            p.register_post_accumulate_grad_hook(_make_hook(self_ref, i))
            for i, p in enumerate(self._params)
        ]

    # -- setup --------------------------------------------------------------------------------
    def _verify_same_model(self) -> None:
        """Every rank must wrap the same parameter shapes, or the buckets would not match."""
        if self.world_size == 1:
            return
        shapes = ";".join(f"{list(p.shape)}{p.dtype}" for p in self._params)
        mine = _creation.tensor(
            [len(self._params), zlib.crc32(shapes.encode())], dtype=_dtypes.int64
        )
        everyone = _creation.zeros(self.world_size, 2, dtype=_dtypes.int64)
        dist.all_gather_into_tensor(everyone, mine, group=self.process_group)
        for rank, (count, digest) in enumerate(everyone.tolist()):
            if count != len(self._params):
                raise RuntimeError(
                    f"DDP expects same model across all ranks, but Rank {self.rank} has "
                    f"{len(self._params)} params, while rank {rank} has inconsistent {count} "
                    "params."
                )
            if digest != mine[1].item():
                raise RuntimeError(
                    f"DDP expects same model across all ranks, but the parameter shapes or "
                    f"dtypes of rank {self.rank} differ from those of rank {rank}."
                )

    def _broadcast(self, tensors) -> None:
        """Copy rank 0's values of ``tensors`` to every rank (one flat broadcast per dtype)."""
        by_dtype = {}
        for t in tensors:
            by_dtype.setdefault(t._data.dtype, []).append(t)
        root = self.process_group.ranks[0]
        for group in by_dtype.values():
            flat = xp.concatenate([t._data.reshape(-1) for t in group])
            dist.broadcast(Tensor._make(flat), src=root, group=self.process_group)
            start = 0
            with grad_mode.no_grad():
                for t in group:
                    size = t._data.size
                    t._data[...] = flat[start : start + size].reshape(t._data.shape)
                    t._bump_version()
                    start += size

    # -- forward ------------------------------------------------------------------------------
    def forward(self, *inputs, **kwargs):
        syncing = grad_mode.is_grad_enabled() and self.require_backward_grad_sync
        if syncing:
            self._start_iteration()
        if self.broadcast_buffers and self.world_size > 1 and self.require_forward_param_sync:
            buffers = list(self.module.buffers())
            if buffers:
                self._broadcast(buffers)
        output = self.module(*inputs, **kwargs)
        if syncing and self.find_unused_parameters:
            self._mark_unused(output)
        return output

    def _start_iteration(self) -> None:
        if self._started and self._next_bucket < len(self._buckets):
            missing = [i for i, ready in enumerate(self._ready) if not ready]
            self._started = False
            raise RuntimeError(
                _UNFINISHED
                + f"Parameter indices which did not receive grad for rank {self.rank}: "
                + " ".join(map(str, missing))
                + f"\nParameters which did not receive grad for rank {self.rank}: "
                + ", ".join(self._param_names[i] for i in missing)
            )
        self._syncing = True
        self._started = False
        self._ready = [False] * len(self._params)
        self._used[:] = 0
        self._next_bucket = 0
        for bucket in self._buckets:
            bucket.pending = len(bucket.indices)

    def _mark_unused(self, output) -> None:
        reached = _reached_leaves(output)
        for i, p in enumerate(self._params):
            if id(p) not in reached:
                self._ready[i] = True
                bucket = self._bucket_of[i]
                if p._grad is bucket.views[i]:  # keep its accumulated value out of the bucket
                    p._grad = Tensor._make(bucket.slots[i].copy())
                bucket.slots[i][...] = 0
                bucket.pending -= 1

    # -- backward (called from the gradient hooks) --------------------------------------------
    def _grad_ready(self, index: int) -> None:
        if not self._syncing:
            return
        if self._ready[index]:
            if self._used[index] == 0 and self.find_unused_parameters:
                raise RuntimeError(_used_after_unused(self._param_names[index]))
            raise RuntimeError(_marked_twice(index, self._param_names[index]))
        self._ready[index] = True
        self._used[index] = 1
        self._started = True
        bucket = self._bucket_of[index]
        grad = self._params[index]._grad
        if self.world_size > 1 and grad is not bucket.views[index]:
            bucket.slots[index][...] = grad._data
        bucket.pending -= 1
        if bucket.pending == 0:
            self._reduce_ready_buckets()

    def _reduce_ready_buckets(self) -> None:
        buckets = self._buckets
        while self._next_bucket < len(buckets) and buckets[self._next_bucket].pending == 0:
            bucket = buckets[self._next_bucket]
            self._next_bucket += 1
            if self.world_size == 1:
                continue
            dist.all_reduce(bucket.tensor, group=self.process_group)
            xp.divide(bucket.flat, self.world_size, out=bucket.flat)
            for i in bucket.indices:
                if self._used[i]:
                    self._write_grad(bucket, i)
        if self._next_bucket == len(buckets):
            self._finish_iteration()

    def _finish_iteration(self) -> None:
        self._syncing = False
        if not self.find_unused_parameters or self.world_size == 1:
            return
        anyone = Tensor._make(self._used.copy())
        dist.all_reduce(anyone, group=self.process_group)
        for i, count in enumerate(anyone._data):
            if count and not self._used[i]:  # used elsewhere: take the average
                self._write_grad(self._bucket_of[i], i)

    def _write_grad(self, bucket: _Bucket, index: int) -> None:
        """Give parameter ``index`` the averaged gradient held in ``bucket``."""
        param, view = self._params[index], bucket.views[index]
        grad = param._grad
        if grad is view:
            return
        if self.gradient_as_bucket_view:
            param._grad = view
        elif grad is None:
            param._grad = Tensor._make(bucket.slots[index].copy())
        else:
            grad._data[...] = bucket.slots[index]
            grad._bump_version()

    @contextlib.contextmanager
    def no_sync(self):
        """Within this context, backward accumulates gradients locally without averaging;
        the first backward after it averages everything accumulated.

        Example:
            >>> import numtorch as torch, numtorch.distributed as dist
            >>> dist.init_process_group("mpi")
            >>> ddp = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(2, 1))
            >>> with ddp.no_sync():
            ...     ddp(torch.ones(1, 2)).sum().backward()  # local only
            >>> ddp(torch.ones(1, 2)).sum().backward()  # averages both
            >>> dist.destroy_process_group()
        """
        old = self.require_backward_grad_sync
        self.require_backward_grad_sync = False
        try:
            yield
        finally:
            self.require_backward_grad_sync = old

    def _remove_hooks(self) -> None:
        for handle in self._hook_handles:
            handle.remove()
        self._hook_handles = []

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self._remove_hooks()


def _make_hook(ddp_ref, index: int):
    def hook(param) -> None:
        ddp = ddp_ref()
        if ddp is not None:
            ddp._grad_ready(index)

    return hook


def _marked_twice(index: int, name: str) -> str:
    return (
        "Expected to mark a variable ready only once. This error is caused by one of the "
        "following reasons: 1) Use of a module parameter outside the `forward` function. "
        "Please make sure model parameters are not shared across multiple concurrent "
        "forward-backward passes. 2) Reused parameters in multiple reentrant backward passes "
        "(several backward calls between two forwards, or the same parameters in several "
        "reentrant checkpoints).\n"
        f"Parameter at index {index} with name {name} has been marked as ready twice. This "
        "means that multiple autograd engine hooks have fired for this particular parameter "
        "during this iteration."
    )


def _used_after_unused(name: str) -> str:
    return (
        f"Parameter {name} received a gradient although the graph of the forward output "
        "did not reach it (find_unused_parameters=True marked it unused). Compute the loss "
        "only from what forward returns, or set find_unused_parameters=False."
    )
