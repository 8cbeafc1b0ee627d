# register_buffer persistent=False, buffers through .to()/.half(), state_dict keys, module repr

torch.manual_seed(0)


class RotaryCache(nn.Module):
    def __init__(self, dim, max_seq_len=6, base=10000):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)
        t = torch.arange(max_seq_len, dtype=self.inv_freq.dtype)
        freqs = torch.outer(t, self.inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)
        self.register_buffer("cos_cached", emb.cos(), persistent=False)
        self.register_buffer("sin_cached", emb.sin(), persistent=False)
        self.register_buffer("step", torch.tensor(0))
        self.register_buffer("optional", None)

    def forward(self, x):
        self.step += 1
        seq_len = x.shape[-2]
        return self.cos_cached[:seq_len].to(x.dtype), self.sin_cached[:seq_len].to(x.dtype)


class Causal(nn.Module):
    def __init__(self, block_size, n_embd):
        super().__init__()
        self.register_buffer(
            "bias",
            torch.tril(torch.ones(block_size, block_size)).view(1, 1, block_size, block_size),
        )
        self.attn = nn.Linear(n_embd, 3 * n_embd)
        self.rope = RotaryCache(n_embd)

    def extra_repr(self):
        return f"block_size={self.bias.size(-1)}"


m = Causal(4, 4)
print(m)
print(list(m.state_dict().keys()))
print([n for n, _ in m.named_buffers()])
print(m.rope._non_persistent_buffers_set == {"inv_freq", "cos_cached", "sin_cached"})
cos, sin = m.rope(torch.zeros(1, 3, 4))
print(cos.shape, m.rope.step)
m.half()
print(m.bias.dtype, m.rope.inv_freq.dtype, m.rope.step.dtype, m.attn.weight.dtype)
m.to(torch.float64)
print(m.bias.dtype, m.rope.cos_cached.dtype, m.rope.step.dtype)
fresh = Causal(4, 4)
print(fresh.load_state_dict(m.state_dict()))
print(fresh.rope.step, fresh.bias.dtype)
err(lambda: m.register_buffer("attn", torch.zeros(1)))
err(lambda: m.register_buffer("a.b", torch.zeros(1)))
err(lambda: m.register_buffer("w", [1, 2]))
m.rope.register_buffer("optional", torch.ones(2))
print(sorted(dict(m.named_buffers(recurse=True))))
out(cos, sin, m.rope.optional)
# ---
# Printed module trees: Sequential of OrderedDict, ModuleDict, ParameterList/Dict, nested extra_repr
from collections import OrderedDict

torch.manual_seed(0)


class Scale(nn.Module):
    def __init__(self, init=1.0, learnable=True):
        super().__init__()
        self.learnable = learnable
        self.scale = nn.Parameter(torch.tensor(init), requires_grad=learnable)

    def forward(self, x):
        return x * self.scale

    def extra_repr(self):
        return f"init={self.scale.item():.2f}, learnable={self.learnable}"


model = nn.Sequential(
    OrderedDict(
        [
            ("stem", nn.Conv2d(1, 4, kernel_size=3, stride=2, padding=1, bias=False)),
            ("bn", nn.BatchNorm2d(4, momentum=0.01)),
            ("act", nn.SiLU(inplace=True)),
            ("scale", Scale(0.5)),
            ("heads", nn.ModuleDict({"cls": nn.Linear(4, 3), "box": nn.Linear(4, 4, bias=False)})),
        ]
    )
)
print(model)
pl = nn.ParameterList(
    [nn.Parameter(torch.randn(2, 3)), nn.Parameter(torch.zeros(4), requires_grad=False)]
)
print(pl)
pd = nn.ParameterDict(
    {
        "alpha": nn.Parameter(torch.ones(1)),
        "beta": nn.Parameter(torch.zeros(2, 2, dtype=torch.float64)),
    }
)
print(pd)
print(nn.ModuleList([nn.Linear(2, 2) for _ in range(3)] + [nn.Dropout(p=0.25)]))
print(
    nn.Sequential(
        nn.Embedding(10, 3, padding_idx=0),
        nn.LSTM(3, 5, num_layers=2, batch_first=True, dropout=0.1),
        nn.GRU(5, 5, bidirectional=True),
    )
)
print(nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, batch_first=True))
n_params = sum(p.numel() for p in model.parameters() if p.requires_grad)
print(f"{n_params:,} trainable parameters")
