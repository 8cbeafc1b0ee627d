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
# vander, tril_indices/triu_indices, unravel_index, range, scalar_tensor, empty_strided
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
out(
    torch.vander(torch.tensor([1, 2, 3])),
    torch.vander(torch.tensor([1, 2, 3], dtype=torch.int8), N=2),
)
out(
    torch.vander(x, N=4, increasing=True),
    torch.vander(x),
    torch.vander(x, N=0),
    torch.vander(x, N=1),
)
out(torch.vander(torch.tensor([True, False])), torch.vander(x.detach(), 2, True))
err(lambda: torch.vander(x).sum().backward())
err(lambda: torch.vander(torch.ones(2, 2)))
err(lambda: torch.vander(x, N=-1))
out(
    torch.tril_indices(3, 4, 1),
    torch.tril_indices(3, 3, -1),
    torch.tril_indices(2, 2, dtype=torch.int32),
)
out(
    torch.triu_indices(3, 3),
    torch.triu_indices(4, 3, 1),
    torch.triu_indices(0, 3),
    torch.tril_indices(3, 2, 5),
)
err(lambda: torch.tril_indices(2, 2, dtype=torch.float32))
out(torch.unravel_index(torch.tensor([4, 7]), (3, 4)), torch.unravel_index(torch.tensor(5), 6))
out(torch.unravel_index(torch.tensor([[4], [7]], dtype=torch.int32), (3, 4)))
out(
    torch.unravel_index(torch.tensor([5, -1, 50]), torch.Size([2, 3])),
    torch.unravel_index(torch.tensor(5), (3, 4)),
)
err(lambda: torch.unravel_index(torch.tensor(5.0), (3, 4)))
err(lambda: torch.unravel_index(torch.tensor(5), (3, -4)))
err(lambda: torch.unravel_index(torch.tensor(5), (3, 4.0)))
out(
    torch.range(0, 3),
    torch.range(0, 3, dtype=torch.int64),
    torch.range(1, 2, 0.3),
    torch.range(3, 0, -1),
)
out(torch.range(0, 2, requires_grad=True), torch.range(0.5, 2), torch.range(1, 1))
err(lambda: torch.range(3))
err(lambda: torch.range(0, 3, -1))
out(torch.scalar_tensor(3), torch.scalar_tensor(3, dtype=torch.int64), torch.scalar_tensor(True))
out(torch.scalar_tensor(3.5, requires_grad=True))
e = torch.empty_strided((2, 3), (1, 2))
out(
    e.shape, e.stride(), e.is_contiguous(), torch.empty_strided((2,), (1,), dtype=torch.int64).dtype
)
out(
    torch.empty_strided((2, 2), (2, 1), requires_grad=True).requires_grad,
    torch.empty_strided((0, 3), (3, 1)).shape,
)
# ---
# tensor predicates, layout, legacy constructors, memory flags
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
out(
    str(x.layout),
    repr(torch.strided),
    torch.strided == x.layout,
    x.layout is torch.strided,
)
out(
    type(torch.strided).__name__,
    isinstance(torch.strided, torch.layout),
    torch.zeros(2, layout=torch.strided),
)
out(
    torch.tensor([0.0]).is_nonzero(),
    torch.tensor(3).is_nonzero(),
    torch.is_nonzero(torch.tensor([[True]])),
)
out(torch.tensor(float("nan")).is_nonzero(), torch.tensor([-0.0]).is_nonzero())
err(lambda: torch.tensor([1.0, 2.0]).is_nonzero())
err(lambda: torch.tensor([]).is_nonzero())
dtypes = [torch.uint8, torch.bool, torch.int8, torch.float16, torch.int64, torch.float64]
out([torch.tensor([1], dtype=d).is_signed() for d in dtypes], torch.is_signed(x))
out(x.is_same_size(x * 2), torch.is_same_size(x, x[:2]), x.is_same_size(x.view(3, 1)))
out(x.is_cpu, x.is_cuda, x.is_sparse, x.is_quantized, x.is_meta, x.is_mkldnn, x.is_nested)
out([torch.can_cast(a, b) for a in dtypes for b in dtypes])
err(lambda: torch.can_cast(torch.ones(1), torch.float32))
out(x.new(2, 3).shape, x.new(torch.Size([2, 3])).shape, x.new([1, 2]), x.new((2, 3)), x.new())
out(torch.tensor([1]).new([1.5, 2.5]), x.new(torch.tensor([5.0, 6.0])), x.new(2).dtype)
err(lambda: x.new(torch.tensor([5, 6])))
err(lambda: x.new(2, dtype=torch.int64))
s = x.new_empty_strided((2, 3), (1, 2))
out(
    s.shape,
    s.stride(),
    s.dtype,
    s.requires_grad,
    x.new_empty_strided((2,), (1,), dtype=torch.int32).dtype,
)
out(x.is_pinned(), x.is_shared())
err(lambda: x.pin_memory())
t = x.detach().clone()
out(t.share_memory_() is t, t.is_shared(), x.share_memory_() is x)
# ---
# in-place view ops, resize_, conjugate transposes
x = torch.ones(2, 3, requires_grad=True)
w = torch.arange(6.0)
for fn in [
    lambda y: y.unsqueeze_(0),
    lambda y: y.unsqueeze_(-1),
    lambda y: y.unsqueeze(0).squeeze_(),
    lambda y: y.unsqueeze(0).squeeze_(0),
    lambda y: y.t_(),
    lambda y: y.transpose_(0, 1),
    lambda y: y.swapaxes_(1, 0),
    lambda y: y.swapdims_(0, -1),
]:
    x.grad = None
    y = x * 1
    z = fn(y)
    (z * w.reshape(z.shape)).sum().backward()
    out(z, z is y, y._version, x.grad)
