# float-only activations refuse integer and bool inputs; hardtanh, relu, threshold keep ints
for dtype in [torch.int64, torch.int32, torch.uint8, torch.bool, torch.float16]:
    x = torch.tensor([1, 0, 1], dtype=dtype)
    for name in [
        "gelu",
        "silu",
        "leaky_relu",
        "softplus",
        "hardtanh",
        "elu",
        "selu",
        "celu",
        "mish",
        "hardsigmoid",
        "hardswish",
        "logsigmoid",
        "softshrink",
        "hardshrink",
        "relu",
        "relu6",
        "softsign",
        "tanhshrink",
        "glu",
    ]:
        err(lambda: getattr(F, name)(torch.ones(4, dtype=dtype) if name == "glu" else x))
    err(lambda: F.threshold(x, 0.5, 2))
    err(lambda: F.log_softmax(x, 0))
    err(lambda: F.softmax(x, 0))
    err(lambda: F.hardtanh(x, 0.0, 2.0))
    err(lambda: F.hardtanh(x, -1.0, 2.0))
    for name in [
        "sigmoid",
        "tanh",
        "exp",
        "sqrt",
        "abs",
        "sign",
        "frac",
        "ceil",
        "floor",
        "round",
        "trunc",
        "sinc",
        "angle",
        "positive",
        "sgn",
        "square",
        "neg",
    ]:
        err(lambda: getattr(torch, name)(x))
    for name in ["relu_", "sigmoid_", "abs_", "ceil_", "frac_", "sign_", "reciprocal_"]:
        err(lambda: getattr(x.clone(), name)())
    for name in ["elu_", "leaky_relu_", "hardtanh_", "relu_"]:
        err(lambda: getattr(F, name)(x.clone()))
    for name in ["silu", "hardswish", "mish", "selu"]:
        err(lambda: getattr(F, name)(x.clone(), inplace=True))
for kernel in [
    lambda: F.gelu(torch.tensor([1])),
    lambda: F.relu(torch.tensor([True])),
    lambda: torch.tensor([2]).sigmoid_(),
    lambda: F.log_softmax(torch.tensor([1]), 0),
    lambda: torch.tensor([1]).frac(),
    lambda: torch.tensor([True]).abs(),
]:
    try:
        kernel()
    except Exception as e:
        print(type(e).__name__, e)
x = torch.tensor([-1.5, 0.0, 2.0, float("nan")], requires_grad=True)
y = torch.angle(x)
out(y, torch.positive(x) is x)
y.sum().backward()
out(x.grad)
out(torch.sinc(torch.tensor([1.0, 2.0, 0.5], dtype=torch.float16)))
# ---
# norm layers with mixed input/parameter dtypes: torch's CPU "mixed dtype" rule
x = torch.randn(4, 3, 5)
for xd, wd in [
    (torch.float64, torch.float32),
    (torch.float32, torch.float64),
    (torch.float32, torch.float16),
    (torch.float16, torch.float64),
]:
    xx = x.to(xd).requires_grad_()
    w, b = torch.ones(3, dtype=wd), torch.zeros(3, dtype=wd)
    rm, rv = torch.zeros(3, dtype=wd), torch.ones(3, dtype=wd)
    err(lambda: F.batch_norm(xx, rm, rv, w, b, training=True))
    err(lambda: F.batch_norm(xx, rm, rv, training=False))
    err(lambda: F.batch_norm(xx, None, None, w, b, training=True))
    err(lambda: F.layer_norm(xx, (5,), torch.ones(5, dtype=wd), torch.zeros(5, dtype=wd)))
    err(lambda: F.group_norm(xx, 3, w, b))
    err(lambda: F.instance_norm(xx, rm, rv, w, b))
    err(lambda: nn.BatchNorm1d(3).to(wd)(xx))
    err(lambda: nn.LayerNorm(5).to(wd)(xx))
