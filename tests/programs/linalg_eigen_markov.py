# the stationary distribution of a Markov chain from linalg.eig (the eigenvector of eigenvalue 1)
P = torch.tensor([[0.9, 0.075, 0.025], [0.15, 0.8, 0.05], [0.25, 0.25, 0.5]], dtype=torch.float64)
values, vectors = torch.linalg.eig(P.T)
out(values.dtype, vectors.dtype, values.shape)
k = torch.argmin((values - 1).abs())
pi = vectors[:, k].real
pi = pi / pi.sum()
print(pi)
out(pi, torch.allclose(pi @ P, pi))
print(torch.linalg.eigvals(P).abs().max().item() == torch.linalg.eigvals(P).abs().max().item())
# ---
# the spectral radius of a rotation-like matrix (complex eigenvalues) and its gradient
A = torch.tensor([[0.5, -1.2, 0.1], [1.1, 0.4, -0.3], [0.0, 0.2, 0.9]], requires_grad=True)
w = torch.linalg.eigvals(A)
out(w, w.grad_fn.name())
radius = w.abs().max()
radius.backward()
out(radius, A.grad)
print(w.imag.abs().gt(0.1).sum().item(), "complex eigenvalues")
# ---
# eigenvectors enter the loss through phase-invariant quantities only: |v|^2 and products v v^H
A = torch.tensor([[2.0, 1.0, 0.0], [0.5, 3.0, 1.0], [0.0, 0.3, 4.0]], dtype=torch.float64)
A.requires_grad_()
L, V = torch.linalg.eig(A)
loss = (V.abs() ** 2 * torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)).sum() + L.real.sum()
loss.backward()
out(L, V.abs(), A.grad)
A.grad = None
L, V = torch.linalg.eig(A)
try:
    V.real.sum().backward()  # depends on the arbitrary phase: torch refuses
except RuntimeError as e:
    print(e)
# ---
# reconstruction A = V diag(L) V^-1, batched, and a complex input
A = torch.tensor([[[1.0, 2.0], [3.0, 4.0]], [[0.0, -1.0], [1.0, 0.0]]])
L, V = torch.linalg.eig(A)
out(L, torch.allclose((V @ torch.diag_embed(L) @ torch.linalg.inv(V)).real, A, atol=1e-5))
C = torch.tensor([[1 + 1j, 2.0], [0.5j, 3 - 1j]], dtype=torch.complex128, requires_grad=True)
w = torch.linalg.eigvals(C)
w.abs().sum().backward()
out(w, C.grad)
err(lambda: torch.linalg.eig(torch.ones(2, 3)))
err(lambda: torch.linalg.eig(torch.tensor([[float("nan"), 1.0], [1.0, 1.0]])))
err(lambda: torch.linalg.eigvals(torch.ones(3)))
# ---
# Householder reflectors from geqrf: Q by householder_product, Q^T b by ormqr, with gradients
A = torch.tensor(
    [[2.0, -1.0, 0.5], [1.0, 3.0, 1.0], [0.0, 1.0, 2.0], [1.0, 0.0, 1.0]], dtype=torch.float64
)
a, tau = torch.geqrf(A)
a.requires_grad_()
tau.requires_grad_()
Q = torch.linalg.householder_product(a, tau)
b = torch.tensor([[1.0], [2.0], [3.0], [4.0]], dtype=torch.float64, requires_grad=True)
qtb = torch.ormqr(a, tau, b, transpose=True)
out(Q.grad_fn.name(), qtb.grad_fn.name(), torch.allclose(Q.abs(), torch.linalg.qr(A).Q.abs()))
(Q.sum() + qtb.square().sum()).backward()
out(Q, qtb, a.grad, tau.grad, b.grad)
