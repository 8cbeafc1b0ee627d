# tensor api
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
out(
    x.size(),
    x.shape,
    x.dim(),
    x.ndim,
    x.numel(),
    x.dtype,
    x.is_leaf,
    x.requires_grad,
    x.grad,
    x.tolist(),
    x[0, 0].item(),
    x.T,
    x.t(),
    x.float(),
    x.double(),
    x.long(),
    x.int(),
    x.half(),
    x.bool(),
    x.to(torch.float64),
    x.to(dtype=torch.int32),
    x.type(torch.float64),
)
out(
    x.clone(),
    x.contiguous(),
    x.is_contiguous(),
    x.t().is_contiguous(),
    x.stride(),
    x.t().stride(),
    x.element_size(),
    x.storage_offset(),
    x[1].storage_offset(),
)
out(
    torch.is_tensor(x),
    torch.is_floating_point(x),
    x.is_floating_point(),
    torch.numel(x),
    x.new_zeros(3),
    x.new_ones((2,)),
    x.new_tensor([1, 2]),
    x.new_full((2,), 3.0),
    x.new_empty(2).shape,
)
# ---
# factories
torch.manual_seed(0)
out(
    torch.zeros(2, 3),
    torch.ones((2, 3)),
    torch.full((2,), 1.5),
    torch.full((2,), 2),
    torch.full((2,), True),
    torch.arange(5),
    torch.arange(1, 4, 0.5),
    torch.arange(0, 1, 0.25, dtype=torch.float64),
    torch.linspace(0, 1, 5),
    torch.eye(3),
    torch.eye(2, 3),
    torch.empty(2, 3).shape,
    torch.zeros_like(torch.ones(2, dtype=torch.int32)),
    torch.ones_like(torch.ones(2), dtype=torch.float64),
    torch.full_like(torch.ones(2), 7),
    torch.empty_like(torch.ones(3)).shape,
)
out(
    torch.rand(3).shape,
    torch.randn(2, 2).dtype,
    torch.randint(0, 10, (3,)).dtype,
    torch.randint(5, (2, 2)).shape,
    torch.rand_like(torch.ones(2)).shape,
    torch.randn_like(torch.ones(2, dtype=torch.float64)).dtype,
    torch.randint_like(torch.ones(2), 5).dtype,
    torch.randperm(5).dtype,
    torch.zeros(2, 3, requires_grad=True),
    torch.tensor(2.5).dtype,
    torch.tensor(2).dtype,
    torch.tensor([True]).dtype,
    torch.tensor([1, 2.0]).dtype,
    torch.tensor([[1], [2]], dtype=torch.float16).dtype,
)
err(lambda: torch.tensor([[1, 2], [3]]))
err(lambda: torch.zeros(-1))
err(lambda: torch.arange(0, 10, 0))
out(
    torch.get_default_dtype(),
    torch.tensor(np.array([1.0, 2.0])).dtype,
    torch.from_numpy(np.array([1, 2], dtype=np.int32)).dtype,
    torch.as_tensor([1, 2]),
    torch.as_tensor(np.ones(2)).dtype,
)
# ---
# default dtype
torch.set_default_dtype(torch.float64)
out(
    torch.tensor([1.0]).dtype,
    torch.ones(2).dtype,
    torch.arange(2.0).dtype,
    torch.tensor([1]).dtype,
    torch.rand(1).dtype,
    torch.tensor(1.0) + torch.tensor(1, dtype=torch.int32),
)
torch.set_default_dtype(torch.float32)
out(torch.ones(1).dtype)
# ---
# leaf accumulation, zero_
w = torch.tensor([1.0, 2.0], requires_grad=True)
for _ in range(3):
    (w * w).sum().backward()
