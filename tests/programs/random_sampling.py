# poisson and binomial draws (laws, shapes, dtypes and nodes; the draws themselves differ)
torch.manual_seed(0)
rates = torch.tensor([0.0, 2.0, 30.0], requires_grad=True)
p = torch.poisson(rates)
p.sum().backward()
out(p.shape, p.dtype, p.grad_fn.name(), rates.grad, bool((p >= 0).all()), p[0].item())
out(bool((p == p.round()).all()), torch.poisson(torch.zeros(2, dtype=torch.float64)))
err(lambda: torch.poisson(torch.tensor([1, 2])))
err(lambda: torch.poisson(torch.tensor([-1.0])))
n = torch.tensor([5.0, 10.0, 7.0], requires_grad=True)
q = torch.tensor([0.0, 1.0, 0.5], requires_grad=True)
b = torch.binomial(n, q)
out(b[:2], b.grad_fn.name(), bool((b >= 0).all() and (b <= n).all()), b.dtype)
err(lambda: b.sum().backward())
err(lambda: torch.binomial(torch.tensor([5]), torch.tensor([0.5])))
# ---
# random samplers: shapes, dtypes, supports and errors (values differ from torch by design)
x = torch.zeros(200, 50)
out(x.cauchy_(1.0, 0.5).shape, x.dtype, bool(x.isfinite().all()))
out(x.log_normal_(0.0, 0.5) is x, bool((x > 0).all()))
g = torch.zeros(100, 30, dtype=torch.int64)
out(g.geometric_(0.3) is g, g.dtype, bool((g >= 1).all()), torch.zeros(3).geometric_(0.5).dtype)
out(
    bool((x.exponential_(2.0) >= 0).all()), torch.zeros(3, dtype=torch.float64).exponential_().dtype
)
out(
    bool(((x.bernoulli_(0.3) == 0) | (x == 1)).all()),
    x.bernoulli_(torch.full((200, 50), 0.5)).shape,
)
for f in (
    lambda: x.geometric_(0),
    lambda: x.geometric_(1.5),
    lambda: x.geometric_(),
    lambda: torch.zeros(3, dtype=torch.bool).geometric_(0.5),
    lambda: x.log_normal_(1, 0),
    lambda: torch.zeros(3, dtype=torch.int64).log_normal_(),
    lambda: x.exponential_(0),
    lambda: torch.zeros(3, dtype=torch.int64).exponential_(),
    lambda: x.cauchy_(0, -1),
    lambda: torch.zeros(3, dtype=torch.int64).cauchy_(),
    lambda: x.bernoulli_(1.5),
    lambda: torch.zeros(3, requires_grad=True).cauchy_(),
):
    err(f)
r = torch.tensor([1.0, 5.0, 0.0], requires_grad=True)
p = torch.poisson(r)
out(
    p.shape,
    p.dtype,
    p.grad_fn.name(),
    p[2].item(),
    torch.poisson(torch.zeros(2, 3, dtype=torch.float64)),
)
p.sum().backward()
out(r.grad)
err(lambda: torch.poisson(torch.tensor([1, 2])))
err(lambda: torch.poisson(torch.tensor([-1.0])))
# ---
# torch.normal's four overloads and torch.bernoulli(p=...)
m = torch.zeros(3, requires_grad=True)
s = torch.ones(2, 1, requires_grad=True)
for y in (torch.normal(m), torch.normal(m, 2.0), torch.normal(0.5, s), torch.normal(m, s)):
    out(y.shape, y.dtype, y.grad_fn.name(), y.requires_grad)
out(
    torch.normal(0.0, 1.0, (2, 3)).shape,
    torch.normal(0.0, 1.0, size=(2, 3), dtype=torch.float64).dtype,
)
out(torch.normal(0, 1, (2,), requires_grad=True).requires_grad, torch.normal(3.0, 0.0, (2,)))
out(
    torch.normal(torch.full((2,), 4.0), 0.0),
    torch.normal(torch.zeros(2, dtype=torch.float64), torch.zeros(2)).dtype,
)
torch.normal(m, s).sum().backward()
out(m.grad, s.grad)
err(lambda: torch.normal(0.0, 1.0))
err(lambda: torch.normal(m, -1.0))
err(lambda: torch.normal(0.0, -s))
err(lambda: torch.normal(m.long(), 1.0))
err(lambda: torch.normal(m, s, (2,)))
err(lambda: torch.normal(torch.zeros(2), torch.ones(3)))
err(lambda: torch.normal(0.0, 1.0, (2, 3), dtype=torch.int64))
x = torch.zeros(3, 4)
i = torch.zeros(3, 4, dtype=torch.int64)
out(
    torch.bernoulli(x, p=0.3).shape,
    torch.bernoulli(i, 0.3).dtype,
    x.bernoulli(1.0),
    torch.bernoulli(torch.ones(2)),
)
q = torch.full((3,), 0.5, requires_grad=True)
b = torch.bernoulli(q)
out(b.grad_fn.name(), b.dtype, bool(((b == 0) | (b == 1)).all()))
err(lambda: torch.bernoulli(x, p=1.5))
err(lambda: torch.bernoulli(torch.full((3,), 1.5)))
err(lambda: torch.bernoulli(x, p=torch.ones(3, 4)))
