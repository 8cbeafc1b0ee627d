# gradients through linear algebra: eigh, svd, solve, cholesky, matrix_exp, logdet, qr, inv, cdist
torch.manual_seed(0)
torch.set_default_dtype(torch.float64)
A0 = torch.randn(4, 4)
S0 = A0 @ A0.T + 4 * torch.eye(4)
A = A0.clone().requires_grad_(True)
S = S0.clone().requires_grad_(True)
losses = {
    "eigh": lambda: torch.linalg.eigh(S)[0].pow(2).sum(),
    "eigvalsh": lambda: torch.linalg.eigvalsh(S).log().sum(),
    "svdvals": lambda: torch.linalg.svdvals(A).sum(),
    "svd_u": lambda: torch.linalg.svd(A)[0][:, 0].abs().sum(),
    "solve": lambda: torch.linalg.solve(S, torch.ones(4)).sum(),
    "cholesky": lambda: torch.linalg.cholesky(S).diagonal().log().sum(),
    "matrix_exp": lambda: torch.linalg.matrix_exp(0.1 * A).trace(),
    "logdet": lambda: torch.logdet(S),
    "slogdet": lambda: torch.linalg.slogdet(A).logabsdet,
    "det": lambda: torch.linalg.det(A),
    "qr": lambda: torch.linalg.qr(A).R.diagonal().abs().sum(),
    "inv": lambda: torch.linalg.inv(S).sum(),
    "pinv": lambda: torch.linalg.pinv(A[:, :3]).sum(),
    "norm_nuc": lambda: torch.linalg.matrix_norm(A, "nuc"),
    "norm_2": lambda: torch.linalg.matrix_norm(A, 2),
    "cdist": lambda: torch.cdist(A[:2], A[2:]).sum(),
    "lstsq": lambda: torch.linalg.lstsq(A[:, :2], torch.ones(4, 1)).solution.sum(),
    "eig_vals": lambda: torch.linalg.eigvals(A).real.sum(),
    "cholesky_solve": lambda: torch.cholesky_solve(
        torch.ones(4, 1), torch.linalg.cholesky(S)
    ).sum(),
    "lu_solve": lambda: torch.linalg.lu_solve(*torch.linalg.lu_factor(A), torch.ones(4, 1)).sum(),
    "triangular": lambda: torch.linalg.solve_triangular(
        torch.triu(S), torch.ones(4, 1), upper=True
    ).sum(),
    "matrix_power": lambda: torch.linalg.matrix_power(0.5 * A, 3).sum(),
}
for name, fn in losses.items():
    A.grad = S.grad = None
    value = fn()
    value.backward()
    g = A.grad if A.grad is not None else S.grad
    print(f"{name:14s} {value.item():12.6f} |grad| {g.norm().item():.6f} {value.grad_fn.name()}")
    out(value, g)
ok = torch.autograd.gradcheck(
    lambda m: torch.linalg.eigh(m @ m.T)[0], (torch.randn(3, 3, requires_grad=True),)
)
print("gradcheck eigh:", ok)
ok = torch.autograd.gradcheck(
    lambda m: torch.linalg.matrix_exp(m), (torch.randn(3, 3, requires_grad=True),)
)
print("gradcheck matrix_exp:", ok)
torch.set_default_dtype(torch.float32)
# ---
# Gaussian-process marginal likelihood: Adam on log-hyperparameters, then a Laplace Hessian
torch.manual_seed(1)
torch.set_default_dtype(torch.float64)
X = torch.linspace(0, 5, 20)[:, None]
y = torch.sin(X).squeeze() + 0.1 * torch.randn(20)
theta = torch.tensor([0.0, 0.0, -1.0], requires_grad=True)  # log lengthscale, scale, noise
opt = torch.optim.Adam([theta], lr=0.05)


def nll(theta):
    log_ls, log_sf, log_sn = theta.unbind()
    d2 = torch.cdist(X, X).pow(2)
    K = log_sf.exp() ** 2 * torch.exp(-0.5 * d2 / log_ls.exp() ** 2)
    K = K + log_sn.exp() ** 2 * torch.eye(20)
    L = torch.linalg.cholesky(K)
    alpha = torch.cholesky_solve(y[:, None], L)
    return (
        0.5 * (y[:, None] * alpha).sum()
        + torch.log(torch.diagonal(L)).sum()
        + 10 * torch.log(torch.tensor(2 * torch.pi))
    )


for step in range(30):
    opt.zero_grad()
    loss = nll(theta)
    loss.backward()
    opt.step()
    if step % 10 == 0:
        print(f"step {step:2d} nll {loss.item():.6f}")
print("hyperparameters", theta.detach().exp())
H = torch.autograd.functional.hessian(nll, theta.detach())
print("Laplace std", torch.linalg.inv(H).diagonal().sqrt())
out(theta, loss, H)
torch.set_default_dtype(torch.float32)