out(w.grad)
w.grad.zero_()
out(w.grad)
w.grad = None
(w * 3).sum().backward()
out(w.grad)
err(lambda: setattr(w, "grad", torch.ones(3)))
err(lambda: setattr(w, "grad", torch.ones(2, dtype=torch.int64)))
# ---
# requires_grad handling
x = torch.ones(2)
out(x.requires_grad_(), x.is_leaf)
y = x * 2
err(lambda: y.requires_grad_(False))
out(y.detach().requires_grad_().is_leaf)
z = torch.ones(2, dtype=torch.int64)
err(lambda: z.requires_grad_())
out(
    (x > 0).requires_grad,
    x.argmax().requires_grad,
    x.long().requires_grad,
    x.double().requires_grad,
    x.double().grad_fn.name(),
)
# ---
# backward with gradient arg / non-scalar
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
err(lambda: y.backward())
y.backward(torch.tensor([1.0, 0.1, 0.01]))
out(x.grad)
err(lambda: (x * 2).backward(torch.ones(2)))
x.grad = None
torch.autograd.backward([(x * 2).sum(), (x * 3).sum()])
out(x.grad)
x.grad = None
torch.autograd.backward([(x * 2), (x * 3)], [torch.ones(3), torch.ones(3)])
out(x.grad)
# ---
# inputs= argument
a = torch.tensor(1.0, requires_grad=True)
b = torch.tensor(2.0, requires_grad=True)
c = a * b
c.backward(inputs=[a])
out(a.grad, b.grad)
# ---
# grad of non-leaf
x = torch.tensor([1.0], requires_grad=True)
y = x * 2
z = y * 3
z.backward()
import warnings

with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    g = y.grad
out(g, len(w) > 0)
# ---
# pow variants and special values
x = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
y = x**0.5
y.sum().backward()
out(x.grad)
x.grad = None
(x**2).sum().backward()
out(x.grad)
x.grad = None
(x**0).sum().backward()
out(x.grad)
x.grad = None
(x.sqrt()).sum().backward()
out(x.grad)
x.grad = None
(x.abs()).sum().backward()
out(x.grad)
x.grad = None
x.clamp(0, 1).sum().backward()
out(x.grad)
x.grad = None
x.relu().sum().backward()
out(x.grad)
x.grad = None
torch.maximum(x, torch.ones(3)).sum().backward()
out(x.grad)
x.grad = None
x.max().backward()
out(x.grad)
x.grad = None
x.norm().backward()
out(x.grad)
y = torch.zeros(3, requires_grad=True)
y.norm().backward()
out(y.grad)
# ---
# max with ties
x = torch.tensor([1.0, 3.0, 3.0], requires_grad=True)
x.max().backward()
out(x.grad)
x.grad = None
x.amax().backward()
out(x.grad)
x.grad = None
x.max(0).values.backward()
out(x.grad)
x.grad = None
torch.max(x, torch.tensor([3.0, 3.0, 1.0])).sum().backward()
out(x.grad)
x.grad = None
x.min().backward()
out(x.grad)
# ---
# std/var edge
x = torch.tensor([1.0], requires_grad=True)
import warnings

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    out(x.var(), x.std(), torch.ones(0).sum(), torch.ones(0).mean(), torch.ones(0).prod())
err(lambda: torch.ones(0).max())
out(torch.ones(2, 0).sum(1), torch.ones(2, 0).amax(0))
# ---
# scalar tensor ops
a = torch.tensor(2.0, requires_grad=True)
b = a * 3
out(b, b.shape, b.item(), float(b), int(b), bool(b > 1), b.dim(), b.numel())
b.backward()
out(a.grad)
err(lambda: len(b))
err(lambda: b[0])
out(
    torch.tensor([5.0])[0],
    torch.tensor(5.0).reshape(1),
    torch.tensor(5.0).expand(3),
    torch.tensor(5.0).unsqueeze(0),
)
# ---
# finfo
for d in [torch.float16, torch.float32, torch.float64]:
    f = torch.finfo(d)
    out(repr(f), f.bits, f.eps, f.max, f.min, f.tiny, f.smallest_normal, f.resolution, f.dtype)
out(repr(torch.finfo()))
for d in [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64]:
    i = torch.iinfo(d)
    out(repr(i), i.bits, i.max, i.min, i.dtype)
err(lambda: torch.finfo(torch.int32))
err(lambda: torch.iinfo(torch.float32))
