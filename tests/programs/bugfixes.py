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
