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
# top-level dropout family: required train flag, RuntimeError for a bad p, identity when off
x = torch.ones(4, 6, requires_grad=True)
out(torch.dropout(x, 0.5, False) is x, torch.alpha_dropout(x, 0.3, False) is x)
out(torch.feature_dropout(x, 0.0, True) is x, torch.feature_alpha_dropout(x, 0.5, False) is x)
y = torch.dropout(x, 0.5, True)
out(y.shape, y.grad_fn.name(), sorted(set(y.flatten().tolist())) <= [0.0, 2.0])
y = torch.alpha_dropout(torch.ones(50, 40), 0.2, True)
out(sorted(set(round(v, 4) for v in y.flatten().tolist())))
y = torch.feature_alpha_dropout(torch.ones(8, 30, 5), 0.2, True)
out(bool((y == y[:, :, :1]).all()), sorted(set(round(v, 4) for v in y.flatten().tolist())))
y = torch.feature_dropout(torch.ones(8, 30, 5), 0.5, True)
out(bool((y == y[:, :, :1]).all()))
out(torch.dropout(x, 1.0, True), torch.alpha_dropout(x, 1.0, True))
out(torch.alpha_dropout(x, 0.5, True).grad_fn.name(), F.alpha_dropout(x, 0.5, True).grad_fn.name())
err(lambda: torch.dropout(x, 1.5, True))
err(lambda: torch.dropout(x, 0.5))
err(lambda: torch.feature_dropout(torch.ones(3), 0.5, True))
err(lambda: F.alpha_dropout(x, 1.5, True))
out(F.alpha_dropout(x) is x, F.feature_alpha_dropout(x, 0.5) is x)
z = x * 1
out(torch.dropout_(z, 0.5, True) is z, z.grad_fn.name())
z = x * 1
out(torch.alpha_dropout_(z, 0.5, True) is z, z.grad_fn.name())
z = x * 1
out(torch.feature_dropout_(z, 0.5, False) is z, torch.feature_alpha_dropout_(z, 0.5, True) is z)
print(nn.AlphaDropout(0.2), nn.FeatureAlphaDropout(0.1))
m = nn.AlphaDropout(0.2).eval()
out(m(x) is x)
# ---
# native_dropout returns (output, mask)
x = torch.arange(1.0, 7.0).reshape(2, 3).requires_grad_()
o, mask = torch.native_dropout(x, 0.5, False)
out(o, mask)
o.sum().backward()
out(x.grad)
o, mask = torch.native_dropout(x, 0.5, True)
out(o.shape, mask.dtype, o.grad_fn.name(), bool((o == x * mask * 2).all()))
o, mask = torch.native_dropout(x, 1.0, True)
out(o, mask)
err(lambda: torch.native_dropout(x, 1.5, True))
# ---
# top-level normalization with ATen signatures (float64: float32 rounding differs by ulps)
torch.set_default_dtype(torch.float64)
x = torch.arange(24.0).reshape(2, 3, 4).div(7).sin().requires_grad_()
w = torch.tensor([1.0, 2.0, 0.5, -1.0], requires_grad=True)
b = torch.tensor([0.1, 0.2, 0.3, 0.4], requires_grad=True)
out(torch.layer_norm(x, [4], w, b), torch.layer_norm(x, (3, 4)))
o, mean, rstd = torch.native_layer_norm(x, [4], w, b, 1e-5)
out(o, mean, rstd)
out(torch.native_layer_norm(x, [3, 4], None, None, 1e-5))
c = torch.tensor([1.0, -0.5, 2.0], requires_grad=True)
rm, rv = torch.zeros(3), torch.ones(3)
out(torch.batch_norm(x, c, c, rm, rv, True, 0.1, 1e-5, False), rm, rv)
out(torch.batch_norm(x, None, None, rm, rv, False, 0.1, 1e-5, False))
out(torch.batch_norm(x[:1, :, :1], None, None, None, None, True, 0.1, 1e-5, False))
out(torch.native_batch_norm(x, c, c, rm, rv, True, 0.2, 1e-5), rm, rv)
out(torch.native_batch_norm(x, c, c, rm, rv, False, 0.1, 1e-5))
out(torch.native_batch_norm(x, None, None, None, None, True, 0.1, 1e-5))
err(lambda: torch.batch_norm(x, c, c, rm, rv, True, 0.1, 1e-5))
err(lambda: torch.batch_norm(x, None, None, None, None, False, 0.1, 1e-5, False))
g = torch.arange(24.0).reshape(2, 4, 3).cos().requires_grad_()
out(torch.group_norm(g, 2), torch.group_norm(g, 4, w, b, 1e-3))
out(torch.native_group_norm(g, None, None, 2, 4, 3, 2, 1e-5))
err(lambda: torch.group_norm(x, 2))
out(torch.instance_norm(x, None, None, None, None, True, 0.1, 1e-5, False))
out(torch.instance_norm(x, c, c, rm, rv, True, 0.1, 1e-5, False), rm, rv)
out(torch.instance_norm(x, c, c, rm, rv, False, 0.1, 1e-5, False))
err(lambda: torch.instance_norm(x, None, None, None, None, False, 0.1, 1e-5, False))
torch.layer_norm(x, [4], w, b).pow(2).sum().backward()
out(x.grad, w.grad, b.grad)
# ---
# top-level pooling
x = torch.arange(24.0).reshape(2, 3, 4).mul(1.7).sin().requires_grad_()
x4 = torch.arange(48.0).reshape(1, 3, 4, 4).mul(0.3).cos().requires_grad_()
x5 = torch.arange(96.0).reshape(1, 3, 2, 4, 4).mul(0.7).sin()
out(
    torch.max_pool1d(x, 2),
    torch.max_pool1d(x, 2, 1, 1, 1, True),
    torch.max_pool1d(x, kernel_size=3),
)
out(torch.max_pool2d(x4, 2), torch.max_pool2d(x4, (2, 2), (1, 1)), torch.max_pool3d(x5, 2))
out(torch.max_pool1d_with_indices(x, 2), torch.max_pool1d_with_indices(x, 2, 1, 1))
out(
    torch.avg_pool1d(x, 2),
    torch.avg_pool1d(x, 3, 1, 1, False, False),
    torch.avg_pool1d(x, 3, (), 1, True),
)
out(torch.adaptive_avg_pool1d(x, 3), torch.adaptive_max_pool1d(x, 3))
err(lambda: torch.max_pool1d(x, 5))
i = torch.ones(1, 2, 4, dtype=torch.int64)
err(lambda: torch.max_pool1d(i, 2))
out(F.max_pool1d(i, 2, return_indices=True), torch.max_pool2d(i.unsqueeze(0), 2))
err(lambda: torch.adaptive_avg_pool1d(i, 2))
err(lambda: torch.adaptive_avg_pool1d(i, 1))
err(lambda: F.adaptive_avg_pool3d(i.reshape(1, 1, 2, 2, 2), 2))
err(lambda: torch.max_pool1d(x, 2, return_indices=True))
err(lambda: torch.adaptive_max_pool1d(x, 3, True))
torch.max_pool1d(x, 2).sum().backward()
out(x.grad)
# ---
# top-level losses take reduction as an int, and default to no reduction
p = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
y = torch.tensor([1.0, 0.0, 1.0])
out(
    torch.binary_cross_entropy_with_logits(p, y),
    torch.binary_cross_entropy_with_logits(p, y, None, None, 1),
)
out(torch.binary_cross_entropy_with_logits(p, y, torch.ones(3), torch.ones(3) * 2, 2))
out(torch.binary_cross_entropy_with_logits(p, y, reduction=3))
err(lambda: torch.binary_cross_entropy_with_logits(p, y, reduction="sum"))
lp = torch.tensor([[-1.0, -0.5, -2.0], [-0.3, -1.5, -1.0]], requires_grad=True)
q = torch.tensor([[0.2, 0.5, 0.3], [0.6, 0.1, 0.3]])
out(
    torch.kl_div(lp, q),
    torch.kl_div(lp, q, 1),
    torch.kl_div(lp, q, 2),
    torch.kl_div(lp, q.log(), 1, log_target=True),
)
err(lambda: torch.kl_div(lp, q, "batchmean"))
err(lambda: torch.kl_div(lp, q, True))
err(lambda: torch.kl_div(lp, q, 1, True))
a = torch.tensor([[1.0, 2.0], [0.5, -1.0], [3.0, 0.0]], requires_grad=True)
bb = torch.tensor([[1.0, 0.0], [0.5, 1.0], [-1.0, 1.0]])
t = torch.tensor([1.0, -1.0, -1.0])
out(torch.cosine_embedding_loss(a, bb, t), torch.cosine_embedding_loss(a, bb, t, 0.1, 1))
out(torch.margin_ranking_loss(p, p.detach() * 0.5, t), torch.margin_ranking_loss(p, y, t, 0.5, 2))
out(
    torch.hinge_embedding_loss(a, torch.ones(3, 2)),
    torch.hinge_embedding_loss(a, -torch.ones(3, 2), 2.0, 2),
)
(torch.kl_div(lp, q, 1) + torch.cosine_embedding_loss(a, bb, t, 0.0, 2)).backward()
out(lp.grad, a.grad)
# ---
# bilinear, prelu, hardshrink, activations with ATen's signatures
x1 = torch.arange(6.0).reshape(2, 3).sin().requires_grad_()
x2 = torch.arange(8.0).reshape(2, 4).cos()
w = torch.arange(60.0).reshape(5, 3, 4).div(30).requires_grad_()
out(torch.bilinear(x1, x2, w), torch.bilinear(x1, x2, w, torch.ones(5)))
v = torch.tensor([[-1.0, 0.2, 0.7], [0.4, -0.3, 2.0]], requires_grad=True)
out(v.prelu(torch.tensor([0.25])), torch.prelu(v, torch.tensor([0.1, 0.2, 0.3])))
out(v.hardshrink(), v.hardshrink(0.3), torch.hardshrink(v, lambd=0.35))
out(torch.celu(v, 2.0), torch.selu(v), torch.threshold(v, 0.1, 2.0), torch.rrelu(v))
err(lambda: torch.threshold(v, 0.1, 2.0, True))
err(lambda: torch.selu(v, True))
err(lambda: torch.rrelu(v, inplace=True))
r = v.detach().clone()
out(torch.relu_(r) is r, r)
out(torch.celu_(r, 1.5) is r, torch.selu_(r) is r, torch.threshold_(r, 0.5, -1.0) is r, r)
# ---
# channel_shuffle
x = torch.arange(16.0).reshape(1, 4, 2, 2).requires_grad_()
y = torch.channel_shuffle(x, 2)
out(
    y, nn.ChannelShuffle(2)(x), F.channel_shuffle(x, 4), torch.native_channel_shuffle(x, 2).detach()
)
y.backward(torch.arange(16.0).reshape(1, 4, 2, 2))
out(x.grad)
print(nn.ChannelShuffle(3))
err(lambda: torch.channel_shuffle(x, 3))
err(lambda: torch.channel_shuffle(torch.ones(2, 4), 2))
err(lambda: torch.channel_shuffle(x, 0))
y = torch.native_channel_shuffle(x, 2)
out(y.grad_fn.name())
err(lambda: y.sum().backward())
err(lambda: torch.native_channel_shuffle(x, 3))
# ---
# LU factorization: lu_factor(_ex), lu, lu_unpack, torch.lu, errors
torch.set_default_dtype(torch.float64)
A = torch.tensor([[1.0, 2, 3], [4, 5, 6], [7, 8, 10]], requires_grad=True)
S = torch.tensor([[1.0, 2], [2, 4]])
LU, piv = torch.linalg.lu_factor(A)
print(torch.linalg.lu_factor(A))
print(torch.linalg.lu_factor_ex(S))
out(torch.linalg.lu_factor_ex(A), torch.lu(A), torch.lu(A, get_infos=True), torch.lu(S))
print(type(torch.lu(A)).__name__, type(torch.lu(A, get_infos=True)).__name__, A.lu()[1])
P, L, U = torch.linalg.lu(A)
out(P, L, U, torch.lu_unpack(LU, piv))
out(torch.lu_unpack(LU, piv, False, True), torch.lu_unpack(LU, piv, True, False))
out(torch.linalg.lu(torch.ones(2, 3)), torch.linalg.lu(torch.arange(6.0).reshape(3, 2)))
out(torch.linalg.lu_factor_ex(torch.arange(6.0).reshape(2, 3)), torch.linalg.lu(S))
batch = torch.stack([torch.eye(3), A.detach(), A.detach().flip(0)])
out(torch.linalg.lu_factor_ex(batch), torch.linalg.lu(batch))
err(lambda: torch.linalg.lu_factor(S))
err(lambda: torch.linalg.lu_factor(torch.stack([torch.eye(2), S])))
err(lambda: torch.linalg.lu_factor_ex(S, check_errors=True))
err(lambda: torch.linalg.lu_factor(A, pivot=False))
err(lambda: torch.linalg.lu_factor(torch.ones(3, 3, dtype=torch.int64)))
err(lambda: torch.linalg.lu_factor(torch.ones(3)))
err(lambda: torch.lu_unpack(LU, piv.long()))
(LU.pow(2).sum() + U.sum() + L.sum()).backward()
out(A.grad)
# ---
# LU solves
torch.set_default_dtype(torch.float64)
A = torch.tensor([[1.0, 2, 3], [4, 5, 6], [7, 8, 10]], requires_grad=True)
B = torch.tensor([[1.0, 2], [3, 4], [5, 6]], requires_grad=True)
LU, piv = torch.linalg.lu_factor(A)
x1 = torch.linalg.lu_solve(LU, piv, B)
x2 = torch.linalg.lu_solve(LU, piv, B.t(), left=False)
x3 = torch.linalg.lu_solve(LU, piv, B, adjoint=True)
x4 = torch.linalg.lu_solve(LU, piv, B.t(), left=False, adjoint=True)
x5 = torch.lu_solve(B, LU, piv)
out(x1, x2, x3, x4, x5, B.lu_solve(LU, piv))
(x1.sum() + x2.pow(2).sum() + x3.sum() + x4.sum() + x5.sum()).backward()
out(A.grad, B.grad)
err(lambda: torch.linalg.lu_solve(LU, piv, B[:2]))
err(lambda: torch.linalg.lu_solve(LU, piv, B[:, 0]))
err(lambda: torch.linalg.lu_solve(LU, piv, B.float()))
# ---
# triangular_solve, cholesky_solve, cholesky_inverse, cholesky_ex
torch.set_default_dtype(torch.float64)
A = torch.tensor([[2.0, 1, -1], [0.5, 3, 2], [1, -1, 1.5]], requires_grad=True)
B = torch.tensor([[1.0, 2], [3, 4], [5, 6]], requires_grad=True)
r = torch.triangular_solve(B, A)
print(r)
out(torch.triangular_solve(B, A, False, True, True), B.triangular_solve(A, upper=False))
out(torch.triangular_solve(torch.ones(3, 3, 2), A).solution.shape)
(r.solution.sum() + r.cloned_coefficient.pow(2).sum()).backward()
out(A.grad, B.grad)
err(lambda: torch.triangular_solve(B[:, 0], A))
err(lambda: torch.triangular_solve(B.float(), A))
L = torch.tensor([[2.0, 0, 0], [1, 3, 0], [0.5, -1, 1.5]], requires_grad=True)
out(torch.cholesky_solve(B, L), torch.cholesky_solve(B, L.t(), True), B.cholesky_solve(L))
out(torch.cholesky_inverse(L), L.cholesky_inverse(upper=True), torch.cholesky_inverse(L.t(), True))
(torch.cholesky_solve(B, L).sum() + torch.cholesky_inverse(L).pow(2).sum()).backward()
out(L.grad)
err(lambda: torch.cholesky_solve(B[:, 0], L))
err(lambda: torch.cholesky_inverse(torch.ones(3)))
out(torch.linalg.cholesky_ex(L @ L.t()), torch.linalg.cholesky_ex(L @ L.t(), upper=True))
out(
    torch.linalg.cholesky_ex(-torch.eye(2)),
    torch.linalg.cholesky_ex(torch.tensor([[1.0, 2], [2, 1]])),
)
err(lambda: torch.linalg.cholesky_ex(-torch.eye(2), check_errors=True))
err(lambda: torch.linalg.cholesky(-torch.eye(2)))
# ---
# window functions
for f in (torch.hann_window, torch.hamming_window, torch.blackman_window, torch.bartlett_window):
    out(f(0), f(1), f(2), f(5), f(6, False), f(7, True), f(5, dtype=torch.float64))
    out(f(5, requires_grad=True), f(8, periodic=False, dtype=torch.float64))
    err(lambda: f(5, dtype=torch.int64))
    err(lambda: f(-1))
    err(lambda: f(4.0))
out(torch.kaiser_window(0), torch.kaiser_window(1), torch.kaiser_window(6, dtype=torch.float64))
out(torch.kaiser_window(6, False, 5.0, dtype=torch.float64), torch.kaiser_window(7, True, 3.0))
out(torch.hamming_window(6, True, 0.6), torch.hamming_window(6, False, 0.6, 0.3))
err(lambda: torch.hamming_window(6, alpha=0.6, beta=0.3))
err(lambda: torch.kaiser_window(6, beta=5.0))
err(lambda: torch.hann_window(5, True, torch.float64))
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
