# tensor creation dtypes
out(torch.tensor(1.5), torch.tensor([1, 2]), torch.tensor([True, False]), torch.tensor([1, 2.0]))
out(torch.tensor([]), torch.tensor([[]]), torch.zeros(0, 3), torch.tensor(3))
out(torch.tensor([1, 2], dtype=torch.float16), torch.tensor(2**40))
err(lambda: torch.tensor([1, 2], requires_grad=True))
err(lambda: torch.tensor([[1, 2], [3]]))
print(torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True))
print(torch.tensor([], requires_grad=True))
print(torch.zeros(2, 0))
print(torch.tensor(3, dtype=torch.int8))
print(torch.tensor([1.5, 2.25], dtype=torch.float16))
print(torch.tensor([[True, False]]))
# ---
# creation functions
out(torch.arange(5), torch.arange(1, 4, 0.5), torch.arange(0, -3, -1), torch.arange(5.0))
out(torch.linspace(0, 1, 5), torch.linspace(0, 1, 1), torch.linspace(0, 1, 0))
out(torch.eye(3), torch.eye(2, 3), torch.eye(0))
out(torch.full((2,), 3), torch.full((2,), 3.0), torch.full((2,), True))
out(torch.zeros(()), torch.ones((2, 3), dtype=torch.int32), torch.empty(0).shape)
out(
    torch.zeros_like(torch.tensor([1, 2])),
    torch.ones_like(torch.tensor([1.0]), dtype=torch.float64),
)
out(torch.full_like(torch.tensor([1, 2]), 2.7), torch.arange(10, dtype=torch.float64))
err(lambda: torch.arange(0, 5, 0))
err(lambda: torch.zeros(-1))
err(lambda: torch.ones_like([1.0]))
x = torch.zeros(2, 3, requires_grad=True)
out(torch.zeros_like(x), torch.empty_like(x).shape, torch.rand_like(x).shape)
out(torch.randint(0, 5, (3,)).dtype, torch.randint(5, (2, 2)).shape, torch.randint_like(x, 3).dtype)
out(torch.ones(2, requires_grad=True), torch.eye(2, requires_grad=True))
err(lambda: torch.ones(2, dtype=torch.int64, requires_grad=True))
# ---
# manual_seed reproducibility
torch.manual_seed(3)
a = torch.rand(3)
torch.manual_seed(3)
b = torch.rand(3)
out(torch.equal(a, b), torch.randn(2, 3).shape, torch.randn(()).shape, torch.rand(0).shape)
g = torch.Generator().manual_seed(1)
out(torch.rand(2, generator=g).shape)
# ---
# from_numpy and numpy sharing
a = np.arange(4.0)
t = torch.from_numpy(a)
a[0] = 10
out(t, t.dtype)
t[1] = 20
out(a.tolist())
out(torch.from_numpy(np.array([1, 2], dtype=np.int32)), torch.from_numpy(np.array(True)))
out(torch.from_numpy(np.zeros((2, 3), dtype=np.float32).T).shape)
x = torch.ones(2, requires_grad=True)
err(lambda: x.numpy())
out(x.detach().numpy().tolist())
out(torch.tensor(np.float64(1.5)), torch.tensor(np.array([1, 2], dtype=np.uint8)))
out(torch.as_tensor([1, 2]), torch.as_tensor(a).dtype)
# ---
# default dtype float32, python float no float64
out(
    torch.tensor([1.0]) * 2.5,
    torch.tensor([1]) * 2.5,
    torch.tensor([1]) / 2,
    torch.tensor([1]) // 2,
)
out(torch.tensor([True]) + 1, torch.tensor([True]) + True)
out(
    torch.tensor([1.0], dtype=torch.float16) + torch.tensor([1.0]),
    torch.tensor([1.0], dtype=torch.float16) + 1.0,
)
out(torch.tensor([1], dtype=torch.uint8) + torch.tensor([1], dtype=torch.int8))
out(
    torch.tensor(1.0, dtype=torch.float64) + torch.tensor([1.0]),
    torch.tensor(1, dtype=torch.int64) + torch.tensor([1], dtype=torch.int8),
)
out(torch.tensor([1.0], dtype=torch.float16) * torch.tensor(2.0, dtype=torch.float64))
out(
    torch.tensor([1, 2]) ** 2,
    torch.tensor([1, 2]) ** 0.5,
    2 ** torch.tensor([1, 2]),
    2.0 ** torch.tensor([1, 2]),
)
err(lambda: torch.tensor([1, 2]) ** -1)
out(torch.tensor([True, False]) * torch.tensor([True, True]))
err(lambda: -torch.tensor([True]))
out(torch.get_default_dtype())
torch.set_default_dtype(torch.float64)
out(
    torch.tensor([1.0]),
    torch.tensor(1.0),
    torch.zeros(1),
    torch.arange(2.0),
    torch.tensor([1]) * 1.5,
)
# ---
# tensor() from odd data
out(
    torch.tensor([torch.tensor(1.0), torch.tensor(2.0)]),
    torch.tensor(torch.tensor([1, 2])),
    torch.tensor([np.float32(1.5), 2]),
)
out(
    torch.tensor((1, 2.5)),
    torch.tensor([[1], [2]], dtype=torch.float16),
    torch.tensor(np.array([[1.5]])),
    torch.tensor(range(3)),
)
out(
    torch.tensor([1, True]),
    torch.tensor([True, 2.5]),
    torch.tensor([np.int8(3)]),
    torch.tensor(np.int32(3)),
    torch.tensor(np.bool_(True)),
)
err(lambda: torch.tensor(None))
err(lambda: torch.tensor("abc"))
err(lambda: torch.tensor([1, "a"]))
err(lambda: torch.tensor([[1, 2], 3]))
err(lambda: torch.tensor([torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])]))
err(
    lambda: (
        torch.from_numpy(np.array([1.0], dtype=np.float128))
        if hasattr(np, "float128")
        else torch.from_numpy(np.array(["a"]))
    )
)
err(lambda: torch.from_numpy([1.0]))
out(torch.from_numpy(np.array([1, 2], dtype=np.int16)), torch.from_numpy(np.zeros((0, 2))))
out(
    torch.tensor([1.0, 2.0], dtype=torch.int32),
    torch.tensor([1.9, -1.9], dtype=torch.int64),
    torch.tensor(3.7, dtype=torch.bool),
)
out(torch.tensor([], dtype=torch.bool), torch.tensor([[]]).shape, torch.tensor([[], []]).shape)
out(
    torch.as_tensor(np.array([1.0, 2.0]), dtype=torch.float32),
    torch.as_tensor(torch.tensor([1, 2]), dtype=torch.float64),
)
a = np.array([1.0, 2.0])
t = torch.as_tensor(a)
a[0] = 9.0
out(t)
out(torch.tensor([1.0, 2.0]).numpy().dtype == np.float32, torch.tensor(5).numpy().shape)
err(lambda: torch.zeros(2, 3, dtype="float32"))
out(
    torch.zeros((2, 3), dtype=torch.float16).dtype,
    torch.zeros([2]),
    torch.ones(torch.Size([1, 2])),
    torch.zeros(2, dtype=torch.int8).dtype,
)
err(lambda: torch.zeros(2.5))
err(lambda: torch.ones((2, -3)))
out(torch.full((2,), 1.5, dtype=torch.int64), torch.full((), 7), torch.full([2, 1], False))
out(
    torch.eye(2, dtype=torch.int64),
    torch.arange(3, dtype=torch.float16),
    torch.arange(0.0, 1.0, 0.25, dtype=torch.float64),
)
err(lambda: torch.arange(0, 10, -1))
err(lambda: torch.arange(float("nan")))
err(lambda: torch.linspace(0, 1, -1))
err(lambda: torch.eye(-1))
out(
    torch.empty(2, 3).shape,
    torch.empty((0,)).shape,
    torch.empty(2, requires_grad=True).requires_grad,
)
torch.manual_seed(5)
r1 = torch.randint(3, 10, (100,))
out(
    int(r1.min()) >= 3,
    int(r1.max()) < 10,
    r1.dtype,
    torch.rand(3, dtype=torch.float64).dtype,
    torch.randn(2, 2, dtype=torch.float16).dtype,
)
err(lambda: torch.randint(5, 2, (3,)))
err(lambda: torch.rand(2, dtype=torch.int64))
err(lambda: torch.randn(2, dtype=torch.int32))
out(
    torch.randint(2, (3,), dtype=torch.float32).dtype,
    torch.randint_like(torch.zeros(2, dtype=torch.float64), 5).dtype,
)
out(
    torch.rand(()).shape,
    torch.rand(2, 0).shape,
    torch.randn([]).shape,
    float(torch.rand(1000).mean()) > 0.4,
)
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