err(lambda: F.batch_norm(x, torch.zeros(3, dtype=torch.float64), torch.ones(3), training=True))
xi = torch.ones(4, 3, 5, dtype=torch.int64)
for f in [
    lambda: F.layer_norm(xi, (5,)),
    lambda: F.layer_norm(xi, (5,), torch.ones(5)),
    lambda: F.batch_norm(xi, None, None, training=True),
    lambda: F.group_norm(xi, 3),
    lambda: F.layer_norm(x, (5,), torch.ones(5, dtype=torch.float64)),
    lambda: F.layer_norm(x.double(), (5,), torch.ones(5)),
]:
    try:
        f()
    except Exception as e:
        print(type(e).__name__, e)
h = torch.randn(4, 3, 5).half().requires_grad_()
w = torch.ones(3, requires_grad=True)
y = F.group_norm(h, 3, w, torch.zeros(3))
y.float().sum().backward()
out(y.dtype, w.grad.dtype, h.grad.dtype)
# ---
# gradcheck and gradgradcheck accept non-contiguous inputs; refuse stride-0 (expanded) ones
x = torch.randn(4, 3, dtype=torch.float64).t().requires_grad_()
out(x.is_contiguous())
out(torch.autograd.gradcheck(lambda a: (a * a).sum(), (x,)))
out(torch.autograd.gradgradcheck(lambda a: (a * a * a).sum(), (x,)))
y = torch.randn(3, 4, dtype=torch.float64)[:, ::2].requires_grad_()
out(torch.autograd.gradcheck(lambda a, b: a.exp() @ b, (y, x[:2, :2])))
z = torch.randn(3, dtype=torch.float64).expand(2, 3).requires_grad_()
err(lambda: torch.autograd.gradcheck(lambda a: a.sin(), (z,)))
err(lambda: torch.autograd.gradcheck(lambda a: a.sin(), (torch.randn(3, dtype=torch.float64),)))
# ---
# unique and unique_consecutive: flags, dims, 0-d and empty inputs, errors
x = torch.tensor([3, 1, 2, 3, 1, 5, 5, 0])
m = torch.tensor([[1.0, 2.0], [1.0, 2.0], [0.0, 5.0], [1.0, 3.0]], requires_grad=True)
flags = [
    {},
    dict(sorted=False),
    dict(return_inverse=True),
    dict(return_counts=True),
    dict(return_inverse=True, return_counts=True),
    dict(dim=0),
    dict(dim=-1),
    dict(dim=0, return_inverse=True, return_counts=True),
    dict(dim=1, return_counts=True),
    dict(dim=2),
]
for t in [
    x,
    m,
    torch.tensor([True, False, True]),
    torch.tensor([]),
    torch.tensor(3.0),
    torch.zeros(0, 3),
    torch.zeros(2, 0),
]:
    for kw in flags:
        err(lambda: torch.unique(t, **kw))
        err(lambda: t.unique(**kw))
        kw = {k: v for k, v in kw.items() if k != "sorted"}
        err(lambda: torch.unique_consecutive(t, **kw))
        err(lambda: t.unique_consecutive(**kw))
