# inverse hyperbolic functions and their in-place forms
x = torch.tensor([0.5, 1.5, 3.0], requires_grad=True)
y = torch.tensor([-0.5, 0.25, 0.75], requires_grad=True)
a, b, c = torch.asinh(x), (x + 1).arccosh(), torch.arctanh(y)
(a.sum() + b.sum() + c.sum()).backward()
out(a, b, c, x.grad, y.grad, torch.tensor([1, 2]).acosh(), torch.tensor([True]).asinh())
z = (y * 1).atanh_()
out(z, torch.asinh_(torch.tensor([0.5])), torch.arccosh_(torch.tensor([2.0])))
err(lambda: z.sum().backward())
err(lambda: torch.tensor([1, 2]).asinh_())
# ---
# gcd, lcm and bit shifts
i = torch.tensor([12, -18, 7, 0])
j = torch.tensor([8, 12, 0, 0])
out(torch.gcd(i, j), torch.lcm(i, j), i.gcd(j), i.clone().lcm_(j), torch.gcd_(i.clone(), j))
out(torch.gcd(i.int(), j), torch.lcm(i.to(torch.int16), j.to(torch.int16)))
err(lambda: torch.gcd(i, 4))
err(lambda: torch.gcd(i.float(), j))
err(lambda: torch.lcm(torch.tensor([True]), torch.tensor([True])))
out(i << 2, i >> 1, 1 << j, 256 >> j, i << j, torch.bitwise_left_shift(i, j))
out(torch.bitwise_right_shift(i, 1), i.bitwise_left_shift(3), i.clone().bitwise_right_shift_(2))
out(torch.tensor([-5, 5, -5, 7]) >> torch.tensor([-1, -1, 70, 64]))
out(torch.tensor([1, 5]) << torch.tensor([70, -1]), torch.tensor([200], dtype=torch.uint8) << 1)
out(torch.tensor([-5, 5], dtype=torch.int8) << torch.tensor([7, 8]))
out(torch.tensor([1, 2], dtype=torch.int32) << 1, torch.tensor([True]) << 1)
k = i.clone()
k <<= 1
k >>= torch.tensor([0, 1, 2, 3])
out(k)
err(lambda: torch.tensor([1.5]) << 1)
err(lambda: torch.tensor([1.5]) >> torch.tensor([1]))
# ---
# frexp, ldexp, nextafter
x = torch.tensor([1.5, -8.0, 0.0, 0.3, 1000.0], requires_grad=True)
m, e = torch.frexp(x)
(m * torch.arange(5.0)).sum().backward()
out(m, e, x.grad, x.frexp().mantissa, x.frexp().exponent, type(torch.frexp(x)).__name__)
out(torch.frexp(torch.tensor([3.0], dtype=torch.float64)))
err(lambda: torch.frexp(torch.tensor([1, 2])))
x.grad = None
n = torch.tensor([1, -2, 3, 0, -1])
y = torch.ldexp(x, n)
y.sum().backward()
out(y, x.grad, torch.ldexp(torch.tensor([1, 3]), torch.tensor([2, -1])), x.ldexp(x.detach()))
out(torch.ldexp(torch.tensor([1.0]), torch.tensor([2.0], dtype=torch.float64)))
out(torch.ldexp_(torch.tensor([1.0, 2.0]), torch.tensor([3, 4])))
err(lambda: torch.ldexp(x, 2))
x.grad = None
t = torch.tensor([0.0, 1.0, 1.0], requires_grad=True)
s = torch.nextafter(x[:3], t)
s.sum().backward()
out(
    s,
    x.grad,
    t.grad,
    torch.nextafter(torch.tensor([1.0]), torch.tensor([2.0], dtype=torch.float64)),
)
out(torch.tensor([1.0, 2.0]).nextafter_(torch.tensor([0.0, 3.0])) - torch.tensor([1.0, 2.0]))
err(lambda: torch.nextafter(torch.tensor([1]), torch.tensor([2])))
# ---
# real tensors through the complex API; isposinf/isneginf/isreal/positive
x = torch.tensor([1.0, -2.0, float("nan"), 0.0, -0.0, float("inf"), -float("inf")])
x.requires_grad_()
y = x * 2
out(torch.real(x) is x, x.real is x, torch.conj(x) is x, x.conj() is x, x.resolve_conj() is x)
out(torch.resolve_neg(x) is x, torch.conj_physical(x) is x, torch.positive(x) is x)
out(torch.real(y), y.conj(), y.conj_physical(), +y, y.positive(), torch.resolve_neg(y))
out(torch.is_conj(x), x.is_neg(), torch.is_complex(x), x.is_complex(), torch.is_neg(x))
out(torch.conj_physical_(torch.tensor([1.0, 2.0])))
err(lambda: torch.imag(x))
err(lambda: x.imag)
err(lambda: torch.positive(torch.tensor([True])))
a = torch.angle(y)
a.sum().backward()
out(a, x.grad, torch.angle(torch.tensor([3, -1, 0])), torch.angle(torch.tensor([True, False])))
out(torch.isposinf(x), torch.isneginf(x), x.isposinf(), torch.isreal(x), x.isreal())
out(torch.isneginf(torch.tensor([1, -2])), torch.isreal(torch.tensor([1, 2])))
# ---
# in-place aliases and torch.<name>_ functions
a = torch.tensor([1.0, 2.0, 3.0])
out(a.clone().greater_(2), a.clone().greater_equal_(2), a.clone().less_(2.0))
out(a.clone().less_equal_(torch.tensor([2.0])), a.clone().not_equal_(2))
n = torch.tensor([float("nan"), float("inf"), -1.0])
out(torch.nan_to_num_(n.clone()), n.clone().nan_to_num_(nan=1.0, posinf=5.0))
out(a.clone().cumsum_(0), torch.tensor([1, 2, 3], dtype=torch.int32).cumsum_(0))
out(a.clone().cumprod_(dim=0), torch.tensor([1, 2, 3]).cumsum_(0, dtype=torch.int64))
err(lambda: torch.tensor([1, 2]).cumsum_(0, dtype=torch.float32))
x = torch.tensor([-1.5, 0.25, 2.0], requires_grad=True)
y = x * 1
out(torch.abs_(y), torch.exp_(y), torch.sqrt_(y), torch.relu_(y), torch.sigmoid_(y))
out(torch.clamp_(x * 1, 0, 1), torch.clip_(x * 1, max=0.5), torch.erf_(x * 1), torch.square_(x * 1))
out(torch.fill_(x * 1, 2), torch.zero_(x * 1), torch.neg_(x * 1), torch.round_(x * 1))
out(torch.tanh_(x * 1), torch.log1p_(x.abs() * 1), torch.trunc_(x * 1), torch.sin_(x * 1))
z = x * 1
z.cumsum_(0)
z.sum().backward()
out(z, x.grad)
err(lambda: torch.exp_(x))
err(lambda: torch.sqrt_(torch.tensor([4, 9])))
# ---
# apply_, map_ and the cauchy/log-normal/geometric fills
x = torch.tensor([1.0, 2.0])
out(x.apply_(lambda v: v * 2), x.map_(torch.tensor([10.0, 20.0]), lambda a, b: a + b), x)
out(
    torch.tensor([1, 2]).apply_(lambda v: v / 2),
    torch.ones(2, 2).map_(torch.tensor([1.0, 2.0]), max),
)
y = torch.tensor([1.0, 2.0], requires_grad=True)
err(lambda: y.apply_(lambda v: v))
err(lambda: (y * 1).map_(y, lambda a, b: a))
torch.manual_seed(0)
c = torch.empty(3).cauchy_(1.0, 2.0)
ln = torch.empty(4, dtype=torch.float64).log_normal_(0, 0.5)
geo = torch.empty(5).geometric_(0.5)
out(
    c.shape,
    c.dtype,
    ln.dtype,
    bool((ln > 0).all()),
    bool((geo >= 1).all()),
    bool((geo == geo.round()).all()),
)
out(torch.empty(3, dtype=torch.int64).geometric_(0.5).dtype)
err(lambda: torch.empty(3).geometric_(0))
err(lambda: torch.empty(3).log_normal_(0, -1))
err(lambda: torch.empty(3).cauchy_(0, -1))
err(lambda: y.cauchy_())
