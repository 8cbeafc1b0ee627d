# tensor reprs across dtypes and sizes, set_printoptions precision/sci_mode/threshold/linewidth
torch.manual_seed(0)
print(torch.randn(3, 3))
print(torch.tensor([1e-8, 1.0, 1e8]))
print(torch.tensor([0.1, 2.0, 300.5]), torch.tensor([1.0, 2.0]))
print(torch.arange(6, dtype=torch.int16).reshape(2, 3))
print(torch.tensor([True, False]), torch.tensor([], dtype=torch.float64))
print(torch.zeros(2, 0, 3), torch.tensor(3.5), torch.tensor(-0.0))
print(torch.tensor([float("nan"), float("inf"), -float("inf"), 1.5]))
print(torch.tensor([1, 2, 3], dtype=torch.uint8), torch.tensor([1.0, 2.0], dtype=torch.float16))
print(
    torch.tensor([1.0, 2.0], dtype=torch.float64),
    torch.tensor([[1.25, -2.5]], dtype=torch.bfloat16),
)
print(torch.tensor([1 + 2j, -0.5j]))
print(torch.randn(2, 3, requires_grad=True))
a = torch.randn(2, 2, requires_grad=True)
print(a * 2, a.sum(), a[0])
print(torch.arange(2000.0))
print(torch.randn(30, 30)[:3, :12])
torch.set_printoptions(precision=2)
print(torch.randn(4))
torch.set_printoptions(sci_mode=True)
print(torch.tensor([0.5, 12.0]))
torch.set_printoptions(sci_mode=False, precision=6)
print(torch.tensor([1e-5, 1.0]))
torch.set_printoptions(threshold=5, edgeitems=2)
print(torch.arange(10))
print(torch.arange(30).reshape(5, 6))
torch.set_printoptions(linewidth=40, threshold=1000)
print(torch.randn(2, 12))
torch.set_printoptions(profile="full")
print(torch.arange(1005)[-5:])
torch.set_printoptions(profile="default")
print(torch.linspace(0, 1, 7))
print(torch.tensor([123456.0, 0.001]))
print(torch.tensor([[1e10, 1.0]]), torch.tensor([100000.0, 1.0]))
print(
    repr(torch.tensor([1.0])),
    str(torch.tensor([1])),
    f"{torch.tensor(2.5):.2f}",
    f"{torch.tensor(7)}",
)
print(
    torch.tensor([1, 2]).shape, torch.Size([2, 3]), torch.float32, torch.int64, torch.device("cpu")
)
print(torch.tensor([1.0]).dtype, torch.finfo(torch.float32).eps, torch.iinfo(torch.int32).max)
print(torch.nn.Parameter(torch.ones(2)))
print(torch.ones(2, dtype=torch.float64, requires_grad=True) * 2)
print(torch.ones(3).to(torch.int32).view(3, 1))