out(torch.unique(x, False, True), torch.unique(x, True, False, True, 0))
out(torch.unique(torch.tensor([[2, 1], [1, 2], [2, 1]]), dim=1, return_inverse=True))
# ---
# copy_, matmul and bmm shape errors; index_add/scatter/index_put dtype errors
for f in [
    lambda: torch.zeros(2, 3).copy_(torch.ones(4)),
    lambda: torch.zeros(2, 3).copy_(torch.ones(2, 1, 3)),
    lambda: torch.bmm(torch.ones(2, 3, 4), torch.ones(2, 5, 6)),
    lambda: torch.bmm(torch.ones(2, 3, 4), torch.ones(3, 4, 6)),
    lambda: torch.matmul(torch.ones(2, 3, 4), torch.ones(2, 5, 6)),
    lambda: torch.ones(2, 3, 4) @ torch.ones(5, 6),
    lambda: torch.ones(3, 4) @ torch.ones(5),
    lambda: torch.baddbmm(torch.ones(2, 3, 5), torch.ones(2, 3, 4), torch.ones(3, 4, 5)),
    lambda: torch.baddbmm(torch.ones(2, 3, 6), torch.ones(2, 3, 4), torch.ones(2, 4, 5)),
    lambda: torch.addbmm(torch.ones(3, 5), torch.ones(2, 3, 4), torch.ones(3, 4, 5)),
    lambda: torch.addbmm(torch.ones(3, 5), torch.ones(2, 3, 4), torch.ones(2, 6, 5)),
    lambda: torch.addmv(torch.ones(3), torch.ones(3, 4), torch.ones(5)),
    lambda: torch.addmv(torch.ones(4), torch.ones(3, 4), torch.ones(4)),
    lambda: torch.addr(torch.ones(3, 4), torch.ones(3), torch.ones(5)),
    lambda: torch.addr(torch.ones(3, 4), torch.ones(3, 1), torch.ones(4)),
    lambda: torch.addr(
        torch.ones(3, 4, dtype=torch.int64),
        torch.ones(3, dtype=torch.int64),
        torch.ones(4, dtype=torch.int64),
        alpha=0.5,
    ),
    lambda: torch.ones(3).index_add(0, torch.tensor([0]), torch.ones(1, dtype=torch.float64)),
    lambda: torch.ones(3).scatter_add(0, torch.tensor([0]), torch.ones(1).double()),
    lambda: torch.ones(3).scatter(0, torch.tensor([0]), torch.ones(1, dtype=torch.float64)),
    lambda: torch.ones(3).index_put_((torch.tensor([0]),), torch.ones(1).double()),
]:
    try:
        f()
    except Exception as e:
        print(type(e).__name__, e)
out(torch.clamp(torch.tensor([1, 2, 3]), 0.5, 1.5), torch.clamp_min(torch.tensor([1, 2]), 1.5))
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
# setitem: advanced indices need the value's dtype (0-dim values under a bool mask cast);
# basic indices cast, and drop the value's leading size-1 dims
def setitem(key, value, dtype=torch.float32):
    x = torch.zeros(3, 2, dtype=dtype)
    x[key] = value
    return x


idx = torch.tensor([0, 1])
mask = torch.tensor([True, False, True])
for key in [
    idx,
    mask,
    (idx, 0),
    slice(0, 2),
    0,
    (mask, 1),
    Ellipsis,
    None,
    (idx, idx),
    (slice(None), idx),
]:
    for value in [
        torch.ones(2, dtype=torch.float64),
        torch.ones(2, dtype=torch.int64),
        torch.tensor(1.5, dtype=torch.float64),
        torch.tensor(2),
        1.5,
        True,
        torch.ones(1, 2, dtype=torch.float64),
    ]:
        err(lambda: setitem(key, value))
        err(lambda: setitem(key, value, torch.int64))
# ---
# everyday reductions: dtypes of sum/prod/mean/all, half accumulation, empty reductions
b = torch.tensor([True, False, True])
i8 = torch.tensor([100, 100, 100], dtype=torch.int8)
u8 = torch.tensor([200, 100], dtype=torch.uint8)
i = torch.tensor([[1, 2], [3, 4]])
f16 = torch.tensor([60000.0, 60000.0], dtype=torch.float16)
for f in [
    lambda: b.sum(),
    lambda: i8.sum(),
    lambda: u8.sum(),
    lambda: i.sum(dtype=torch.float32),
    lambda: i.sum(0, dtype=torch.int8),
    lambda: b.prod(),
    lambda: i8.prod(),
    lambda: b.cumsum(0),
    lambda: i8.cumsum(0),
    lambda: i.mean(),
    lambda: b.mean(),
    lambda: i.mean(dtype=torch.float64),
    lambda: f16.mean(),
    lambda: f16.std(),
    lambda: f16.var(0),
    lambda: i.var(),
    lambda: i.std(),
    lambda: u8.all(),
    lambda: u8.any(),
    lambda: i.all(),
    lambda: torch.tensor([0.0, 0.5]).any(),
    lambda: torch.tensor([]).sum(),
    lambda: torch.tensor([]).prod(),
    lambda: torch.tensor([]).max(),
    lambda: torch.zeros(0, 3).amax(0),
    lambda: torch.zeros(0, 3).amin(1),
    lambda: torch.zeros(0, 3).amax(),
    lambda: torch.tensor([1, 3, 3, 2]).argmax(),
    lambda: torch.tensor([[1, 3, 3], [4, 4, 0]]).max(1),
    lambda: torch.tensor([2, 1, 2, 1, 0]).sort(stable=True),
    lambda: torch.tensor([2, 1, 2, 1, 0]).sort(descending=True, stable=True),
]:
    err(f)
