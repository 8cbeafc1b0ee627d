# Log-domain Sinkhorn between point clouds: cdist cost, logsumexp updates, transport plan, gradients
torch.manual_seed(0)


def sinkhorn(x, y, eps=0.5, n_iters=20):
    C = torch.cdist(x, y, p=2) ** 2
    n, m = C.shape
    log_a = torch.full((n,), -torch.log(torch.tensor(float(n))))
    log_b = torch.full((m,), -torch.log(torch.tensor(float(m))))
    f, g = torch.zeros(n), torch.zeros(m)
    for _ in range(n_iters):
        f = -eps * torch.logsumexp((g[None, :] - C) / eps + log_b[None, :], dim=1)
        g = -eps * torch.logsumexp((f[:, None] - C) / eps + log_a[:, None], dim=0)
    log_P = (f[:, None] + g[None, :] - C) / eps + log_a[:, None] + log_b[None, :]
    P = log_P.exp()
    return (P * C).sum(), P


x = torch.randn(6, 2, requires_grad=True)
y = torch.randn(5, 2) + 1.0
cost, P = sinkhorn(x, y)
print(f"OT cost {cost.item():.5f}")
print(P.sum(1), P.sum(0))
cost.backward()
print(x.grad)
print(P.argmax(1), cost.grad_fn.name())
out(cost, P, x.grad)
# ---
# Hungarian-free matching by argmin on the cost, Chamfer distance and an earth mover 1-D check
torch.manual_seed(0)
a = torch.rand(8, 3, requires_grad=True)
b = torch.rand(10, 3)
d = torch.cdist(a, b)
chamfer = d.min(dim=1).values.mean() + d.min(dim=0).values.mean()
nearest = d.argmin(dim=1)
print(f"chamfer {chamfer.item():.5f}", nearest)
chamfer.backward()
u, v = torch.randn(50), torch.randn(50) + 0.5
emd_1d = (torch.sort(u).values - torch.sort(v).values).abs().mean()
print(f"1-D EMD {emd_1d:.4f}, mean gap {abs(u.mean() - v.mean()):.4f}")
pd = F.pairwise_distance(a.detach()[:3], b[:3])
print(pd, torch.cdist(a.detach()[:3], b[:3]).diagonal())
out(chamfer, a.grad, emd_1d, pd)
