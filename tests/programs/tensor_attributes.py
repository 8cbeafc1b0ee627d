# attributes
x = torch.zeros(2, 3, 4)
out(x.shape, x.size(), x.size(1), x.size(-1), x.dim(), x.ndim, x.numel(), x.dtype, str(x.device))
err(lambda: x.size(3))
out(
    torch.tensor(1.0).shape,
    torch.tensor(1.0).dim(),
    torch.tensor(1.0).numel(),
    x.T.shape if False else x.permute(2, 1, 0).shape,
)
out(torch.zeros(2, 3).T.shape, torch.zeros(3).T.shape, torch.tensor(2.0).T)
out(
    torch.tensor([[1, 2]]).tolist(),
    torch.tensor(1.5).tolist(),
    torch.tensor([]).tolist(),
    torch.tensor([1.5]).item(),
)
err(lambda: torch.tensor([1.0, 2.0]).item())
err(lambda: torch.tensor([]).item())
out(
    type(torch.tensor(1).item()).__name__,
    type(torch.tensor(True).item()).__name__,
    type(torch.tensor(1.0, dtype=torch.float16).item()).__name__,
)
out(x.device, torch.tensor([1.0]).is_floating_point(), torch.tensor([1]).is_floating_point())
out(len(torch.zeros(3, 2)))
err(lambda: len(torch.tensor(1.0)))
# ---
# dtype conversion and to
x = torch.tensor([1.7, -2.5], requires_grad=True)
for y in [
    x.to(torch.float64),
    x.double(),
    x.float(),
    x.long(),
    x.int(),
    x.half(),
    x.bool(),
    x.to(torch.int8),
    x.to(dtype=torch.float16),
    x.type(torch.float64),
    x.to("cpu"),
    x.to(torch.zeros(1, dtype=torch.float64)),
]:
    out(y)
