# torch.testing.assert_close in unit-test style: tolerances, dtype/device checks, printed messages
torch.manual_seed(0)


def check(fn):
    try:
        fn()
        print("ok")
    except AssertionError as e:
        print(type(e).__name__)
        print(str(e))
    except Exception as e:
        print("other", type(e).__name__)


actual = torch.tensor([1.0, 2.0, 3.0])
expected = torch.tensor([1.0, 2.0, 3.0001])
check(lambda: torch.testing.assert_close(actual, expected))
check(lambda: torch.testing.assert_close(actual, torch.tensor([1.0, 2.5, 3.0])))
check(lambda: torch.testing.assert_close(actual, torch.tensor([1.0, 2.5, 3.0]), rtol=0.3, atol=0))
check(lambda: torch.testing.assert_close(actual, actual.double()))
check(lambda: torch.testing.assert_close(actual, actual.double(), check_dtype=False))
check(lambda: torch.testing.assert_close(actual, actual[:2]))
check(lambda: torch.testing.assert_close(torch.tensor([1, 2, 3]), torch.tensor([1, 2, 4])))
check(lambda: torch.testing.assert_close(torch.tensor(float("nan")), torch.tensor(float("nan"))))
check(
    lambda: torch.testing.assert_close(
        torch.tensor(float("nan")), torch.tensor(float("nan")), equal_nan=True
    )
)
check(lambda: torch.testing.assert_close(1.0, 1.0 + 1e-9))
check(lambda: torch.testing.assert_close([actual, 2], [actual, 3]))
check(lambda: torch.testing.assert_close({"a": actual}, {"a": actual + 1}))
check(lambda: torch.testing.assert_close(actual, [1.0, 2.0, 3.0]))
check(lambda: torch.testing.assert_close(actual, expected, rtol=1e-3))
check(lambda: torch.testing.assert_close(actual, expected, msg="custom message"))
check(lambda: torch.testing.assert_close(torch.zeros(2, 2), torch.eye(2)))
# ---
# Comparing a hand-written layer with the built-in one, as tests do, with allclose/isclose
torch.manual_seed(0)


class MyLayerNorm(nn.Module):
    def __init__(self, dim, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))
        self.bias = nn.Parameter(torch.zeros(dim))

    def forward(self, x):
        mean = x.mean(-1, keepdim=True)
        var = x.var(-1, keepdim=True, unbiased=False)
        return (x - mean) / torch.sqrt(var + self.eps) * self.weight + self.bias


x = torch.randn(3, 7, requires_grad=True)
mine, ref = MyLayerNorm(7), nn.LayerNorm(7)
a, b = mine(x), ref(x)
torch.testing.assert_close(a, b, rtol=1e-5, atol=1e-5)
ga = torch.autograd.grad(a.sum() * 0 + (a**2).sum(), x)[0]
gb = torch.autograd.grad((b**2).sum(), x)[0]
print(torch.allclose(ga, gb, atol=1e-5), torch.isclose(ga, gb, atol=1e-5).all().item())
print((a - b).abs().max() < 1e-5)
print(torch.equal(a, b), ((a - b).abs() <= 1e-6).float().mean())
print(torch.testing.assert_close(a.detach(), b.detach()) is None)
out(a, b, ga)
# ---
# assert_close on model outputs and state dicts: NaNs inside tensors, integer grids, msg callables
torch.manual_seed(0)


def report(fn):
    try:
        fn()
        print("passed")
    except (AssertionError, ValueError, TypeError) as e:
        print(f"{type(e).__name__}: {e}")


a = torch.tensor([[1.0, float("nan")], [3.0, 4.0]])
report(lambda: torch.testing.assert_close(a, torch.tensor([[1.0, 2.0], [3.0, 4.5]])))
report(lambda: torch.testing.assert_close(a, a.clone(), equal_nan=True))
report(
    lambda: torch.testing.assert_close(
        torch.arange(6).view(2, 3), torch.arange(6).view(2, 3).flip(1)
    )
)
report(lambda: torch.testing.assert_close(torch.tensor([True, False]), torch.tensor([True, True])))
report(lambda: torch.testing.assert_close(torch.tensor(2.0), torch.tensor(0.0)))
report(lambda: torch.testing.assert_close(1, 2))
report(lambda: torch.testing.assert_close(1.0, 1))
report(lambda: torch.testing.assert_close(a, a, atol=1e-3))
m1, m2 = nn.Linear(2, 2), nn.Linear(2, 2)
report(
    lambda: torch.testing.assert_close(
        m1.state_dict(), m2.state_dict(), msg=lambda m: f"state dicts differ:\n{m}"
    )
)
report(
    lambda: torch.testing.assert_close(
        [torch.zeros(2), (torch.ones(3), torch.ones(3))],
        [torch.zeros(2), (torch.ones(3), torch.full((3,), 1.5))],
    )
)
report(
    lambda: torch.testing.assert_close(
        torch.ones(2, dtype=torch.float64), torch.ones(2) + 1e-6, check_dtype=False
    )
)
report(lambda: torch.testing.assert_close(np.ones(3), np.zeros(3)))
