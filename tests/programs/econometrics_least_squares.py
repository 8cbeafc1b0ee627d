# OLS with linalg.lstsq (drivers), standard errors, pinv, ridge via cholesky / cholesky_solve
torch.manual_seed(0)
torch.set_default_dtype(torch.float64)
n, p = 60, 3
X = torch.cat([torch.ones(n, 1), torch.randn(n, p)], 1)
beta_true = torch.tensor([1.0, 2.0, -0.5, 0.0])
y = X @ beta_true + 0.3 * torch.randn(n)
for driver in ["gels", "gelsy", "gelsd", "gelss"]:
    sol = torch.linalg.lstsq(X, y[:, None], driver=driver)
    print(
        driver,
        sol.solution.squeeze().numpy().round(6),
        sol.rank,
        sol.residuals,
        sol.singular_values.shape,
    )
res = torch.linalg.lstsq(X, y.unsqueeze(1))
beta = res.solution.squeeze(1)
resid = y - X @ beta
sigma2 = resid @ resid / (n - X.shape[1])
cov = sigma2 * torch.linalg.inv(X.T @ X)
se = cov.diagonal().sqrt()
tstat = beta / se
r2 = 1 - resid.var() / y.var()
print(f"sigma^2 {sigma2.item():.6f} R^2 {r2.item():.6f}")
for name, b, s, t in zip(["const", "x1", "x2", "x3"], beta.tolist(), se.tolist(), tstat.tolist()):
    print(f"{name:6s} {b:9.5f} {s:8.5f} {t:8.3f}")
print(torch.allclose(torch.linalg.pinv(X) @ y, beta))
lam = 2.0
A = X.T @ X + lam * torch.eye(p + 1)
L = torch.linalg.cholesky(A)
ridge = torch.cholesky_solve((X.T @ y)[:, None], L).squeeze(1)
ridge2 = torch.linalg.solve(A, X.T @ y)
print(ridge, torch.allclose(ridge, ridge2))
Lu = torch.linalg.cholesky(A, upper=True)
print(torch.allclose(torch.cholesky_solve((X.T @ y)[:, None], Lu, upper=True).squeeze(1), ridge))
L2, info = torch.linalg.cholesky_ex(A)
print(info, torch.cholesky_inverse(L2).diagonal())
out(beta, se, tstat, ridge, cov)
torch.set_default_dtype(torch.float32)
# ---
# instrumental variables (2SLS), heteroskedasticity-robust errors, rank-deficient lstsq with rcond
torch.manual_seed(7)
n = 80
z = torch.randn(n, 2)
u = torch.randn(n)
x = z @ torch.tensor([1.0, 0.5]) + 0.5 * u + 0.2 * torch.randn(n)
y = 1.5 * x + u
X = torch.stack([torch.ones(n), x], 1)
Z = torch.cat([torch.ones(n, 1), z], 1)
ols = torch.linalg.lstsq(X, y).solution
Pz = Z @ torch.linalg.solve(Z.T @ Z, Z.T)
iv = torch.linalg.solve(X.T @ Pz @ X, X.T @ Pz @ y)
print(f"OLS slope {ols[1].item():.4f}, 2SLS slope {iv[1].item():.4f}")
e = y - X @ ols
bread = torch.linalg.inv(X.T @ X)
meat = X.T @ (X * (e**2)[:, None])
hc0 = bread @ meat @ bread
print("HC0 se", hc0.diagonal().sqrt())
Xd = torch.cat([X, X[:, 1:] * 2], 1)
sol = torch.linalg.lstsq(Xd, y, driver="gelsd", rcond=1e-6)
print(sol.rank, sol.solution, sol.singular_values[:2])
print(torch.linalg.matrix_rank(Xd), torch.linalg.matrix_rank(Xd, atol=1.0, rtol=0.0))
out(ols, iv, hc0, sol.solution)
