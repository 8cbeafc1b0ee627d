# RetNet retention: per-head decay masks, parallel and recurrent forms, rotary-style shifts


def rotate_every_two(x):
    x1 = x[:, :, :, ::2]
    x2 = x[:, :, :, 1::2]
    x = torch.stack((-x2, x1), dim=-1)
    return x.flatten(-2)


def theta_shift(x, sin, cos):
    return (x * cos) + (rotate_every_two(x) * sin)


class RetNetRelPos(nn.Module):
    def __init__(self, embed_dim, num_heads):
        super().__init__()
        angle = 1.0 / (10000 ** torch.linspace(0, 1, embed_dim // num_heads // 2))
        angle = angle.unsqueeze(-1).repeat(1, 2).flatten()
        decay = torch.log(1 - 2 ** (-5 - torch.arange(num_heads, dtype=torch.float)))
        self.register_buffer("angle", angle)
        self.register_buffer("decay", decay)

    def forward(self, slen, activate_recurrent=False):
        if activate_recurrent:
            sin = torch.sin(self.angle * (slen - 1))
            cos = torch.cos(self.angle * (slen - 1))
            return (sin, cos), self.decay.exp()
        index = torch.arange(slen).to(self.decay)
        sin = torch.sin(index[:, None] * self.angle[None, :])
        cos = torch.cos(index[:, None] * self.angle[None, :])
        mask = torch.tril(torch.ones(slen, slen).to(self.decay))
        mask = torch.masked_fill(index[:, None] - index[None, :], ~mask.bool(), float("inf"))
        mask = torch.exp(mask * self.decay[:, None, None])
        mask = torch.nan_to_num(mask)
        mask = mask / mask.sum(dim=-1, keepdim=True).sqrt()
        return (sin, cos), mask


class Retention(nn.Module):
    def __init__(self, embed_dim, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        self.scaling = self.head_dim**-0.5
        self.q_proj = nn.Linear(embed_dim, embed_dim, bias=False)
        self.k_proj = nn.Linear(embed_dim, embed_dim, bias=False)
        self.v_proj = nn.Linear(embed_dim, embed_dim, bias=False)
        self.g_proj = nn.Linear(embed_dim, embed_dim, bias=False)
        self.out_proj = nn.Linear(embed_dim, embed_dim, bias=False)
        self.group_norm = nn.LayerNorm(self.head_dim, eps=1e-6, elementwise_affine=False)

    def parallel(self, qr, kr, v, mask):
        qk = qr @ kr.transpose(-1, -2)
        qk = qk * mask
        qk = qk / qk.detach().abs().sum(dim=-1, keepdim=True).clamp(min=1)
        return torch.matmul(qk, v).transpose(1, 2)

    def recurrent(self, qr, kr, v, decay, state):
        bsz = v.size(0)
        v = v.view(bsz, self.num_heads, self.head_dim, 1)
        kv = kr * v
        if "prev_key_value" in state:
            prev_kv = state["prev_key_value"]
            prev_scale = state["scale"]
            scale = prev_scale * decay + 1
            kv = prev_kv * (prev_scale.sqrt() * decay / scale.sqrt()).view(
                self.num_heads, 1, 1
            ) + kv / scale.sqrt().view(self.num_heads, 1, 1)
        else:
            scale = torch.ones_like(decay)
        state["prev_key_value"] = kv
        state["scale"] = scale
        return torch.sum(qr * kv, dim=3)

    def forward(self, x, rel_pos, state=None):
        bsz, tgt_len, _ = x.size()
        (sin, cos), inner_mask = rel_pos
        q, k, v, g = self.q_proj(x), self.k_proj(x) * self.scaling, self.v_proj(x), self.g_proj(x)
        q = q.view(bsz, tgt_len, self.num_heads, self.head_dim).transpose(1, 2)
        k = k.view(bsz, tgt_len, self.num_heads, self.head_dim).transpose(1, 2)
        qr, kr = theta_shift(q, sin, cos), theta_shift(k, sin, cos)
        if state is not None:
            output = self.recurrent(qr, kr, v, inner_mask, state)
        else:
            vv = v.view(bsz, tgt_len, self.num_heads, self.head_dim).transpose(1, 2)
            output = self.parallel(qr, kr, vv, inner_mask)
        output = self.group_norm(output).reshape(bsz, tgt_len, -1)
        return self.out_proj(F.silu(g) * output)


torch.manual_seed(0)
relpos = RetNetRelPos(16, 2)
ret = Retention(16, 2)
print(relpos.decay, relpos.angle.shape)
(sin, cos), mask = relpos(5)
print(mask.shape, mask[0, :3, :3])
x = torch.randn(2, 5, 16)
y = ret(x, relpos(5))
y.sum().backward()
print(y.shape, f"{y.abs().mean().item():.6f}")
out(y, mask, ret.g_proj.weight.grad)
state = {}
with torch.no_grad():
    outs = [ret(x[:, t : t + 1], relpos(t + 1, activate_recurrent=True), state) for t in range(5)]
print(sorted(state.keys()), state["scale"], torch.cat(outs, 1).shape)
out(torch.cat(outs, 1), rotate_every_two(torch.arange(8.0).view(1, 1, 2, 4)))
