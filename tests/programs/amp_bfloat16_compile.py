# CPU autocast to bfloat16 inside a training step, torch.compile as a pass-through, dtype checks
torch.manual_seed(0)


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 16)
        self.norm = nn.LayerNorm(16)
        self.fc2 = nn.Linear(16, 4)

    def forward(self, x):
        h = self.fc1(x)
        self.h_dtype = h.dtype
        h = self.norm(F.gelu(h))
        self.norm_dtype = h.dtype
        return self.fc2(h)


model = MLP()
X, y = torch.randn(32, 8), torch.randint(0, 4, (32,))
compiled = torch.compile(model)
print(type(compiled).__name__ in ("OptimizedModule", "MLP"), compiled(X[:2]).shape)
opt = torch.optim.AdamW(model.parameters(), lr=1e-2)
for step in range(3):
    with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
        logits = model(X)  # torch's compiled kernels fuse ops and round differently
        loss = F.cross_entropy(logits, y)
    if step == 0:  # later steps round bfloat16 gradients, which may differ by an ulp
        out(logits.float(), loss.float())
    print(
        f"step {step}: logits {logits.dtype} loss {loss.dtype} h {model.h_dtype} "
        f"norm {model.norm_dtype} value {loss.item():.2f}"
    )
    opt.zero_grad()
    loss.backward()
    opt.step()
print(model.fc1.weight.dtype, model.fc1.weight.grad.dtype)
print(torch.is_autocast_enabled("cpu"), torch.get_autocast_dtype("cpu"))
with torch.autocast("cpu"):
    print(torch.is_autocast_enabled("cpu"), (X @ X.T).dtype, torch.get_autocast_dtype("cpu"))
    with torch.autocast("cpu", enabled=False):
        print((X @ X.T).dtype)
with torch.autocast("cpu", dtype=torch.bfloat16):
    a = torch.mm(X, X.T)
    b = torch.softmax(a, dim=-1)
    c = a + X.sum()
    d = torch.exp(a.float())
    print(a.dtype, b.dtype, c.dtype, d.dtype)
    print(F.layer_norm(a, (32,)).dtype, F.conv1d(X.unsqueeze(0), torch.randn(2, 32, 3)).dtype)


@torch.compile
def fused(x, y):
    return torch.sin(x) + torch.cos(y)


print(fused(torch.zeros(2), torch.zeros(2)))
f2 = torch.compile(lambda t: t * 2, mode="reduce-overhead", fullgraph=True, dynamic=False)
print(f2(torch.ones(2)))
compiled_opt_step = torch.compile(opt.step)
print(callable(compiled_opt_step))
print(
    torch.compiler.is_compiling(),
    torch._dynamo.is_compiling() if hasattr(torch, "_dynamo") else False,
)
# ---
# bfloat16 tensors by hand: casts, rounding, arithmetic promotion, finfo
x = torch.tensor([1.0, 1.00390625, 3.14159, 1e-3, 65504.0, 3e38])
b = x.to(torch.bfloat16)
print(b)
print(b.float())
print(b.dtype, b.element_size(), b.is_floating_point())
print(
    (b + 1).dtype,
    (b + torch.ones(6)).dtype,
    (b * 2.5).dtype,
    (b + torch.ones(6, dtype=torch.float16)).dtype,
)
print(torch.finfo(torch.bfloat16))
print(
    torch.finfo(torch.bfloat16).eps,
    torch.finfo(torch.bfloat16).max,
    torch.finfo(torch.bfloat16).tiny,
)
w = torch.randn(4, 4).bfloat16().requires_grad_(True)
loss = (w.float() ** 2).sum()
loss.backward()
print(w.grad.dtype, w.grad)
m = nn.Linear(4, 2).to(torch.bfloat16)
print(m.weight.dtype, m(torch.randn(3, 4, dtype=torch.bfloat16)).dtype)
print(torch.randn(3).bfloat16().sum(), torch.arange(5, dtype=torch.bfloat16))
out(b.float(), w.grad.float())
