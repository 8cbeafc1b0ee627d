# anomaly: error in backward keeps its type, report names forward line
import contextlib
import io


class MyFunc(torch.autograd.Function):
    @staticmethod
    def forward(ctx, inp):
        return inp.clone()

    @staticmethod
    def backward(ctx, gO):
        raise ValueError("boom")


a = torch.rand(10, requires_grad=True)
buf = io.StringIO()
with contextlib.redirect_stderr(buf):
    try:
        with torch.autograd.detect_anomaly():
            res = MyFunc.apply(a)
            res.sum().backward()
    except ValueError as e:
        print("ValueError", str(e))
text = buf.getvalue()
print("MyFuncBackward" in text, "Traceback of forward call" in text)
out(torch.is_anomaly_enabled())
# ---
# anomaly nan detection
x = torch.tensor([0.0, 1.0], requires_grad=True)
with torch.autograd.detect_anomaly():
    y = x.sqrt()
    try:
        (y * 0).sum().backward()
    except RuntimeError as e:
        print(str(e))
with torch.autograd.detect_anomaly():
    z = x / x
    try:
        z.sum().backward()
    except RuntimeError as e:
        print(str(e))
with torch.autograd.detect_anomaly(check_nan=False):
    w = x / x
    w.sum().backward()
out(x.grad)
# ---
# anomaly state restore, decorator, set_detect_anomaly forms
out(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
try:
    with torch.autograd.detect_anomaly():
        out(torch.is_anomaly_enabled())
        raise KeyError("k")
except KeyError:
    pass
out(torch.is_anomaly_enabled())

torch.autograd.set_detect_anomaly(True)
out(torch.is_anomaly_enabled())
torch.autograd.set_detect_anomaly(False)
with torch.autograd.set_detect_anomaly(True, check_nan=False):
    out(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
    with torch.autograd.set_detect_anomaly(False):
        out(torch.is_anomaly_enabled())
    out(torch.is_anomaly_enabled())
out(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
out(
    type(torch.autograd.detect_anomaly()).__name__,
    type(torch.autograd.set_detect_anomaly(False)).__name__,
)
# ---
# anomaly with saved tensor version error keeps RuntimeError
x = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.autograd.detect_anomaly():
    y = x * 1
    z = y.exp()
    y.add_(1)
    err(lambda: z.sum().backward())
    q = x.exp()
    err(lambda: q.backward())
# ---
# anomaly: nan in double backward, in custom Function backward, and in a hook
x = torch.tensor([0.0, 1.0], requires_grad=True)
with torch.autograd.detect_anomaly():
    y = (x**1.5).sum()
    (g,) = torch.autograd.grad(y, x, create_graph=True)
    out(g)
    try:
        torch.autograd.grad(g.sum(), x)
    except RuntimeError as e:
        print(str(e))


class NanBack(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        return t * 1

    @staticmethod
    def backward(ctx, g):
        return g * float("nan")


with torch.autograd.detect_anomaly():
    try:
        NanBack.apply(x).sum().backward()
    except RuntimeError as e:
        print(str(e))
    z = x * 2
    z.register_hook(lambda g: g * float("nan"))
    try:
        z.sum().backward()
    except RuntimeError as e:
        print(type(e).__name__, str(e))
out(x.grad)
with torch.autograd.detect_anomaly(check_nan=False):
    NanBack.apply(x).sum().backward()
out(x.grad)
