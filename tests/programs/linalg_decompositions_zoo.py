# QR modes, householder_product, eigh/eigvals, matrix_power, matrix_norm ords, cond, matrix_rank
torch.manual_seed(0)
torch.set_default_dtype(torch.float64)
A = torch.randn(5, 3)
for mode in ["reduced", "complete", "r"]:
    Q, R = torch.linalg.qr(A, mode=mode)
    print(mode, tuple(Q.shape), tuple(R.shape))
Q, R = torch.linalg.qr(A)
print(torch.allclose(Q @ R, A), torch.allclose(Q.T @ Q, torch.eye(3)))
a, tau = torch.geqrf(A)
Qh = torch.linalg.householder_product(a, tau)
print("householder == qr Q:", torch.allclose(Qh, Q), torch.allclose(torch.triu(a[:3]), R))
C = torch.randn(5, 2)
print(
    torch.allclose(
        torch.ormqr(a, tau, C, transpose=True),
        Qh.T @ C if False else torch.linalg.qr(A, mode="complete")[0].T @ C,
    )
)
S = A.T @ A
evals, evecs = torch.linalg.eigh(S)
print(evals, torch.linalg.eigvalsh(S, UPLO="U"))
M = torch.tensor([[2.0, 1.0, 0.0], [-1.0, 2.0, 0.5], [0.0, 0.3, 1.0]])
w = torch.linalg.eigvals(M)
print(w, w.dtype)
w2, V = torch.linalg.eig(M)
print(torch.allclose(M.to(V.dtype) @ V, V * w2))
print(
    torch.linalg.matrix_power(M, 3),
    torch.linalg.matrix_power(M, -2),
    torch.linalg.matrix_power(M, 0),
)
for ord in ["fro", "nuc", 1, -1, 2, -2, float("inf"), -float("inf")]:
    print(
        ord,
        round(torch.linalg.matrix_norm(M, ord=ord).item(), 6),
        round(torch.linalg.cond(M, p=ord).item(), 6),
    )
print(torch.linalg.norm(M), torch.linalg.norm(M, 2), torch.linalg.vector_norm(M, 3, dim=1))
D = torch.diag(torch.tensor([1.0, 1e-3, 1e-9]))
print(
    torch.linalg.matrix_rank(D),
    torch.linalg.matrix_rank(D, tol=1e-2),
    torch.linalg.matrix_rank(D, rtol=1e-4),
    torch.linalg.matrix_rank(D, atol=1e-12, rtol=0),
)
print(torch.linalg.matrix_rank(D, hermitian=True), torch.linalg.slogdet(M), torch.logdet(S))
out(
    Q,
    R,
    Qh,
    evals,
    w,
    torch.linalg.matrix_power(M, -2),
    torch.linalg.cond(M),
    torch.linalg.svdvals(A),
)
torch.set_default_dtype(torch.float32)
# ---
# lu_factor / lu_solve / lu_unpack, ldl_factor / ldl_solve, solve_triangular left=False, inv_ex
torch.manual_seed(1)
torch.set_default_dtype(torch.float64)
A = torch.randn(4, 4) + 4 * torch.eye(4)
B = torch.randn(4, 2)
LU, piv = torch.linalg.lu_factor(A)
X = torch.linalg.lu_solve(LU, piv, B)
print(torch.allclose(A @ X, B), piv)
Xt = torch.linalg.lu_solve(LU, piv, B, adjoint=True)
print(torch.allclose(A.T @ Xt, B))
Xl = torch.linalg.lu_solve(LU, piv, B.T, left=False)
print(torch.allclose(Xl @ A, B.T))
P, L, U = torch.lu_unpack(LU, piv)
print(torch.allclose(P @ L @ U, A))
P2, L2, U2 = torch.linalg.lu(A)
print(torch.allclose(L, L2), torch.allclose(U, U2))
LU3, piv3, info = torch.linalg.lu_factor_ex(A)
print(info)
S = A + A.T
LD, pivots = torch.linalg.ldl_factor(S)
print(pivots)
Y = torch.linalg.ldl_solve(LD, pivots, B)
print(torch.allclose(S @ Y, B))
T = torch.triu(torch.randn(4, 4)) + 3 * torch.eye(4)
Z = torch.linalg.solve_triangular(T, B.T, upper=True, left=False)
print(torch.allclose(Z @ T, B.T))
Z2 = torch.linalg.solve_triangular(T.T, B, upper=False, unitriangular=False)
print(torch.allclose(T.T @ Z2, B))
Ainv, info = torch.linalg.inv_ex(A)
print(info, torch.allclose(Ainv @ A, torch.eye(4)))
print(torch.linalg.solve_ex(A, B).info, torch.linalg.solve(A, B, left=True).shape)
print(torch.triangular_solve(B, T, upper=True).solution.shape)
out(LU, piv, X, P, L, U, LD, pivots, Y, Z)
torch.set_default_dtype(torch.float32)
# ---
# seeded randomized low-rank factorisations: svd_lowrank, pca_lowrank; truncated SVD
torch.manual_seed(3)
torch.set_default_dtype(torch.float64)
U0 = torch.linalg.qr(torch.randn(30, 4)).Q
V0 = torch.linalg.qr(torch.randn(12, 4)).Q
A = U0 @ torch.diag(torch.tensor([10.0, 5.0, 2.0, 1.0])) @ V0.T + 1e-3 * torch.randn(30, 12)
U, S, V = torch.svd_lowrank(A, q=6, niter=3)
print(S)
full = torch.linalg.svdvals(A)
print(full[:6])
Ur, Sr, Vr = torch.pca_lowrank(A, q=4, center=True)
print(Sr)
Uf, Sf, Vhf = torch.linalg.svd(A, full_matrices=False)
A4 = Uf[:, :4] @ torch.diag(Sf[:4]) @ Vhf[:4]
print(
    f"rank-4 error {torch.linalg.matrix_norm(A - A4).item():.6f} "
    f"vs sqrt(sum tail^2) {Sf[4:].pow(2).sum().sqrt().item():.6f}"
)
u_old, s_old, v_old = torch.svd(A)
print(torch.allclose(s_old, Sf), v_old.shape)
out(S, Sr, (U * S) @ V.T, full)
torch.set_default_dtype(torch.float32)
