# Fake quantization: per-tensor/per-channel fake_quantize ops, observers' qparams, STE for QAT
x = torch.tensor([-1.2, -0.3, 0.0, 0.26, 0.74, 1.9, 3.3], requires_grad=True)
y = torch.fake_quantize_per_tensor_affine(x, 0.1, 10, 0, 255)
print(y)
y.sum().backward()
print(x.grad, type(y.grad_fn).__name__)
out(y, x.grad)

w = torch.randn(3, 4, generator=torch.Generator().manual_seed(0)).requires_grad_()
scale = w.detach().abs().amax(dim=1) / 127
zero_point = torch.zeros(3, dtype=torch.int32)
wq = torch.fake_quantize_per_channel_affine(w, scale, zero_point, 0, -128, 127)
print(scale, wq.shape, type(wq.grad_fn).__name__)
(wq * torch.arange(4.0)).sum().backward()
out(wq, w.grad, scale)
err(lambda: torch.fake_quantize_per_tensor_affine(x, 0.1, 300, 0, 255))
err(lambda: torch.fake_quantize_per_channel_affine(w, scale, zero_point.float(), 0, -128, 127))

q = torch.quantize_per_tensor(torch.tensor([-1.0, 0.0, 0.5, 2.0]), 0.05, 10, torch.quint8)
print(q.int_repr(), q.dequantize(), q.q_scale(), q.q_zero_point())


def calc_qparams(min_val, max_val, quant_min=0, quant_max=255, symmetric=False):
    min_val_neg = torch.min(min_val, torch.zeros_like(min_val))
    max_val_pos = torch.max(max_val, torch.zeros_like(max_val))
    eps = torch.finfo(torch.float32).eps
    if symmetric:
        max_val_pos = torch.max(-min_val_neg, max_val_pos)
        scale = max_val_pos / (float(quant_max - quant_min) / 2)
        scale = torch.max(scale, torch.tensor(eps))
        zero_point = torch.full_like(scale, (quant_min + quant_max + 1) // 2, dtype=torch.int64)
    else:
        scale = (max_val_pos - min_val_neg) / float(quant_max - quant_min)
        scale = torch.max(scale, torch.tensor(eps))
        zero_point = quant_min - torch.round(min_val_neg / scale).to(torch.int)
        zero_point = torch.clamp(zero_point, quant_min, quant_max)
    return scale, zero_point


class FakeQuant(nn.Module):
    def __init__(self, averaging_constant=0.1, symmetric=False):
        super().__init__()
        self.register_buffer("min_val", torch.tensor(float("inf")))
        self.register_buffer("max_val", torch.tensor(float("-inf")))
        self.c = averaging_constant
        self.symmetric = symmetric

    def forward(self, x):
        if self.training:
            mn, mx = torch.aminmax(x.detach())
            if torch.isinf(self.min_val):
                self.min_val.copy_(mn)
                self.max_val.copy_(mx)
            else:
                self.min_val.add_(self.c * (mn - self.min_val))
                self.max_val.add_(self.c * (mx - self.max_val))
        scale, zp = calc_qparams(self.min_val, self.max_val, symmetric=self.symmetric)
        return torch.fake_quantize_per_tensor_affine(x, scale.item(), int(zp.item()), 0, 255)


class STERound(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return torch.round(x)

    @staticmethod
    def backward(ctx, g):
        return g


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), FakeQuant(), nn.Linear(12, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data, target = torch.randn(32, 6), torch.randn(32, 2)
for step in range(4):
    loss = F.mse_loss(model(data), target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    fq = model[2]
    print(f"step {step} loss {loss.item():.5f} [{fq.min_val.item():.4f}, {fq.max_val.item():.4f}]")
out(model[0].weight.grad)
print(
    calc_qparams(torch.tensor([-0.5, 0.0]), torch.tensor([2.0, 1.0])),
    calc_qparams(torch.tensor(-0.5), torch.tensor(2.0), -128, 127, True),
)
z = torch.tensor([0.4, 1.5, 2.5, -0.5], requires_grad=True)
r = STERound.apply(z * 2)
r.sum().backward()
print(r, z.grad)
out(
    torch.round(torch.tensor([0.5, 1.5, 2.5, -2.5])),
    torch.round(torch.tensor([1.2345, 9.8765]), decimals=2),
)
