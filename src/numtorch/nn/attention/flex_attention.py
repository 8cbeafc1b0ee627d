"""``torch.nn.attention.flex_attention``: attention whose scores a Python function modifies
(``score_mod``) and whose pattern a Python predicate masks (``mask_mod``).

torch runs it on the CPU without compiling by its eager path, which this follows: the full
score matrix, ``score_mod`` and ``mask_mod`` applied to all of it, a safe softmax (rows with
every key masked give zeros) and the values. torch calls the two functions through four
nested ``vmap``s over the batch, head, query and key indices; here they get index tensors
shaped to broadcast against each other (``b`` as ``(B, 1, 1, 1)``, ``kv_idx`` as
``(1, 1, 1, N)``), which gives the same values for the functions such code is written as
(arithmetic, comparisons, ``torch.where``, indexing a captured tensor by the indices).
Inputs that require grad are refused on the CPU, as in torch; tensors the mods read that
require grad (a learned bias) get their gradients through one node of torch's name.

A ``BlockMask`` records which blocks of ``BLOCK_SIZE`` queries and keys hold any unmasked
pair (the kernels on accelerators skip the others); the eager computation reads only its
``mask_mod``.
"""

from __future__ import annotations

import itertools
import math
import warnings
from typing import NamedTuple

import numpy as np

from ..._core.dtypes import bool_, float32, float64
from ..._core.tensor import Tensor
from ...autograd.one_node import as_one_node, leaves_of
from ...ops.nn.attention import safe_softmax

__all__ = [
    "BlockMask",
    "flex_attention",
    "AuxOutput",
    "AuxRequest",
    "create_block_mask",
    "create_mask",
    "or_masks",
    "and_masks",
    "noop_mask",
]

_DEFAULT_SPARSE_BLOCK_SIZE = 128


class AuxRequest(NamedTuple):
    """Which auxiliary outputs ``flex_attention(..., return_aux=...)`` returns."""

    lse: bool = False
    max_scores: bool = False


class AuxOutput(NamedTuple):
    """The auxiliary outputs asked for by an ``AuxRequest`` (None where not asked)."""

    lse: Tensor | None = None
    max_scores: Tensor | None = None


def _index_tensors(B, H, Q_LEN, KV_LEN):
    """The batch, head, query and key indices, shaped to broadcast over (B, H, Q, KV)."""
    sizes = (B, H, Q_LEN, KV_LEN)
    out = []
    for dim, n in enumerate(sizes):
        shape = [1, 1, 1, 1]
        shape[dim] = n
        out.append(Tensor._make(np.arange(n, dtype=np.int64).reshape(shape)))
    return out


def _mod_type(fn) -> int:
    """How many positional arguments ``fn`` takes without defaults: 5 for a score_mod
    (score, b, h, q_idx, kv_idx), 4 for a mask_mod."""
    code = getattr(fn, "__code__", None)
    if code is not None:
        count = code.co_argcount - len(getattr(fn, "__defaults__", None) or ())
    else:
        import inspect

        count = sum(
            1
            for p in inspect.signature(fn).parameters.values()
            if p.default is inspect.Parameter.empty
        )
    if count not in (4, 5):
        raise AssertionError(f"Expected 4 or 5 positional args, got {count}")
    return count


def noop_mask(batch, head, token_q, token_kv) -> Tensor:
    """A mask_mod that masks nothing."""
    return batch.new_ones(size=(), dtype=bool_)


def or_masks(*mask_mods):
    """A mask_mod that keeps what any of ``mask_mods`` keeps."""
    if not all(callable(arg) for arg in mask_mods):
        raise RuntimeError(f"All inputs should be callable mask_mods: {mask_mods}")

    def or_mask(b, h, q_idx, kv_idx):
        result = b.new_zeros((), dtype=bool_)
        for mask in mask_mods:
            result = result | mask(b, h, q_idx, kv_idx)
        return result

    return or_mask


