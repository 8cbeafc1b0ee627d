# an exactly singular triangular system: substitution gives inf/NaN, no error
T = torch.tensor([[1.0, 2.0, 3.0], [0.0, 0.0, 6.0], [0.0, 0.0, 9.0]], dtype=torch.float64)
B = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], dtype=torch.float64)
out(
    torch.linalg.solve_triangular(T, B, upper=True),
    torch.linalg.solve_triangular(T.t(), B, upper=False),
    torch.linalg.solve_triangular(T, B.t(), upper=True, left=False),
    torch.cholesky_solve(B, T, upper=True),
    torch.cholesky_solve(B, T.t()),
)
err(lambda: torch.cholesky_inverse(T.t()))
# ---
# NaN in an SVD or eigendecomposition: torch's LinAlgError (a RuntimeError)
A = torch.eye(3, dtype=torch.float64) + 0.1
A[1, 2] = A[2, 1] = float("nan")
err(lambda: torch.linalg.svd(A))
err(lambda: torch.linalg.svdvals(A))
err(lambda: torch.linalg.eigh(A))
err(lambda: torch.linalg.eigvalsh(A))
err(lambda: torch.linalg.pinv(A))
err(lambda: torch.linalg.pinv(A, hermitian=True))
err(lambda: torch.linalg.matrix_norm(A, "nuc"))
err(lambda: torch.linalg.matrix_rank(A))
err(lambda: torch.linalg.cond(A))
try:
    torch.linalg.svd(A)
except torch.linalg.LinAlgError as e:
    out(isinstance(e, RuntimeError))
