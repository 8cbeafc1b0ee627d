# floating point is not associative: a sum's order changes its last bits
a = torch.tensor([1e8, 1.0, -1e8], dtype=torch.float32)
out(a.sum(), (a[0] + a[1]) + a[2], a[0] + (a[1] + a[2]))
x = torch.tensor([0.1, 0.2, 0.3], dtype=torch.float64)
out(x.sum().item() == 0.6, torch.isclose(x.sum(), torch.tensor(0.6, dtype=torch.float64)))
out(torch.finfo(torch.float32).eps, torch.finfo(torch.float16).max, torch.finfo(torch.bfloat16).eps)
out(torch.finfo(torch.float64).tiny, torch.iinfo(torch.int8).min, torch.iinfo(torch.uint8).max)
# ---
# extremal values and special functions: log1p/expm1 keep small values exact
x = torch.tensor([1e-10], dtype=torch.float32)
out(torch.log(1 + x), torch.log1p(x), torch.exp(x) - 1, torch.expm1(x))
y = torch.tensor([1e20, -1e20, 100.0], dtype=torch.float32)
out(torch.exp(y), torch.sigmoid(y), torch.softmax(torch.tensor([1000.0, 0.0]), 0))
out(
    torch.logsumexp(torch.tensor([1000.0, 1000.0]), 0),
    torch.log(torch.exp(torch.tensor([1000.0])).sum()),
)
out(torch.tensor([1e-45], dtype=torch.float32), torch.tensor([3e38]) * 10, torch.tensor([0.0]) / 0)
# ---
# linear algebra: inversion of an ill-conditioned matrix
a = torch.tensor([[1.0, 1.0], [1.0, 1.0 + 1e-7]], dtype=torch.float64)
out(torch.linalg.cond(a) > 1e6, torch.linalg.matrix_rank(a))
b = torch.tensor([[2.0, 1.0], [1.0, 3.0]], dtype=torch.float64)
x = torch.linalg.solve(b, torch.tensor([1.0, 2.0], dtype=torch.float64))
out(x, torch.allclose(b @ x, torch.tensor([1.0, 2.0], dtype=torch.float64)))
out(torch.linalg.inv(b) @ torch.tensor([1.0, 2.0], dtype=torch.float64))
# ---
# TensorFloat-32 and reduced precision reductions are settings (CPU: no effect)
out(torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32)
out(torch.get_float32_matmul_precision())
torch.set_float32_matmul_precision("high")
out(torch.get_float32_matmul_precision())
torch.set_float32_matmul_precision("highest")
out(torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction)
h = torch.tensor([1000.0, 0.1], dtype=torch.float16)
out(h.sum(), h.float().sum(), h.double().sum(), (h * h).dtype)
bf = torch.tensor([1.0, 1e-3], dtype=torch.bfloat16)
out((bf + 1).float(), bf.float() + 1, (bf + 1).dtype)
