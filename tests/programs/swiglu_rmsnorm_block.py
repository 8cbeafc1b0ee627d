# LLaMA-style pre-norm block: RMSNorm in float32, SwiGLU MLP with multiple_of rounding
class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def _norm(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)

    def forward(self, x):
        output = self._norm(x.float()).type_as(x)
        return output * self.weight


class FeedForward(nn.Module):
    def __init__(self, dim, hidden_dim, multiple_of, ffn_dim_multiplier=None):
        super().__init__()
        hidden_dim = int(2 * hidden_dim / 3)
        if ffn_dim_multiplier is not None:
            hidden_dim = int(ffn_dim_multiplier * hidden_dim)
        hidden_dim = multiple_of * ((hidden_dim + multiple_of - 1) // multiple_of)
        self.w1 = nn.Linear(dim, hidden_dim, bias=False)
        self.w2 = nn.Linear(hidden_dim, dim, bias=False)
        self.w3 = nn.Linear(dim, hidden_dim, bias=False)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


class Block(nn.Module):
    def __init__(self, dim=16, n_heads=4):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = dim // n_heads
        self.wqkv = nn.Linear(dim, 3 * dim, bias=False)
        self.wo = nn.Linear(dim, dim, bias=False)
        self.feed_forward = FeedForward(dim, 4 * dim, multiple_of=8, ffn_dim_multiplier=1.3)
        self.attention_norm = RMSNorm(dim, eps=1e-5)
        self.ffn_norm = RMSNorm(dim, eps=1e-5)

    def forward(self, x, mask):
        bsz, seqlen, _ = x.shape
        q, k, v = self.wqkv(self.attention_norm(x)).split(x.size(-1), dim=-1)
        q, k, v = (
            t.view(bsz, seqlen, self.n_heads, self.head_dim).transpose(1, 2) for t in (q, k, v)
        )
        scores = torch.matmul(q, k.transpose(2, 3)) / self.head_dim**0.5
        scores = scores + mask
        scores = F.softmax(scores.float(), dim=-1).type_as(q)
        h = torch.matmul(scores, v).transpose(1, 2).contiguous().view(bsz, seqlen, -1)
        h = x + self.wo(h)
        return h + self.feed_forward(self.ffn_norm(h))


torch.manual_seed(0)
block = Block()
print(block.feed_forward.w1)
seqlen = 6
mask = torch.full((seqlen, seqlen), float("-inf"))
mask = torch.triu(mask, diagonal=1)
print(mask[:3, :3])
x = torch.randn(2, seqlen, 16)
y = block(x, mask)
print(y.shape, f"{y.std().item():.5f}")
y.sum().backward()
out(y, block.attention_norm.weight.grad, block.feed_forward.w3.weight.grad)

norm = RMSNorm(16)
xb = x.to(torch.bfloat16)
yb = norm(xb)
print(yb.dtype, yb[0, 0, :4])
out(yb)
half = RMSNorm(16).half()
print(half(x.half()).dtype)

ref = nn.RMSNorm(16, eps=1e-5)
print(ref, torch.allclose(ref(x), block.attention_norm(x), atol=1e-6))
out(F.rms_norm(x, (16,), eps=1e-5))
n_params = sum(p.numel() for p in block.parameters())
print(f"{n_params / 1e3:.2f}K params")


# ---
# GeGLU/ReGLU/SwiGLU variants through F.glu-like chunking and a functional MLP in bf16 autocast
class GLUVariant(nn.Module):
    def __init__(self, d, hidden, act):
        super().__init__()
        self.proj = nn.Linear(d, 2 * hidden)
        self.out = nn.Linear(hidden, d)
        self.act = act

    def forward(self, x):
        a, gate = self.proj(x).chunk(2, dim=-1)
        return self.out(a * self.act(gate))


torch.manual_seed(3)
x = torch.randn(4, 12)
for name, act in [
    ("reglu", F.relu),
    ("geglu", F.gelu),
    ("swiglu", F.silu),
    ("geglu_tanh", lambda t: F.gelu(t, approximate="tanh")),
]:
    m = GLUVariant(12, 20, act)
    y = m(x)
    print(f"{name:10s} {y.mean().item():+.5f} {y.abs().max().item():.5f}")
    out(y)
g = F.glu(torch.arange(8.0).view(2, 4), dim=-1)
print(g)
with torch.autocast("cpu", dtype=torch.bfloat16):
    m = GLUVariant(12, 20, F.silu)
    y = m(x)
    print(y.dtype, m.proj(x).dtype)
out(y.float())
