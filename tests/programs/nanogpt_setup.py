# nanoGPT-style configuration at module level on a CPU-only machine
# The training script picks a device and dtype, builds a scaler and an autocast context
# before any model exists, then trains a tiny character model with them.
from contextlib import nullcontext

device = "cuda" if torch.cuda.is_available() else "cpu"
device_type = "cuda" if "cuda" in device else "cpu"
dtype = "bfloat16" if torch.cuda.is_available() and torch.cuda.is_bf16_supported() else "float16"
ptdtype = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}[dtype]
ctx = nullcontext() if device_type == "cpu" else torch.amp.autocast(device_type, dtype=ptdtype)
scaler = torch.cuda.amp.GradScaler(enabled=(dtype == "float16"))
torch.backends.cudnn.allow_tf32 = True
print(device, device_type, dtype, ptdtype, scaler.is_enabled())


class TinyLM(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.wte = nn.Embedding(vocab, dim)
        self.ln = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab, bias=False)
        self.head.weight = self.wte.weight  # weight tying

    def forward(self, idx, targets=None):
        logits = self.head(self.ln(self.wte(idx)))
        if targets is None:
            return logits, None
        loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))
        return logits, loss


model = TinyLM(6, 4)
with torch.no_grad():
    model.wte.weight.copy_((torch.arange(24.0).reshape(6, 4) * 0.37).sin())
optimizer = torch.optim.AdamW(model.parameters(), lr=0.05, betas=(0.9, 0.95), weight_decay=0.1)
data = torch.tensor([0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 0, 1])
x = torch.stack([data[i : i + 4] for i in (0, 3, 6)])
y = torch.stack([data[i + 1 : i + 5] for i in (0, 3, 6)])
for it in range(4):
    with ctx:
        logits, loss = model(x, y)
    scaler.scale(loss).backward()
    scaler.unscale_(optimizer)
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    scaler.step(optimizer)
    scaler.update()
    optimizer.zero_grad(set_to_none=True)
    print(f"iter {it}: loss {loss.item():.4f}")
out(loss, model.wte.weight, logits.argmax(-1))
# ---
# dtype probing: bfloat16 as a real dtype
supported = torch.cuda.is_available() and torch.cuda.is_bf16_supported()
dtype = torch.bfloat16 if supported else torch.float32
print(dtype, torch.bfloat16, torch.finfo(torch.bfloat16))
x = torch.tensor([1.1, 2.3, -3.7, 1e-3]).to(torch.bfloat16)
print(x)
print(x * x, x.sum(), x.mean(), (x + 1.5).dtype)
out(x.float(), (x * x).float(), x.exp().float(), x.dtype, x.is_floating_point())
out(torch.promote_types(torch.bfloat16, torch.float16), (x + torch.ones(4)).dtype)
out((x + torch.tensor([1, 2, 3, 4])).dtype, x.long(), x.type())
m = nn.Linear(4, 2).bfloat16()
with torch.no_grad():
    m.weight.copy_(torch.tensor([[0.5, -0.25, 1.0, 2.0], [1.5, 0.75, -1.0, 0.125]]))
    m.bias.zero_()
y = m(x)
y.float().sum().backward()
out(y.float(), y.dtype, m.weight.grad.float(), type(y.grad_fn).__name__)
err(lambda: x.numpy())