def and_masks(*mask_mods):
    """A mask_mod that keeps what all of ``mask_mods`` keep."""
    if not all(callable(arg) for arg in mask_mods):
        raise RuntimeError(f"All inputs should be callable mask_mods: {mask_mods}")

    def and_mask(b, h, q_idx, kv_idx):
        result = b.new_ones((), dtype=bool_)
        for mask in mask_mods:
            result = result & mask(b, h, q_idx, kv_idx)
        return result

    return and_mask


def create_mask(mod_fn, B, H, Q_LEN, KV_LEN, device=None) -> Tensor:
    """The boolean ``(B, H, Q_LEN, KV_LEN)`` mask of a mask_mod (True = attend), or of a
    score_mod (True where it leaves a score finite or +inf)."""
    B = 1 if B is None else B
    H = 1 if H is None else H
    b, h, m, n = _index_tensors(B, H, Q_LEN, KV_LEN)
    shape = (B, H, Q_LEN, KV_LEN)
    if _mod_type(mod_fn) == 5:
        from ..._creation import zeros

        out = mod_fn(zeros(shape), b, h, m, n)
        array = ~np.isneginf(np.broadcast_to(out._data, shape))
    else:
        array = np.broadcast_to(np.asarray(mod_fn(b, h, m, n)._data, dtype=bool), shape)
    return Tensor._make(np.ascontiguousarray(array))


def _dense_to_ordered(dense: np.ndarray):
    """(blocks per row, block column indices with the row's blocks first), int32."""
    dense = dense.astype(np.int32)
    order = np.argsort(-dense, axis=-1, kind="stable")
    return dense.sum(-1, dtype=np.int32), order.astype(np.int32)


def _ordered_to_dense(num_blocks: np.ndarray, indices: np.ndarray, num_cols: int):
    dense = np.zeros((*indices.shape[:-1], num_cols + 1), np.int32)
    valid = np.arange(indices.shape[-1]) < num_blocks[..., None]
    np.put_along_axis(dense, np.where(valid, indices, num_cols), 1, axis=-1)
    return dense[..., :num_cols]


def _array(t):
    return None if t is None else t._data


def _tensor(a):
    return None if a is None else Tensor._make(np.ascontiguousarray(a))


