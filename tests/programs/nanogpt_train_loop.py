# nanoGPT train.py on a CPU: memmap-style batches, estimate_loss, get_lr, GradScaler off, autocast
import math
import os
import tempfile
import time
from contextlib import nullcontext

tmp = tempfile.mkdtemp()
rng = np.random.default_rng(1337)
data = rng.integers(0, 20, size=600).astype(np.uint16)
data.tofile(os.path.join(tmp, "train.bin"))
data[:200].tofile(os.path.join(tmp, "val.bin"))

block_size, batch_size, vocab_size, n_embd = 8, 4, 20, 16
device = "cpu"
device_type = "cuda" if "cuda" in device else "cpu"
dtype = "bfloat16" if torch.cuda.is_available() and torch.cuda.is_bf16_supported() else "float32"
ptdtype = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}[dtype]
ctx = (
    nullcontext()
    if device_type == "cpu"
    else torch.amp.autocast(device_type=device_type, dtype=ptdtype)
)
print(dtype, ptdtype, type(ctx).__name__)
torch.backends.cuda.matmul.allow_tf32 = True
torch.backends.cudnn.allow_tf32 = True


def get_batch(split):
    data = np.memmap(os.path.join(tmp, f"{split}.bin"), dtype=np.uint16, mode="r")
    ix = torch.randint(len(data) - block_size, (batch_size,))
    x = torch.stack([torch.from_numpy((data[i : i + block_size]).astype(np.int64)) for i in ix])
    y = torch.stack(
        [torch.from_numpy((data[i + 1 : i + 1 + block_size]).astype(np.int64)) for i in ix]
    )
    if device_type == "cuda":
        x, y = (
            x.pin_memory().to(device, non_blocking=True),
            y.pin_memory().to(device, non_blocking=True),
        )
    else:
        x, y = x.to(device), y.to(device)
    return x, y


class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.wte = nn.Embedding(vocab_size, n_embd)
        self.wpe = nn.Embedding(block_size, n_embd)
        self.ln_f = nn.LayerNorm(n_embd, bias=False)
        self.lm_head = nn.Linear(n_embd, vocab_size, bias=False)
        self.wte.weight = self.lm_head.weight
        self.apply(self._init_weights)

    def _init_weights(self, module):
        if isinstance(module, (nn.Linear, nn.Embedding)):
            torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)

    def forward(self, idx, targets=None):
        b, t = idx.size()
        pos = torch.arange(0, t, dtype=torch.long, device=idx.device)
        x = self.ln_f(self.wte(idx) + self.wpe(pos))
        if targets is not None:
            logits = self.lm_head(x)
            loss = F.cross_entropy(
                logits.view(-1, logits.size(-1)), targets.view(-1), ignore_index=-1
            )
        else:
            logits = self.lm_head(x[:, [-1], :])
            loss = None
        return logits, loss


model = TinyLM()
print(f"number of parameters: {sum(p.numel() for p in model.parameters()) / 1e3:.2f}K")
scaler = torch.amp.GradScaler("cuda", enabled=(dtype == "float16"))
print(scaler.is_enabled(), scaler.get_scale() if scaler.is_enabled() else None)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2, betas=(0.9, 0.95), weight_decay=0.1)
eval_iters, learning_rate, warmup_iters, lr_decay_iters, min_lr = 3, 1e-2, 2, 8, 1e-3


@torch.no_grad()
def estimate_loss():
    out_ = {}
    model.eval()
    for split in ["train", "val"]:
        losses = torch.zeros(eval_iters)
        for k in range(eval_iters):
            X, Y = get_batch(split)
            with ctx:
                logits, loss = model(X, Y)
            losses[k] = loss.item()
        out_[split] = losses.mean()
    model.train()
    return out_


def get_lr(it):
    if it < warmup_iters:
        return learning_rate * (it + 1) / (warmup_iters + 1)
    if it > lr_decay_iters:
        return min_lr
    decay_ratio = (it - warmup_iters) / (lr_decay_iters - warmup_iters)
    assert 0 <= decay_ratio <= 1
    coeff = 0.5 * (1.0 + math.cos(math.pi * decay_ratio))
    return min_lr + coeff * (learning_rate - min_lr)


gradient_accumulation_steps, grad_clip = 2, 1.0
X, Y = get_batch("train")
t0 = time.time()
for iter_num in range(10):
    lr = get_lr(iter_num)
    for param_group in optimizer.param_groups:
        param_group["lr"] = lr
    if iter_num % 5 == 0:
        losses = estimate_loss()
        print(f"step {iter_num}: train loss {losses['train']:.4f}, val loss {losses['val']:.4f}")
    for _micro_step in range(gradient_accumulation_steps):
        with ctx:
            logits, loss = model(X, Y)
            loss = loss / gradient_accumulation_steps
        X, Y = get_batch("train")
        scaler.scale(loss).backward()
    if grad_clip != 0.0:
        scaler.unscale_(optimizer)
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), grad_clip)
    scaler.step(optimizer)
    scaler.update()
    optimizer.zero_grad(set_to_none=True)
    dt = time.time() - t0
    lossf = loss.item() * gradient_accumulation_steps
    print(f"iter {iter_num}: loss {lossf:.4f}, lr {lr:.5f}, norm {norm.item():.4f}, fast {dt < 60}")

model.eval()
idx = torch.zeros((1, 1), dtype=torch.long)
for _ in range(6):
    idx_cond = idx if idx.size(1) <= block_size else idx[:, -block_size:]
    logits, _ = model(idx_cond)
    logits = logits[:, -1, :] / 0.8
    v, _ = torch.topk(logits, min(5, logits.size(-1)))
    logits[logits < v[:, [-1]]] = -float("Inf")
    probs = F.softmax(logits, dim=-1)
    idx_next = torch.multinomial(probs, num_samples=1)
    idx = torch.cat((idx, idx_next), dim=1)
print(idx.tolist(), model.wte.weight is model.lm_head.weight)
out(model.lm_head.weight, idx)
