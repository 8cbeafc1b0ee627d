# matmul family shapes and grads
a = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
b = torch.tensor([3.0, 1.0, -1.0], requires_grad=True)
M = (torch.arange(6.0).view(2, 3) / 5).requires_grad_()
N = (torch.arange(12.0).view(3, 4).cos()).requires_grad_()
B1 = (torch.arange(30.0).view(5, 2, 3).sin()).requires_grad_()
B2 = (torch.arange(60.0).view(5, 3, 4) / 60).requires_grad_()
for y in [
    a @ b,
    M @ a,
    a @ N,
    M @ N,
    B1 @ N,
    B1 @ B2,
    torch.matmul(B1, a),
    torch.mm(M, N),
    torch.bmm(B1, B2),
    torch.dot(a, b),
    torch.outer(a, b),
    torch.addmm(torch.zeros(4), M, N),
    torch.addmm(torch.zeros(2, 4), M, N, beta=0.5, alpha=2.0),
]:
    out(y.shape, y.grad_fn.name())
    y.sum().backward()
out(a.grad, M.grad, N.grad, B1.grad.shape, B2.grad.sum())
# ---
# matmul errors
err(lambda: torch.randn(2, 3) @ torch.randn(2, 3))
err(lambda: torch.mm(torch.randn(3), torch.randn(3, 2)))
err(lambda: torch.bmm(torch.randn(2, 3), torch.randn(3, 2)))
err(lambda: torch.dot(torch.randn(3), torch.randn(4)))
err(lambda: torch.dot(torch.randn(3), torch.randn(3, 1)))
err(lambda: torch.dot(torch.ones(3), torch.ones(3, dtype=torch.float64)))
err(lambda: torch.tensor(1.0) @ torch.tensor(2.0))
err(lambda: torch.mm(torch.ones(2, 2), torch.ones(2, 2, dtype=torch.float64)))
err(lambda: torch.ones(2, 2) @ torch.ones(2, 2, dtype=torch.int64))
out(
    torch.tensor([[1, 2]]) @ torch.tensor([[3], [4]]),
    torch.zeros(0, 3) @ torch.zeros(3, 2),
    torch.zeros(2, 0) @ torch.zeros(0, 3),
)
out(torch.outer(torch.tensor([1, 2]), torch.tensor([1.0, 2.0])))
err(lambda: torch.addmm(torch.zeros(3), torch.ones(2, 2), torch.ones(2, 2)))
# ---
# matmul on transposed and 1-d broadcasting grads
x = torch.arange(12.0).view(4, 3).t().requires_grad_()
w = torch.arange(8.0).view(4, 2).requires_grad_()
y = x @ w
y.backward(torch.ones_like(y))
out(x.is_leaf, x.grad, w.grad)
v = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
m = torch.arange(120.0).view(2, 4, 3, 5).requires_grad_()
(v @ m).sum().backward()
out((v @ m).shape, v.grad.shape, m.grad.shape)
# ---
# baddbmm, addbmm, addmv, addr: torch's nodes, values and gradients (beta 0 ignores NaN input)
rng = np.random.default_rng(0)
a, b1, b2, m, v, w = [
    torch.tensor(rng.standard_normal(s), dtype=torch.float32).requires_grad_()
    for s in [(2, 3, 5), (2, 3, 4), (2, 4, 5), (3, 4), (4,), (3,)]
]
results = [
    torch.baddbmm(a, b1, b2),
    torch.baddbmm(a, b1, b2, beta=0.5, alpha=2),
    a[0].baddbmm(b1, b2),
    torch.addbmm(a[0], b1, b2, alpha=3),
    torch.addmv(w, m, v),
    w.addmv(m, v, beta=2),
    torch.addr(m, w, v, alpha=-1),
    m.addr(w, v),
]
out(*results)
sum(r.sum() for r in results).backward()
out(a.grad, b1.grad, b2.grad, m.grad, v.grad, w.grad)
nan = torch.full((3, 5), float("nan"))
out(torch.addbmm(nan, b1, b2, beta=0), torch.baddbmm(nan, b1, b2, beta=0))
# ---
# scaled-and-added products: values, grad_fns, gradients
a = torch.arange(12.0).reshape(3, 4).requires_grad_()
b1 = (torch.arange(30.0).reshape(2, 3, 5) / 10).requires_grad_()
b2 = (torch.arange(40.0).reshape(2, 5, 4) / 10).requires_grad_()
v1 = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
v2 = torch.tensor([0.5, 1.0, -1.0, 2.0], requires_grad=True)
y = torch.addbmm(a, b1, b2, beta=0.5, alpha=2)
z = torch.addr(a, v1, v2, alpha=3)
w = torch.addmv(v1, a, v2, beta=2)
u = torch.baddbmm(a, b1, b2, alpha=-1)
out(y, z, w, u, a.addbmm(b1, b2), a.addr(v1, v2))
(y.sum() + z.pow(2).sum() + w.sum() + u.sum()).backward()
out(a.grad, b1.grad, b2.grad, v1.grad, v2.grad)
# ---
# products with beta=0 ignore the input (NaN included); integer and bool addr
nan = torch.full((3, 4), float("nan"))
b1 = torch.ones(2, 3, 5)
b2 = torch.ones(2, 5, 4)
out(torch.addbmm(nan, b1, b2, beta=0), torch.baddbmm(nan, b1, b2, beta=0))
out(torch.addr(nan, torch.ones(3), torch.ones(4), beta=0))
out(torch.addmm(nan, torch.ones(3, 2), torch.ones(2, 4), beta=0, alpha=2))
out(torch.addmv(torch.full((3,), float("nan")), torch.ones(3, 4), torch.ones(4), beta=0))
i = torch.ones(3, 4, dtype=torch.int64)
out(torch.addr(i, torch.arange(3), torch.arange(4), beta=2, alpha=3))
out(torch.addr(i > 0, torch.arange(3) > 0, torch.arange(4) > 1, beta=False))
out(torch.addr(torch.ones(3, 4), torch.arange(3), torch.arange(4)))
out(torch.addr(torch.ones(4), torch.ones(3, dtype=torch.float64), torch.ones(4)))
out(torch.addbmm(torch.ones(4), b1, b2), torch.baddbmm(torch.ones(3, 1), b1, b2))
# ---
# product errors
a = torch.ones(3, 4)
b1 = torch.ones(2, 3, 5)
b2 = torch.ones(2, 5, 4)
i = torch.ones(3, 4, dtype=torch.int64)
err(
    lambda: torch.addr(
        i, torch.ones(3, dtype=torch.int64), torch.ones(4, dtype=torch.int64), beta=1.5
    )
)
err(lambda: torch.addr(a, torch.ones(3), torch.ones(4), beta=True))
err(lambda: torch.addr(a, torch.ones(3, 1), torch.ones(4)))
err(lambda: torch.addr(a, torch.ones(3), torch.ones(3)))
err(lambda: torch.addbmm(a, b1, b2.double()))
err(lambda: torch.addbmm(a.double(), b1, b2))
err(lambda: torch.addbmm(a, b1, torch.ones(3, 5, 4)))
err(lambda: torch.addbmm(a, b1, torch.ones(2, 4, 4)))
err(lambda: torch.addbmm(torch.ones(5, 4), b1, b2))
err(lambda: torch.baddbmm(a.double(), b1, b2))
err(lambda: torch.baddbmm(torch.ones(3, 3, 4), b1, b2))
err(lambda: torch.addmv(torch.ones(3), a, torch.ones(5)))
err(lambda: torch.addmv(torch.ones(3).double(), a, torch.ones(4)))
err(lambda: torch.addmm(a.double(), torch.ones(3, 5), torch.ones(5, 4)))
err(lambda: torch.addr(a, torch.ones(3), torch.ones(4), 2))
# ---
# in-place products keep the functional grad_fn
x = torch.ones(3, 4, requires_grad=True)
b1 = torch.ones(2, 3, 5, requires_grad=True)
b2 = torch.ones(2, 5, 4)
z = x * 2
z.addmm_(torch.ones(3, 2), torch.ones(2, 4), beta=0.5)
out(z)
z.addr_(torch.arange(3.0), torch.arange(4.0))
out(z)
z.addbmm_(b1, b2, alpha=0.25)
out(z)
v = x[0] * 1
v.addmv_(torch.ones(4, 4), torch.arange(4.0))
out(v)
c = b1 * 1
c.baddbmm_(b1, torch.ones(2, 5, 5))
out(c)
(z.sum() + v.sum() + c.sum()).backward()
out(x.grad, b1.grad)
y = torch.zeros(3)
out(torch.addmv_(y, torch.ones(3, 2), torch.ones(2)), y)
err(lambda: x.addmm_(torch.ones(3, 2), torch.ones(2, 4)))
err(lambda: torch.ones(3).addr_(torch.ones(3), torch.ones(4)))
# ---
# chain_matmul: the deprecated multi_dot
a = torch.arange(6.0).reshape(2, 3).requires_grad_()
b = torch.arange(12.0).reshape(3, 4)
c = torch.arange(8.0).reshape(4, 2)
out(torch.chain_matmul(a), torch.chain_matmul(a, b), torch.chain_matmul(a, b, c))
out(torch.chain_matmul(a, b, c, c.t(), b.t()))
torch.chain_matmul(a, b, c).sum().backward()
out(a.grad)
err(lambda: torch.chain_matmul())
err(lambda: torch.chain_matmul(torch.ones(3), torch.ones(3, 2)))
err(lambda: torch.chain_matmul(a, a))
# ---
# addr and addbmm (and in place)
m = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
v1 = torch.tensor([1.0, -2.0], requires_grad=True)
v2 = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
b1 = torch.arange(12.0).reshape(3, 2, 2).requires_grad_()
b2 = torch.arange(18.0).reshape(3, 2, 3).requires_grad_()
w = torch.arange(6.0).reshape(2, 3)
for fn in [
    lambda: torch.addr(m, v1, v2),
    lambda: m.addr(v1, v2, beta=0.5, alpha=2),
    lambda: torch.addr(m * float("nan"), v1, v2, beta=0),
    lambda: torch.addr(m[0], v1, v2),
    lambda: (m * 1).addr_(v1, v2),
    lambda: torch.addbmm(m, b1, b2),
    lambda: m.addbmm(b1, b2, beta=2, alpha=0.5),
    lambda: (m * 1).addbmm_(b1, b2),
]:
    for t in (m, v1, v2, b1, b2):
        t.grad = None
    y = fn()
    (y * w).sum().backward()
    out(y, m.grad, v1.grad, v2.grad, b1.grad, b2.grad)
i = torch.ones(2, 3, dtype=torch.int64)
out(
    torch.addr(i, torch.tensor([1, 2]), torch.tensor([1, 2, 3]), beta=2, alpha=3),
    torch.get_device(m),
)
err(lambda: torch.addr(m, m, v2))
err(lambda: torch.addbmm(m, b1[0], b2))
err(lambda: torch.addbmm(m, b1, b2[:2]))