err(lambda: x.unsqueeze_(0))
err(lambda: x.t_())
err(lambda: torch.ones(2, 2, 2).t_())
v = torch.arange(6.0)
out(
    v.resize_(2, 2),
    v.shape,
    torch.arange(3.0).resize_(2, 2).shape,
    torch.arange(6.0).resize_as_(torch.ones(3, 2)),
)
err(lambda: x.resize_(3, 2))
m = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
out(m.mH, m.H, torch.adjoint(m), m.adjoint(), torch.ones(2, 3, 4).mH.shape)
err(lambda: torch.ones(3).H)
err(lambda: torch.ones(3).mH)
err(lambda: torch.ones(2, 2, 2).H)
# ---
# runtime settings and small helpers
threads = torch.get_num_threads()  # restored below: the test process is shared
out(threads > 0, torch.set_num_threads(2), torch.get_num_threads())
torch.set_num_threads(threads)
out(torch.get_num_interop_threads() > 0)
err(lambda: torch.set_num_threads(0))
out(torch.are_deterministic_algorithms_enabled(), torch.use_deterministic_algorithms(True))
out(torch.are_deterministic_algorithms_enabled(), torch.get_deterministic_debug_mode())
out(
    torch.use_deterministic_algorithms(True, warn_only=True),
    torch.is_deterministic_algorithms_warn_only_enabled(),
)
out(torch.get_deterministic_debug_mode(), torch.set_deterministic_debug_mode("default"))
out(
    torch.are_deterministic_algorithms_enabled(),
    torch.set_deterministic_debug_mode(2),
    torch.get_deterministic_debug_mode(),
)
torch.use_deterministic_algorithms(False)
err(lambda: torch.use_deterministic_algorithms("yes"))
out(torch.get_float32_matmul_precision(), torch.set_float32_matmul_precision("high"))
out(
    torch.get_float32_matmul_precision(),
    torch.set_float32_matmul_precision("foo"),
    torch.get_float32_matmul_precision(),
)
torch.set_float32_matmul_precision("highest")
out(
    str(torch.get_default_device()), torch.set_default_device("cpu"), torch.set_default_device(None)
)
out(torch.is_warn_always_enabled(), torch.set_warn_always(False), torch.set_flush_denormal(False))
x = torch.ones(2, requires_grad=True)
out(
    torch.typename(x),
    torch.typename(torch.ones(1, dtype=torch.int64)),
    torch.typename(3),
    torch.typename(nn.Linear(1, 1)),
)
out(
    torch.typename(torch.ones(1, dtype=torch.float64)),
    torch.typename(torch.ones(1, dtype=torch.bool)),
)
out(torch.is_inference(x), torch.is_storage(x), torch.detach(x), torch.detach(x * 2))
# ---
# window functions and combinations
for name in [
    "hann_window",
    "hamming_window",
    "blackman_window",
    "bartlett_window",
    "kaiser_window",
]:
    fn = getattr(torch, name)
    out(
        fn(5),
        fn(6, periodic=False),
        fn(4, dtype=torch.float64),
        fn(1),
        fn(0),
        fn(3, requires_grad=True),
    )
    err(lambda: fn(3, dtype=torch.int64))
