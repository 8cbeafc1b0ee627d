# Token Merging (ToMe): bipartite soft matching, scatter_reduce merges, size-weighted averages
import math


def bipartite_soft_matching(metric, r, class_token=False, distill_token=False):
    protected = 0
    if class_token:
        protected += 1
    if distill_token:
        protected += 1
    t = metric.shape[1]
    r = min(r, (t - protected) // 2)
    if r <= 0:
        return (lambda x, mode=None: x), (lambda x: x)
    with torch.no_grad():
        metric = metric / metric.norm(dim=-1, keepdim=True)
        a, b = metric[..., ::2, :], metric[..., 1::2, :]
        scores = a @ b.transpose(-1, -2)
        if class_token:
            scores[..., 0, :] = -math.inf
        if distill_token:
            scores[..., :, 0] = -math.inf
        node_max, node_idx = scores.max(dim=-1)
        edge_idx = node_max.argsort(dim=-1, descending=True)[..., None]
        unm_idx = edge_idx[..., r:, :]
        src_idx = edge_idx[..., :r, :]
        dst_idx = node_idx[..., None].gather(dim=-2, index=src_idx)
        if class_token:
            unm_idx = unm_idx.sort(dim=1)[0]

    def merge(x, mode="mean"):
        src, dst = x[..., ::2, :], x[..., 1::2, :]
        n, t1, c = src.shape
        unm = src.gather(dim=-2, index=unm_idx.expand(n, t1 - r, c))
        src = src.gather(dim=-2, index=src_idx.expand(n, r, c))
        dst = dst.scatter_reduce(-2, dst_idx.expand(n, r, c), src, reduce=mode)
        if distill_token:
            return torch.cat([unm[:, :1], dst[:, :1], unm[:, 1:], dst[:, 1:]], dim=1)
        return torch.cat([unm, dst], dim=1)

    def unmerge(x):
        unm_len = unm_idx.shape[1]
        unm, dst = x[..., :unm_len, :], x[..., unm_len:, :]
        n, _, c = unm.shape
        src = dst.gather(dim=-2, index=dst_idx.expand(n, r, c))
        out_ = torch.zeros(n, metric.shape[1], c, device=x.device, dtype=x.dtype)
        out_[..., 1::2, :] = dst
        out_.scatter_(dim=-2, index=(2 * unm_idx).expand(n, unm_len, c), src=unm)
        out_.scatter_(dim=-2, index=(2 * src_idx).expand(n, r, c), src=src)
        return out_

    return merge, unmerge


def merge_wavg(merge, x, size=None):
    if size is None:
        size = torch.ones_like(x[..., 0, None])
    x = merge(x * size, mode="sum")
    size = merge(size, mode="sum")
    x = x / size
    return x, size


torch.manual_seed(0)
x = torch.randn(2, 9, 6, requires_grad=True)
keys = x.detach() + 0.1 * torch.randn(2, 9, 6)
merge, unmerge = bipartite_soft_matching(keys, r=3, class_token=True)
merged, size = merge_wavg(merge, x)
print(merged.shape, size.squeeze(-1))
restored = unmerge(merged)
print(restored.shape)
(merged.sum() + restored.pow(2).sum()).backward()
out(merged, size, restored, x.grad)
for mode in ("mean", "amax", "amin", "prod", "sum"):
    m, _ = bipartite_soft_matching(keys, r=2)
    out(m(x.detach(), mode=mode))
src = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
index = torch.tensor([0, 1, 0, 1, 2, 1])
for include_self in (True, False):
    for reduce in ("sum", "prod", "mean", "amax", "amin"):
        r = torch.full((3,), 10.0).scatter_reduce(
            0, index, src, reduce=reduce, include_self=include_self
        )
        print(reduce, include_self, r)
print(torch.zeros(3, dtype=torch.long).scatter_reduce(0, index, index * 3, "mean"))