try:
    torch.tensor([1, 2]).var()
except RuntimeError as e:
    print(e)
x = torch.arange(6).reshape(2, 3).t()
out(
    x.clone().stride(),
    x.clone(memory_format=torch.contiguous_format).stride(),
    x.contiguous().stride(),
    str(torch.contiguous_format),
    str(torch.channels_last),
)
# ---
# shifts, fmax/fmin, repeat_interleave, view(dtype), dot dtypes, rand of ints, tensor of str
i = torch.tensor([1, 2, -8])
for f in [
    lambda: i << 2,
    lambda: i >> 1,
    lambda: 1 << torch.tensor([1, 2]),
    lambda: i << torch.tensor([1, 2, 3]),
    lambda: torch.tensor([1.0]) << 1,
    lambda: torch.bitwise_left_shift(torch.tensor([1, 2], dtype=torch.int8), 7),
    lambda: torch.tensor([1], dtype=torch.uint8) << 9,
    lambda: i.bitwise_right_shift(70),
    lambda: torch.tensor([1, 2]) << 1.5,
    lambda: torch.fmax(torch.tensor([float("nan"), 1.0]), torch.tensor([2.0, float("nan")])),
    lambda: torch.fmin(torch.tensor([float("nan"), 1.0]), torch.tensor([float("nan"), 0.0])),
    lambda: i.repeat_interleave(2),
    lambda: torch.repeat_interleave(torch.tensor([2, 1])),
    lambda: torch.ones(2, 3).repeat_interleave(2, dim=1),
    lambda: i.repeat_interleave(torch.tensor([0, 2, 1])),
    lambda: torch.tensor([1.0, 2.0]).view(torch.int32),
    lambda: torch.tensor([1.0, 2.0]).view(torch.int16),
    lambda: torch.dot(torch.tensor([1, 2]), torch.tensor([1.0, 2.0])),
    lambda: torch.rand(2, dtype=torch.int64),
    lambda: torch.randn_like(i),
    lambda: torch.tensor(["a"]),
]:
    err(f)
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.tensor([2.0, float("nan")], requires_grad=True)
z = torch.fmax(x, y)
z.sum().backward()
out(z, x.grad, y.grad, x.repeat_interleave(2), x.repeat_interleave(torch.tensor([1, 2])))
x = torch.tensor([1.0, 2.0])
v = x.view(torch.int32)
v[0] = 0
out(x, x._version)
k = torch.tensor([3, 5])
k <<= 1
out(k)
# ---
# membership, can_cast, layout
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
out(2.0 in x, 5 in x, torch.tensor([1.0, 3.0]) in x, torch.tensor([9.0, 9.0]) in x)
err(lambda: "a" in x)
out(
    torch.can_cast(torch.float32, torch.int32),
    torch.can_cast(torch.int32, torch.bool),
    torch.can_cast(torch.bool, torch.int32),
    torch.can_cast(torch.int64, torch.float16),
)
out(str(x.layout), x.layout == torch.strided)