out(torch.kaiser_window(6, True, 5.0), torch.hamming_window(5, False, 0.5, 0.5))
x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
c = torch.combinations(x)
(c * torch.arange(12.0).reshape(6, 2)).sum().backward()
out(c, x.grad, torch.combinations(torch.tensor([1, 2, 3]), r=3), torch.combinations(x, r=3).shape)
out(torch.combinations(torch.tensor([1, 2, 3]), with_replacement=True), torch.combinations(x, r=0))
out(torch.combinations(torch.tensor([1, 2]), r=3), torch.combinations(torch.tensor([5]), r=1))
err(lambda: torch.combinations(torch.ones(2, 2)))
err(lambda: torch.combinations(x, r=-1))
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
# ---
# torch's top-level forms of nn.functional ops (native signatures, int reductions)
x = torch.arange(24.0).reshape(2, 3, 4).sin().requires_grad_()
img = torch.arange(2 * 3 * 4 * 4.0).reshape(2, 3, 4, 4).cos().requires_grad_()
w = torch.tensor([1.0, 2.0, 0.5], requires_grad=True)
b = torch.tensor([0.1, 0.0, -0.1], requires_grad=True)
t = torch.tensor([[0.0, 1.0, 1.0, 0.0], [1.0, 0.0, 1.0, 1.0], [0.0, 0.0, 1.0, 0.0]])
y = torch.tensor([1.0, -1.0, 1.0])
results = [
    torch.dropout(x, 0.5, False),
    torch.dropout(x, 0.0, True),
    torch.layer_norm(x, [4]),
    torch.layer_norm(x, (4,), torch.ones(4), torch.zeros(4), 1e-3),
    torch.group_norm(x, 3, w, b),
    torch.batch_norm(x, w, b, torch.zeros(3), torch.ones(3), True, 0.1, 1e-5, False),
    torch.batch_norm(x, None, None, torch.zeros(3), torch.ones(3), False, 0.1, 1e-5, False),
    torch.instance_norm(x, w, b, None, None, True, 0.1, 1e-5, False),
    torch.max_pool1d(x, 2),
    torch.max_pool1d(x, 2, 1, 1),
    torch.max_pool2d(img, 2),
    torch.max_pool2d(img, (2, 2), (1, 2), 1, 1, True),
    torch.max_pool3d(img.unsqueeze(0), 2),
    torch.avg_pool1d(x, 2),
    torch.adaptive_avg_pool1d(x, 3),
    torch.bilinear(x[0], x[1], torch.ones(2, 4, 4), torch.zeros(2)),
    torch.binary_cross_entropy_with_logits(x[0], t),
    torch.binary_cross_entropy_with_logits(x[0], t, None, torch.ones(4), 1),
    torch.binary_cross_entropy_with_logits(x[0], t, reduction=2),
    torch.cosine_embedding_loss(x[0], x[1], y),
    torch.hinge_embedding_loss(x[0], t * 2 - 1, 1.0, 1),
    torch.margin_ranking_loss(x[0, :, 0], x[1, :, 0], y, 0.1, 2),
    torch.kl_div(x[0], t),
    torch.kl_div(x[0], t, 1),
    torch.kl_div(x[0], x[1], 2, log_target=True),
    torch.poisson_nll_loss(x[0], t, True, False, 1e-8, 1),
    torch.triplet_margin_loss(x[0], x[1], x[0].flip(0)),
    torch.chain_matmul(x[0], x[1].t(), x[0]),
    torch.chain_matmul(x[0]),
]
for r in results:
    out(r)
values, indices = torch.adaptive_max_pool1d(x, 3)
out(values, indices)
z = x.detach().clone()
out(torch.dropout_(z, 0.0, True) is z)
# ---
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
