# 1-D finite elements: stiffness assembly with index_add_, Dirichlet BCs, linalg.solve
torch.set_default_dtype(torch.float64)
n_el = 16
nodes = torch.linspace(0.0, 1.0, n_el + 1)
conn = torch.stack([torch.arange(n_el), torch.arange(1, n_el + 1)], 1)
h = nodes[conn[:, 1]] - nodes[conn[:, 0]]
ke = torch.tensor([[1.0, -1.0], [-1.0, 1.0]]) / h[:, None, None]
f_src = lambda x: torch.pi**2 * torch.sin(torch.pi * x)
xm = nodes[conn].mean(1)
fe = (f_src(xm) * h / 2)[:, None].expand(-1, 2)
N = n_el + 1
K = torch.zeros(N * N)
rows = conn[:, :, None].expand(-1, 2, 2)
cols = conn[:, None, :].expand(-1, 2, 2)
K.index_add_(0, (rows * N + cols).reshape(-1), ke.reshape(-1))
K = K.reshape(N, N)
F_vec = torch.zeros(N).index_add_(0, conn.reshape(-1), fe.reshape(-1))
free = torch.arange(1, N - 1)
u = torch.zeros(N)
u[free] = torch.linalg.solve(K[free][:, free], F_vec[free])
err_max = (u - torch.sin(torch.pi * nodes)).abs().max()
print(f"max nodal error {err_max.item():.3e}")
print(f"K symmetric {torch.equal(K, K.T)}, banded nnz {int((K != 0).sum())}")
out(K[:4, :4], u, F_vec)
# ---
# sparse COO assembly of a 2-D Laplacian (coalesce sums duplicates), CG solve vs to_dense
torch.set_default_dtype(torch.float64)
m = 6
idx = torch.arange(m * m).reshape(m, m)
rows, cols, vals = [], [], []
for di, dj in [(0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)]:
    r = idx[max(0, -di) : m - max(0, di), max(0, -dj) : m - max(0, dj)].reshape(-1)
    c = idx[max(0, di) : m - max(0, -di) or None, max(0, dj) : m - max(0, -dj) or None].reshape(-1)
    v = torch.full((r.numel(),), 4.0 if (di, dj) == (0, 0) else -1.0)
    rows.append(r), cols.append(c), vals.append(v)
rows, cols, vals = torch.cat(rows), torch.cat(cols), torch.cat(vals)
A = torch.sparse_coo_tensor(torch.stack([rows, cols]), vals, (m * m, m * m)).coalesce()
print(A.shape, A._nnz(), A.is_coalesced())
b = torch.ones(m * m)


def cg(matvec, b, tol=1e-10, maxiter=200):
    x = torch.zeros_like(b)
    r = b - matvec(x)
    p = r.clone()
    rs = r @ r
    for k in range(maxiter):
        Ap = matvec(p)
        alpha = rs / (p @ Ap)
        x += alpha * p
        r -= alpha * Ap
        rs_new = r @ r
        if rs_new.sqrt() < tol:
            return x, k + 1
        p = r + (rs_new / rs) * p
        rs = rs_new
    return x, maxiter


x, iters = cg(lambda v: torch.sparse.mm(A, v[:, None]).squeeze(1), b)
x_dense = torch.linalg.solve(A.to_dense(), b)
print(f"CG converged in {iters} iterations, diff {(x - x_dense).abs().max().item():.2e}")
print(f"center value {x.reshape(m, m)[m // 2, m // 2].item():.6f}")
out(x, A.to_dense()[:7, :7], (A @ x[:, None]).squeeze())
torch.set_default_dtype(torch.float32)