# ---
# in-place arithmetic checks: alpha types, lerp dtypes, random fills of ints, cumsum_,
# fill_diagonal_, sorting bools/unsigned/NaN descending; failures leave the tensor unchanged
def inplace(make, op):
    t = make()
    version = t._version
    err(lambda: op(t))
    out(t, t._version - version)


for make in [
    lambda: torch.tensor([1, 2, 3]),
    lambda: torch.tensor([1.0, 2.0, 3.0]),
    lambda: torch.tensor([True, False, True]),
    lambda: torch.tensor([1.0, 2.0, 3.0], dtype=torch.float16),
]:
    for op in [
        lambda t: t.add_(1, alpha=0.5),
        lambda t: t.add_(True, alpha=2),
        lambda t: t.sub_(torch.tensor([1, 1, 1]), alpha=2),
        lambda t: t.add_(1, alpha=True),
        lambda t: t.lerp_(torch.tensor([0.0, 0.0, 0.0]), 0.5),
        lambda t: t.uniform_(2.0, 2.0),
        lambda t: t.cumsum_(0),
        lambda t: t.cumprod_(0),
        lambda t: t.clamp_(1.5, 2.5),
        lambda t: t.add_(1.5),
        lambda t: t.mul_(torch.tensor(0.5)),
        lambda t: t.div_(2),
    ]:
        if op.__code__.co_argcount:
            inplace(make, op)
x = torch.ones(5, 3, requires_grad=True)
y = x * 1
y.fill_diagonal_(7, wrap=True)
y.sum().backward()
out(y, x.grad, torch.zeros(3, 5).fill_diagonal_(1), torch.zeros(2, 2, 2).fill_diagonal_(1))
err(lambda: torch.zeros(2, 3, 2).fill_diagonal_(1))
err(lambda: torch.zeros(3).fill_diagonal_(1))
for t in [
    torch.tensor([0, 3, 200, 3], dtype=torch.uint8),
    torch.tensor([-128, 5, 0], dtype=torch.int8),
    torch.tensor([1.0, float("nan"), 3.0, 1.0]),
    torch.tensor([True, False, True]),
]:
    out(t.sort(), t.sort(descending=True), t.argsort(descending=True, stable=True))
# ---
# reductions on integers and empty inputs: nansum keeps ints, arg/max errors, softmax kernels
i = torch.tensor([[1, 5], [3, 2]])
for f in [
    lambda: i.nansum(),
    lambda: i.nansum(0),
    lambda: torch.zeros(0, 2).max(0),
    lambda: torch.zeros(0, 2).max(1),
    lambda: torch.tensor([]).argmax(),
    lambda: torch.zeros(0, 2).argmin(0),
    lambda: torch.zeros(2, 0).argmax(0),
    lambda: torch.softmax(i, 0),
    lambda: torch.softmax(i, 1),
    lambda: torch.log_softmax(i, 0),
    lambda: torch.msort(i),
    lambda: i.msort(),
]:
    err(f)
try:
    torch.softmax(i, 0)
except NotImplementedError as e:
    print(e)
# ---
# creation: arange with integral dtypes and bad ranges, integer linspace, overflowing ints
for f in [
    lambda: torch.arange(0, 5, 1.5, dtype=torch.int64),
    lambda: torch.arange(0.5, 5, 1.5, dtype=torch.int64),
    lambda: torch.arange(0, 1, 0.3, dtype=torch.int64),
    lambda: torch.arange(0, 1, 0),
    lambda: torch.arange(-3),
    lambda: torch.arange(1, 0),
    lambda: torch.arange(0, float("inf")),
    lambda: torch.arange(0, float("nan")),
    lambda: torch.linspace(0, 10, 5, dtype=torch.int64),
    lambda: torch.linspace(-1, 1, 4, dtype=torch.int32),
    lambda: torch.tensor([2**63]),
    lambda: torch.tensor([2**64]),
    lambda: torch.tensor([-(2**63)]),
    lambda: torch.tensor([1, "a"]),
]:
    err(f)