class BlockMask:
    """Which ``BLOCK_SIZE`` blocks of queries and keys hold any pair to attend to, with the
    ``mask_mod`` that masks within them; built by ``create_block_mask``."""

    def __init__(
        self,
        seq_lengths,
        kv_num_blocks,
        kv_indices,
        full_kv_num_blocks,
        full_kv_indices,
        q_num_blocks,
        q_indices,
        full_q_num_blocks,
        full_q_indices,
        BLOCK_SIZE,
        mask_mod,
    ):
        self.seq_lengths = tuple(seq_lengths)
        self.kv_num_blocks = kv_num_blocks
        self.kv_indices = kv_indices
        self.full_kv_num_blocks = full_kv_num_blocks
        self.full_kv_indices = full_kv_indices
        self.q_num_blocks = q_num_blocks
        self.q_indices = q_indices
        self.full_q_num_blocks = full_q_num_blocks
        self.full_q_indices = full_q_indices
        self.BLOCK_SIZE = BLOCK_SIZE
        self.mask_mod = mask_mod

    @classmethod
    def from_kv_blocks(
        cls,
        kv_num_blocks,
        kv_indices,
        full_kv_num_blocks=None,
        full_kv_indices=None,
        BLOCK_SIZE=_DEFAULT_SPARSE_BLOCK_SIZE,
        mask_mod=None,
        seq_lengths=None,
        compute_q_blocks=True,
    ):
        """A block mask from its rows of key blocks; the query blocks are their transpose."""
        if kv_indices.dim() < 2:
            raise RuntimeError("BlockMask must have at least 2 dimensions")
        if isinstance(BLOCK_SIZE, int):
            BLOCK_SIZE = (BLOCK_SIZE, BLOCK_SIZE)
        if seq_lengths is None:
            seq_lengths = (
                kv_indices.shape[-2] * BLOCK_SIZE[0],
                kv_indices.shape[-1] * BLOCK_SIZE[1],
            )
        q_blocks = [None, None, None, None]
        if compute_q_blocks:
            for i, (num, idx) in enumerate(
                ((kv_num_blocks, kv_indices), (full_kv_num_blocks, full_kv_indices))
            ):
                if num is None:
                    continue
                dense = _ordered_to_dense(num._data, idx._data, idx.shape[-1])
                q_num, q_idx = _dense_to_ordered(np.swapaxes(dense, -2, -1))
                q_blocks[2 * i], q_blocks[2 * i + 1] = _tensor(q_num), _tensor(q_idx)
        return cls(
            seq_lengths,
            kv_num_blocks,
            kv_indices,
            full_kv_num_blocks,
            full_kv_indices,
            *q_blocks,
            BLOCK_SIZE,
            noop_mask if mask_mod is None else mask_mod,
        )

    @property
    def shape(self) -> tuple:
        return tuple(self.kv_indices.shape[:-2]) + self.seq_lengths

    def numel(self) -> int:
        """The number of (batch, head, query, key) entries the mask covers."""
        return math.prod(self.shape)

    def sparsity(self) -> float:
        """The percentage of the mask's entries in blocks that are skipped (torch counts
        whole blocks, padding included, so a short mask can give a negative figure)."""
        computed = int(self.kv_num_blocks._data.sum())
        if self.full_kv_num_blocks is not None:
            computed += int(self.full_kv_num_blocks._data.sum())
        size = computed * self.BLOCK_SIZE[0] * self.BLOCK_SIZE[1]
        return 100 * (1 - size / self.numel())

    def to_dense(self) -> Tensor:
        """The blocks as an int32 tensor: 1 where a block holds pairs to attend to."""
        dense = _ordered_to_dense(
            self.kv_num_blocks._data, self.kv_indices._data, self.kv_indices.shape[-1]
        )
        if self.full_kv_num_blocks is not None:
            dense = dense | _ordered_to_dense(
                self.full_kv_num_blocks._data,
                self.full_kv_indices._data,
                self.full_kv_indices.shape[-1],
            )
        return Tensor._make(dense)

    def to_string(self, grid_size=(20, 20), limit: int = 4) -> str:
        """A drawing of the blocks of each batch and head: full, partly and not computed
        sections of at most ``grid_size`` rows and columns."""
        dense = self.to_dense()._data
        *batch_dims, num_rows, num_cols = dense.shape
        if isinstance(grid_size, int):
            max_rows = max_cols = grid_size
        elif grid_size == -1:
            max_rows, max_cols = num_rows, num_cols
        else:
            max_rows, max_cols = grid_size
        row_step = max(1, -(-num_rows // max_rows))
        col_step = max(1, -(-num_cols // max_cols))

        def drawing(index):
            text = f"{index}\n"
            block = dense[index]
            for r in range(0, num_rows, row_step):
                for c in range(0, num_cols, col_step):
                    share = block[r : r + row_step, c : c + col_step].astype(np.float32).mean()
                    text += ("█" if share == 1 else " " if share == 0 else "░") * 2
                text += "\n"
            return text

        parts = []
        for i, index in enumerate(itertools.product(*[range(n) for n in batch_dims])):
            if i == limit:
                parts.append("...")
                parts.append("To print out more, set BlockMask.to_string(limit=N)")
                parts.append(
                    "You can also index (BlockMask[batch, head]) to choose a specific batch or head"
                )
                break
            parts.append(drawing(index))
        return "\n".join(parts)

    def __str__(self) -> str:
        return (
            f"BlockMask(shape={self.shape}, sparsity={self.sparsity():.2f}%, \n"
            f"{self.to_string().strip()}\n)"
        )

    def __repr__(self) -> str:
        def shape_or_none(t):
            return None if t is None else t.shape

        name = getattr(self.mask_mod, "__name__", self.mask_mod)
        return (
            "BlockMask(\n"
            f"    kv_num_blocks={self.kv_num_blocks.shape},\n"
            f"    kv_indices={self.kv_indices.shape},\n"
            f"    full_kv_num_blocks={shape_or_none(self.full_kv_num_blocks)},\n"
            f"    full_kv_indices={shape_or_none(self.full_kv_indices)},\n"
            f"    q_num_blocks={shape_or_none(self.q_num_blocks)},\n"
            f"    q_indices={shape_or_none(self.q_indices)},\n"
            f"    full_q_num_blocks={shape_or_none(self.full_q_num_blocks)},\n"
            f"    full_q_indices={shape_or_none(self.full_q_indices)},\n"
            f"    BLOCK_SIZE={self.BLOCK_SIZE},\n"
            f"    shape={self.shape},\n"
            f"    sparsity={self.sparsity():.2f}%,\n"
            f"    mask_mod={name}\n"
            ")"
        )


def create_block_mask(
    mask_mod,
    B,
    H,
    Q_LEN,
    KV_LEN,
    device=None,
    BLOCK_SIZE=_DEFAULT_SPARSE_BLOCK_SIZE,
    _compile=False,
    separate_full_blocks: bool = True,
    compute_dq_write_order: bool = False,
    dq_kv_order: bool = True,
) -> BlockMask:
    """The ``BlockMask`` of ``mask_mod`` over ``B`` batches (None: 1, broadcast), ``H`` heads,
    ``Q_LEN`` queries and ``KV_LEN`` keys, in blocks of ``BLOCK_SIZE``: a block every pair
    of which is kept is full, one with some kept pairs partial (padding past the lengths
    counts as masked)."""
    if _mod_type(mask_mod) != 4:
        raise AssertionError(f"create-block_mask requires a mask_mod function! Got {mask_mod}")
    if _compile:
        warnings.warn(
            "_compile flag on create_block_mask was originally added to work around a "
            "torch.compile limitation. That limitation has since been addressed. So, to "
            "compile create_block_mask, we suggest doing torch.compile(create_block_mask). "
            "This still works for now, but will be removed in the future.",
            DeprecationWarning,
            stacklevel=2,
        )
    if not isinstance(dq_kv_order, bool):
        raise ValueError("dq_kv_order must be a bool when using create_block_mask")
    q_block, kv_block = (BLOCK_SIZE, BLOCK_SIZE) if isinstance(BLOCK_SIZE, int) else BLOCK_SIZE
    mask = create_mask(mask_mod, B, H, Q_LEN, KV_LEN, device)._data
    # padded with masked pairs up to whole blocks
    rows, cols = -(-Q_LEN // q_block) * q_block, -(-KV_LEN // kv_block) * kv_block
    padded = np.zeros((*mask.shape[:2], rows, cols), bool)
    padded[..., :Q_LEN, :KV_LEN] = mask
    blocks = padded.reshape(*mask.shape[:2], rows // q_block, q_block, cols // kv_block, kv_block)
    sums = blocks.sum(axis=(3, 5))
    if separate_full_blocks:
        full = sums == q_block * kv_block
        partial = (sums > 0) & ~full
    else:
        partial, full = sums > 0, None
    kv_num, kv_idx = _dense_to_ordered(partial)
    full_num, full_idx = (None, None) if full is None else _dense_to_ordered(full)
    return BlockMask.from_kv_blocks(
        _tensor(kv_num),
        _tensor(kv_idx),
        _tensor(full_num),
        _tensor(full_idx),
        BLOCK_SIZE=(q_block, kv_block),
        mask_mod=mask_mod,
        seq_lengths=(Q_LEN, KV_LEN),
    )


_warned = []


def flex_attention(
    query,
    key,
    value,
    score_mod=None,
    block_mask=None,
    scale=None,
    enable_gqa: bool = False,
    return_lse: bool = False,
    kernel_options=None,
    *,
    return_aux=None,
):
    """``softmax(score_mod(query @ key^T * scale)`` masked by ``block_mask``'s mask_mod
    ``) @ value``; rows with every key masked give zeros (and a logsumexp of -inf).
    ``scale`` defaults to ``1 / sqrt(E)``. With ``return_lse`` (or
    ``return_aux=AuxRequest(lse=True)``) it returns the rows' logsumexp too."""
    if query.dim() != 4 or key.dim() != 4 or value.dim() != 4:
        raise NotImplementedError("NYI: query, key, and value must be 4D tensors")
    if return_lse and return_aux is not None:
        raise ValueError(
            "Cannot specify both return_lse and return_aux. return_lse is deprecated, please "
            "use return_aux=AuxRequest(lse=True) instead."
        )
    if return_aux is not None and return_aux.max_scores:
        raise NotImplementedError("Returning max scores is not supported on CPU/MPS.")
    Hq, Hkv = query.size(1), key.size(1)
    if not enable_gqa and Hq != Hkv:
        raise ValueError(
            "Expect query and key/value to have the same number of heads but got "
            f"Hq={Hq} and Hkv={Hkv}. Try setting enable_gqa=True for GQA."
        )
    if enable_gqa and Hq % Hkv:
        raise ValueError(
            f"Expect number of query heads to be a multiple of kv heads for GQA but got "
            f"Hq={Hq} and Hkv={Hkv}."
        )
    q_len, kv_len = query.size(-2), key.size(-2)
    if block_mask is not None and block_mask.seq_lengths != (q_len, kv_len):
        if block_mask.seq_lengths[0] >= q_len and block_mask.seq_lengths[1] >= kv_len:
            raise ValueError(
                f"block_mask was created for block_mask.shape={block_mask.shape} but got "
                f"q_len={q_len} and kv_len={kv_len}. As the block mask was created for a "
                "larger length than you're using it for, you can either 1. create a new "
                "block mask with the correct length, or 2. 'adjust' the existing block mask "
                "to the correct length by calling block_mask._adjust(q_len, kv_len). This "
                "essentially 'crops' the block mask to the upper left corner, which does not "
                "work for all mask_mods!"
            )
        raise ValueError(
            f"block_mask was created for block_mask.shape={block_mask.shape} but got "
            f"q_len={q_len} and kv_len={kv_len}. If you launch with torch.compile(...) it "
            "will also support other lengths."
        )
    if any(t.requires_grad for t in (query, key, value)):
        raise NotImplementedError(
            "FlexAttention does not support backward on CPU. Please set the input "
            "requires_grad to False or use another device."
        )
    if not _warned:
        _warned.append(True)
        warnings.warn(
            "flex_attention called without torch.compile() - this will use an unfused "
            "implementation that materializes the full scores matrix instead of generating "
            "a fused kernel.",
            UserWarning,
            stacklevel=2,
        )
    if scale is None:
        scale = 1.0 / math.sqrt(query.size(-1))
    working = float64 if query.dtype == float64 else float32
    groups = Hq // Hkv
    key = key.repeat_interleave(groups, dim=1)
    value = value.repeat_interleave(groups, dim=1)
    Bq, Bkv = query.size(0), key.size(0)
    if not (Bq == Bkv or (Bq > 1 and Bkv == 1)):
        raise RuntimeError(f"Bq and Bkv must broadcast. Got Bq={Bq} and Bkv={Bkv}")
    key = key.expand((Bq, *key.shape[1:]))
    value = value.expand((Bq, *value.shape[1:]))
    scores = query.to(working) @ key.to(working).transpose(-2, -1)
    b, h, m, n = _index_tensors(*scores.shape)
    scores = (scores * scale).to(working)
    modded = scores if score_mod is None else score_mod(scores, b, h, m, n)
    mask_mod = noop_mask if block_mask is None else block_mask.mask_mod
    neg_inf = Tensor._make(np.array(-np.inf, scores._data.dtype))
    post = modded.where(mask_mod(b, h, m, n), neg_inf)
    post = post.expand(scores.shape)
    lse = post.logsumexp(dim=-1)
    lse = lse.masked_fill((post == -math.inf).all(dim=-1), -math.inf)
    out = safe_softmax(post, -1).to(query.dtype) @ value.to(query.dtype)
    if out.requires_grad:
        # a score_mod or mask_mod reading tensors that require grad (a learned bias): torch's
        # one node, with edges to the inputs and then to those tensors
        inputs = (query, key, value)
        captured = [t for t in leaves_of([out, lse]) if all(t is not x for x in inputs)]
        out, lse = as_one_node("FlexAttentionAutogradOp", [out, lse], [*inputs, *captured])
    if return_aux is not None:
        return out, AuxOutput(lse=lse if return_aux.lse else None)
    if return_lse:
        return out, lse
    return out
