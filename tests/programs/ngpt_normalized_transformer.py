# nGPT-style normalised transformer: unit-norm weights re-normalised after each optimizer step
def justnorm(x, dim=-1):
    return x / x.norm(p=2, dim=dim, keepdim=True)


class NormBlock(nn.Module):
    def __init__(self, d, n_head):
        super().__init__()
        self.n_head = n_head
        self.query = nn.Linear(d, d, bias=False)
        self.key = nn.Linear(d, d, bias=False)
        self.value = nn.Linear(d, d, bias=False)
        self.att_c_proj = nn.Linear(d, d, bias=False)
        self.c_fc = nn.Linear(d, 2 * 4 * d, bias=False)
        self.mlp_c_proj = nn.Linear(4 * d, d, bias=False)
        self.attn_alpha_init_value, self.attn_alpha_init_scaling = 0.05, d**-0.5
        self.attn_alpha = nn.Parameter(self.attn_alpha_init_scaling * torch.ones(d))
        self.mlp_alpha = nn.Parameter(self.attn_alpha_init_scaling * torch.ones(d))
        self.sqk = nn.Parameter(torch.ones(d))
        self.suv = nn.Parameter(torch.ones(2 * 4 * d))

    def forward(self, h):
        B, T, C = h.size()
        q = self.query(h).view(B, T, self.n_head, C // self.n_head)
        k = self.key(h).view(B, T, self.n_head, C // self.n_head)
        v = self.value(h).view(B, T, self.n_head, C // self.n_head)
        sqk = self.sqk.view(1, 1, self.n_head, C // self.n_head)
        q = sqk * justnorm(q)
        k = sqk * justnorm(k)
        y = F.scaled_dot_product_attention(
            q.transpose(1, 2),
            k.transpose(1, 2),
            v.transpose(1, 2),
            is_causal=True,
            scale=(C // self.n_head) ** 0.5,
        )
        h_att = self.att_c_proj(y.transpose(1, 2).contiguous().view(B, T, C))
        lr = torch.abs(
            self.attn_alpha * (self.attn_alpha_init_value / self.attn_alpha_init_scaling)
        )
        h = justnorm(h + lr * (justnorm(h_att) - h))
        uv = self.suv * (C**0.5) * self.c_fc(h)
        u, v = torch.chunk(uv, 2, dim=-1)
        h_mlp = self.mlp_c_proj(u * F.silu(v))
        lr = torch.abs(self.mlp_alpha * (self.attn_alpha_init_value / self.attn_alpha_init_scaling))
        return justnorm(h + lr * (justnorm(h_mlp) - h))


class NGPT(nn.Module):
    def __init__(self, vocab=13, d=16, n_head=2, n_layer=2):
        super().__init__()
        self.wte = nn.Embedding(vocab, d)
        self.blocks = nn.ModuleList([NormBlock(d, n_head) for _ in range(n_layer)])
        self.lm_head = nn.Linear(d, vocab, bias=False)
        self.sz = nn.Parameter(d**-0.5 * torch.ones(vocab))
        self.apply(self._init_weights)

    def _init_weights(self, module):
        if isinstance(module, (nn.Linear, nn.Embedding)):
            torch.nn.init.normal_(module.weight, mean=0.0, std=16**-0.5)

    @torch.no_grad()
    def normalize_matrices(self):
        self.wte.weight.data.copy_(justnorm(self.wte.weight.data, 1))
        self.lm_head.weight.data.copy_(justnorm(self.lm_head.weight.data, 1))
        for block in self.blocks:
            for lin in (block.query, block.key, block.value, block.c_fc):
                lin.weight.data.copy_(justnorm(lin.weight.data, 1))
            for lin in (block.att_c_proj, block.mlp_c_proj):
                lin.weight.data.copy_(justnorm(lin.weight.data, 0))

    def forward(self, idx, targets=None):
        x = self.wte(idx)
        for block in self.blocks:
            x = block(x)
        logits = self.sz * (16**0.5) * self.lm_head(x)
        loss = (
            None
            if targets is None
            else F.cross_entropy(
                logits.view(-1, logits.size(-1)), targets.view(-1), ignore_index=-1
            )
        )
        return logits, loss


torch.manual_seed(0)
model = NGPT()
model.normalize_matrices()
print(
    f"{model.wte.weight.norm(dim=1).mean().item():.6f} "
    f"{model.blocks[0].mlp_c_proj.weight.norm(dim=0).mean().item():.6f}"
)
data = torch.randint(0, 13, (4, 9))
x, y = data[:, :-1], data[:, 1:].clone()
y[0, :2] = -1
opt = torch.optim.Adam(model.parameters(), lr=1e-2, betas=(0.9, 0.95), weight_decay=0.0)
for it in range(4):
    logits, loss = model(x, y)
    opt.zero_grad(set_to_none=True)
    loss.backward()
    opt.step()
    model.normalize_matrices()
    print(f"iter {it}: loss {loss.item():.5f}")
print(f"{model.blocks[1].value.weight.norm(dim=1).max().item():.6f}")
out(logits, model.blocks[0].attn_alpha.grad, model.sz)
