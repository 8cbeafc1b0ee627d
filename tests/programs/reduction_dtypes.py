# reductions dtypes on ints, bools and float16
i = torch.tensor([[1, 2], [3, 4]], dtype=torch.int32)
b = torch.tensor([True, False, True])
h = torch.tensor([1.0, 2.0], dtype=torch.float16)
out(
    i.sum(),
    i.sum(0),
    i.prod(),
    i.max(),
    i.amax(0),
    i.max(0),
    b.sum(),
    b.prod(),
    b.max(),
    h.sum(),
    h.mean(),
    h.prod(),
    h.var(),
    h.norm(),
)
out(
    torch.tensor([200, 100], dtype=torch.uint8).sum(),
    torch.tensor([100, 100], dtype=torch.int8).sum(dtype=torch.int8),
)
err(lambda: i.norm())
err(lambda: i.std())
err(lambda: i.logsumexp(0))
out(i.logsumexp(0) if False else 0, i.softmax(0) if False else 0)
err(lambda: i.softmax(0))
err(lambda: i.log_softmax(0))
out(i.softmax(0, dtype=torch.float32))
out(torch.tensor([1, 2]).float().mean(), torch.tensor([1, 2]).mean(dtype=torch.float32))
# ---
# reduction overloads: dim=None given vs omitted, keepdim without dim, unbiased with correction
x = torch.arange(6.0).view(2, 3).requires_grad_()
err(lambda: x.sum(dim=None, keepdim=True))
err(lambda: x.sum(None))
err(lambda: x.sum(None, True))
err(lambda: x.mean(None, True))
err(lambda: x.mean(dim=None))
err(lambda: torch.sum(x, keepdim=True))
err(lambda: x.prod(None))
err(lambda: x.max(None))
err(lambda: torch.max(x, dim=None))
err(lambda: x.min(keepdim=True))
err(lambda: x.amax(None))
err(lambda: x.var(None, keepdim=True))
err(lambda: x.std(unbiased=False, correction=0))
err(lambda: x.var(0, True, correction=1))
err(lambda: x.sum(dtype=torch.float64, keepdim=True))
err(lambda: x.max(1, True))
err(lambda: x.max(dim=1, keepdim=True))
err(lambda: x.prod(1, True))
err(lambda: x.prod(dim=1, keepdim=False))
err(lambda: x.sum(1, keepdim=True))
err(lambda: x.mean((0, 1), True))
err(lambda: torch.sum(x, 0, True, dtype=torch.float64))
err(lambda: torch.max(x))
err(lambda: torch.min(x, 0))
err(lambda: torch.prod(x))
err(lambda: x.sum(()))
err(lambda: x.mean(dim=()))
err(lambda: x.sum(0))
err(lambda: x.mean())
err(lambda: x.sum())
# ---
# std_mean / var_mean: one node for both outputs
x = torch.tensor([[1.0, 2.0, 4.0], [3.0, 5.0, 9.0]], requires_grad=True)
r = [
    torch.std_mean(x, 1),
    torch.var_mean(x, 0, keepdim=True),
    torch.var_mean(x),
    torch.std_mean(x, correction=0),
    torch.std_mean(x, (0, 1), True),
    torch.var_mean(x, 1, unbiased=False),
]
out(r)
tot = 0
for a, b in r:
    tot = tot + a.sum() * 2 + b.sum() * 3
tot.backward()
out(x.grad)
x.grad = None
s, m = torch.std_mean(x, 1)
s.sum().backward()
out(x.grad)
err(lambda: torch.var_mean(torch.tensor([1, 2])))
err(lambda: torch.std_mean(x, 1, unbiased=True, correction=0))
g = torch.autograd.grad(torch.var_mean(x, 1)[0].sum(), x, create_graph=True)[0]
out(g, torch.autograd.grad(g.sum(), x, allow_unused=True))
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
