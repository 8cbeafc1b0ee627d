# PageRank by power iteration: a sparse COO transition matrix, dangling nodes, personalisation
torch.manual_seed(0)
edges = torch.tensor([[0, 0, 1, 2, 2, 3, 4, 4, 5, 6], [1, 2, 2, 0, 3, 4, 5, 6, 4, 4]])
n = 8  # node 7 has no links in or out
out_deg = torch.bincount(edges[0], minlength=n).float()
vals = 1.0 / out_deg[edges[0]]
M = torch.sparse_coo_tensor(torch.stack([edges[1], edges[0]]), vals, (n, n)).coalesce()
print(M.is_coalesced(), M._nnz(), M.to_dense().sum(0))
dangling = (out_deg == 0).float()


def pagerank(M, alpha=0.85, personalization=None, tol=1e-6, max_iter=100):
    v = (
        torch.full((n,), 1.0 / n)
        if personalization is None
        else personalization / personalization.sum()
    )
    r = torch.full((n,), 1.0 / n)
    for it in range(max_iter):  # noqa: B007 (the count is returned)
        r_new = (
            alpha * (torch.sparse.mm(M, r.unsqueeze(1)).squeeze(1) + (dangling @ r) * v)
            + (1 - alpha) * v
        )
        err = (r_new - r).abs().sum()
        r = r_new
        if err < n * tol:
            break
    return r, it


r, iters = pagerank(M)
print(r, f"sum {r.sum().item():.6f} iterations {iters}")
print(torch.argsort(r, descending=True).tolist())
pers = torch.zeros(n)
pers[0] = 1
rp, _ = pagerank(M, personalization=pers)
print(rp.round(decimals=4))
dense = M.to_dense() + torch.outer(torch.full((n,), 1.0 / n), dangling)
G = 0.85 * dense + 0.15 / n
evals, evecs = torch.linalg.eig(G)
k = evals.real.argmax()
principal = evecs[:, k].real
principal = principal / principal.sum()
print(evals[k].real.round(decimals=4), torch.allclose(principal, r, atol=1e-5))
out(r, rp, M.to_dense())
# ---
# All-pairs shortest paths: Floyd-Warshall with torch.minimum, paths, and BFS levels
torch.manual_seed(0)
inf = float("inf")
W = torch.full((6, 6), inf)
W.fill_diagonal_(0)
for (u, v), w in zip(
    [(0, 1), (0, 2), (1, 2), (1, 3), (2, 4), (3, 5), (4, 3), (4, 5)],
    [7.0, 9.0, 10.0, 15.0, 11.0, 6.0, 2.0, 9.0],
):
    W[u, v] = W[v, u] = w
dist = W.clone()
nxt = torch.where(torch.isfinite(W), torch.arange(6).expand(6, 6), torch.full((6, 6), -1))
for k in range(6):
    via = dist[:, k : k + 1] + dist[k : k + 1, :]
    better = via < dist
    nxt = torch.where(better, nxt[:, k : k + 1].expand(6, 6), nxt)
    dist = torch.minimum(dist, via)
print(dist)


def path(u, v):
    if nxt[u, v] < 0:
        return []
    p = [u]
    while u != v:
        u = int(nxt[u, v])
        p.append(u)
    return p


print(path(0, 5), path(5, 0), dist[0, 5].item())
A = torch.isfinite(W).float() - torch.eye(6)
reach = torch.eye(6)
level = torch.full((6,), -1)
level[0] = 0
frontier = torch.zeros(6)
frontier[0] = 1
for d in range(1, 6):
    frontier = ((A @ frontier) > 0).float() * (level < 0).float()
    level[frontier.bool()] = d
print(level, torch.linalg.matrix_power(A, 3)[0])
out(dist, nxt, level)