(x.double() * 2 + x.half().float()).sum().backward()
out(x.grad, x.to(torch.float32) is x, x.float() is x)
out(
    torch.tensor([300]).to(torch.uint8),
    torch.tensor([1.9, -1.9]).long(),
    torch.tensor([2.5]).to(torch.bool),
    torch.tensor([70000.0]).half(),
)
err(lambda: x.to("cuda:7"))
out(x.to(torch.float64).grad_fn.name(), x.long().requires_grad)
# ---
# Python protocol methods on tensors
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
s = torch.tensor(2.5)
out(
    list(x),
    [r.tolist() for r in x],
    float(s),
    int(s),
    bool(torch.tensor([1])),
    bool(torch.tensor(0.0)),
)
err(lambda: bool(x))
err(lambda: float(x))
err(lambda: iter(s))
err(lambda: list(s))
err(lambda: [1, 2][torch.tensor(1.0)])
out(
    [1, 2, 3][torch.tensor(1)],
    [1, 2, 3][torch.tensor([2])] if False else 0,
    3.0 in x,
    5 in x,
    torch.tensor(2) in torch.tensor([1, 2]),
)
out(
    int(torch.tensor([7])), float(torch.tensor([[7.5]])), complex(torch.tensor(1.0)) if False else 0
)
err(lambda: int(torch.tensor([1, 2])))
out(abs(torch.tensor([-1.0])), -x[0], +x[0], ~torch.tensor([True, False]), ~torch.tensor([1, 0]))
err(lambda: ~torch.tensor([1.0]))
out(
    x.__len__(),
    hash(x) == hash(x),
    x.numpy().flags["C_CONTIGUOUS"],
    x.t().numpy().shape,
    round(torch.tensor(2.567).item(), 1),
)
out(
    divmod(7, 2) if False else 0,
    torch.tensor([7]) % 3,
    torch.tensor([-7.5]) % 2,
    torch.tensor([7]) // 2,
    -7 // torch.tensor([2]),
    7 % torch.tensor([3]),
)
out(
    torch.tensor([1, 2]) & torch.tensor([3, 1]),
    torch.tensor([1, 2]) | 4,
    torch.tensor([True]) ^ True,
    torch.tensor([1]) << 2,
    torch.tensor([8]) >> 1,
)
err(lambda: torch.tensor([1.0]) & torch.tensor([1.0]))
err(lambda: torch.tensor([1.0]) % 0 if False else torch.tensor([1]) // 0)
out(torch.tensor([1.0]) // 0, torch.tensor([-1.0]) % 0, torch.tensor([1.0]) / 0)
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a**2 // 1
out(b.requires_grad, b.grad_fn.name() if b.grad_fn else None)
err(lambda: b.sum().backward())
err(lambda: torch.tensor([True]) // torch.tensor([True]))
out(torch.tensor([1, 2]) << 1, 1 << torch.tensor([2]), torch.tensor([-8]) >> 1)
err(lambda: torch.tensor([1.5]) << 1)
err(lambda: 3 in torch.tensor([1, 2]) or "a" in torch.tensor([1, 2]))
c = a % 1.5
c.sum().backward(retain_graph=True)
out(c, a.grad, c.grad_fn.name())
# ---
# Tensor methods: type(), new_* constructors, element_size, stride, is_contiguous, data_ptr equality
x = torch.arange(6.0).view(2, 3)
out(
    x.type(),
    torch.tensor([1]).type(),
    x.element_size(),
    x.stride(),
    x.t().stride(),
    x.t().is_contiguous(),
    x.nelement(),
)
out(
    x.new_zeros(2),
    x.new_ones((1, 2)),
    x.new_full((2,), 3),
    x.new_empty(3).shape,
    x.new_tensor([1, 2]),
    x.new_tensor([1, 2]).dtype,
)
out(x.new_zeros(2, dtype=torch.int64), torch.tensor([1], dtype=torch.int32).new_ones(2))
out(
    x[0].data_ptr() == x.data_ptr(),
    x[1].data_ptr() - x.data_ptr(),
    x.t().contiguous().data_ptr() == x.data_ptr(),
)
out(
    x.storage_offset(),
    x[1].storage_offset(),
    x[:, 1].storage_offset(),
    x.is_leaf,
    x.grad,
    x.grad_fn,
)
out(x.to(torch.float64).dtype, x.type(torch.int32).dtype, x.type("torch.DoubleTensor").dtype)
out(
    x.size(),
    x.size(-2),
    tuple(x.shape),
    x.shape[1:],
    x.shape == (2, 3),
    x.shape.numel(),
    list(x.size()),
)
out(
    x.dim() == len(x.shape),
    x.ndimension(),
    x.is_floating_point(),
    x.is_complex(),
    x.is_cuda,
    x.is_sparse,
    x.requires_grad,
)
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
# tensor predicates, layout, legacy constructors, memory flags
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
out(
    str(x.layout),
    repr(torch.strided),
    torch.strided == x.layout,
    x.layout is torch.strided,
)
out(
    type(torch.strided).__name__,
    isinstance(torch.strided, torch.layout),
    torch.zeros(2, layout=torch.strided),
)
out(
    torch.tensor([0.0]).is_nonzero(),
    torch.tensor(3).is_nonzero(),
    torch.is_nonzero(torch.tensor([[True]])),
)
out(torch.tensor(float("nan")).is_nonzero(), torch.tensor([-0.0]).is_nonzero())
err(lambda: torch.tensor([1.0, 2.0]).is_nonzero())
err(lambda: torch.tensor([]).is_nonzero())
dtypes = [torch.uint8, torch.bool, torch.int8, torch.float16, torch.int64, torch.float64]
out([torch.tensor([1], dtype=d).is_signed() for d in dtypes], torch.is_signed(x))
out(x.is_same_size(x * 2), torch.is_same_size(x, x[:2]), x.is_same_size(x.view(3, 1)))
out(x.is_cpu, x.is_cuda, x.is_sparse, x.is_quantized, x.is_meta, x.is_mkldnn, x.is_nested)
out([torch.can_cast(a, b) for a in dtypes for b in dtypes])
err(lambda: torch.can_cast(torch.ones(1), torch.float32))
out(x.new(2, 3).shape, x.new(torch.Size([2, 3])).shape, x.new([1, 2]), x.new((2, 3)), x.new())
out(torch.tensor([1]).new([1.5, 2.5]), x.new(torch.tensor([5.0, 6.0])), x.new(2).dtype)
err(lambda: x.new(torch.tensor([5, 6])))
err(lambda: x.new(2, dtype=torch.int64))
s = x.new_empty_strided((2, 3), (1, 2))
out(
    s.shape,
    s.stride(),
    s.dtype,
    s.requires_grad,
    x.new_empty_strided((2,), (1,), dtype=torch.int32).dtype,
)
out(x.is_pinned(), x.is_shared())
err(lambda: x.pin_memory())
t = x.detach().clone()
out(t.share_memory_() is t, t.is_shared(), x.share_memory_() is x)