for f in [lambda: torch.arange(1, 0), lambda: torch.arange(0, float("inf"))]:
    try:
        f()
    except RuntimeError as e:
        print(e)
# ---
# trapezoid, trapz, cumulative_trapezoid: values, dtypes, grad_fns and gradients
y = torch.tensor([1.0, 2.0, 4.0], requires_grad=True)
m = torch.tensor([[1.0, 2.0, 4.0], [0.0, 1.0, 3.0]], requires_grad=True)
x = torch.tensor([0.0, 1.0, 3.0])
results = [
    torch.trapezoid(y),
    torch.trapezoid(y, dx=2),
    torch.trapezoid(y, x),
    torch.trapz(y),
    torch.cumulative_trapezoid(y),
    torch.cumulative_trapezoid(y, dx=2),
    torch.trapezoid(m),
    torch.trapezoid(m, dim=0),
    torch.cumulative_trapezoid(m, x),
    torch.trapezoid(m, torch.tensor([[0.0, 1.0, 3.0], [0.0, 2.0, 3.0]])),
]
out(*results)
sum(r.sum() for r in results).backward()
out(y.grad, m.grad)
for f in [
    lambda: torch.trapezoid(torch.tensor([1, 2, 4])),
    lambda: torch.trapezoid(torch.tensor([1.0])),
    lambda: torch.cumulative_trapezoid(torch.tensor([1.0])),
    lambda: torch.trapezoid(torch.zeros(0)),
    lambda: torch.cumulative_trapezoid(torch.tensor([1, 2, 4])),
    lambda: torch.trapezoid(y, 0.5),
    lambda: torch.trapezoid(torch.ones(2, 3), dim=0),
]:
    err(f)
# ---
# losses and layers with integer or mismatched dtypes
x = torch.tensor([[1.0, 2.0, 3.0], [1.0, 0.0, -1.0]], requires_grad=True)
for f in [
    lambda: F.cross_entropy(x, torch.tensor([0, 2], dtype=torch.int32)),
    lambda: F.cross_entropy(x, torch.tensor([0, 2], dtype=torch.uint8)),
    lambda: F.nll_loss(x, torch.tensor([0.0, 2.0])),
    lambda: F.nll_loss(x, torch.tensor([True, False])),
    lambda: F.multi_margin_loss(x, torch.tensor([0, 1], dtype=torch.int32)),
    lambda: F.mse_loss(torch.tensor([1, 2]), torch.tensor([1, 3])),
    lambda: F.mse_loss(x, torch.ones(2, 3, dtype=torch.int64)),
    lambda: F.binary_cross_entropy(torch.sigmoid(x), torch.ones(2, 3, dtype=torch.int64)),
    lambda: F.binary_cross_entropy(torch.sigmoid(x), torch.ones(2, 3, dtype=torch.float64)),
    lambda: F.binary_cross_entropy_with_logits(x, torch.ones(2, 3, dtype=torch.int64)),
    lambda: F.binary_cross_entropy_with_logits(x, torch.ones(2, 3, dtype=torch.float64)),
    lambda: F.linear(torch.tensor([[1, 2, 3]]), torch.ones(2, 3)),
    lambda: F.linear(x.double(), torch.ones(2, 3)),
    lambda: F.linear(x, torch.ones(2, 3), torch.ones(2, dtype=torch.float64)),
    lambda: F.max_pool1d(torch.tensor([[[1, 3, 2, 4]]]), 2),
    lambda: F.max_pool1d(torch.tensor([[[1, 3, 2, 4]]]), 2, return_indices=True),
]:
    err(f)
for f in [
    lambda: F.nll_loss(x, torch.tensor([0.0, 2.0])),
    lambda: F.linear(x.double(), torch.ones(2, 3)),
]:
    try:
        f()
    except RuntimeError as e:
        print(e)
