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
