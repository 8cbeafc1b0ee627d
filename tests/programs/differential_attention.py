# Differential Transformer attention: two softmax maps minus a reparametrised lambda, RMSNorm
import math


def lambda_init_fn(depth):
    return 0.8 - 0.6 * math.exp(-0.3 * depth)


class MultiheadDiffAttn(nn.Module):
    def __init__(self, embed_dim, depth, num_heads):
        super().__init__()
        self.embed_dim = embed_dim
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads // 2
        self.scaling = self.head_dim**-0.5
        self.q_proj = nn.Linear(embed_dim, embed_dim, bias=False)
        self.k_proj = nn.Linear(embed_dim, embed_dim, bias=False)
        self.v_proj = nn.Linear(embed_dim, embed_dim, bias=False)
        self.out_proj = nn.Linear(embed_dim, embed_dim, bias=False)
        self.lambda_init = lambda_init_fn(depth)
        self.lambda_q1 = nn.Parameter(
            torch.zeros(self.head_dim, dtype=torch.float32).normal_(mean=0, std=0.1)
        )
        self.lambda_k1 = nn.Parameter(
            torch.zeros(self.head_dim, dtype=torch.float32).normal_(mean=0, std=0.1)
        )
        self.lambda_q2 = nn.Parameter(
            torch.zeros(self.head_dim, dtype=torch.float32).normal_(mean=0, std=0.1)
        )
        self.lambda_k2 = nn.Parameter(
            torch.zeros(self.head_dim, dtype=torch.float32).normal_(mean=0, std=0.1)
        )
        self.subln = nn.RMSNorm(2 * self.head_dim, eps=1e-5, elementwise_affine=True)

    def forward(self, x, attn_mask=None):
        bsz, tgt_len, embed_dim = x.size()
        src_len = tgt_len
        q = self.q_proj(x).view(bsz, tgt_len, 2 * self.num_heads, self.head_dim)
        k = self.k_proj(x).view(bsz, src_len, 2 * self.num_heads, self.head_dim)
        v = self.v_proj(x).view(bsz, src_len, self.num_heads, 2 * self.head_dim)
        q = q.transpose(1, 2) * self.scaling
        k = k.transpose(1, 2)
        v = v.transpose(1, 2)
        attn_weights = torch.matmul(q, k.transpose(-1, -2))
        if attn_mask is None:
            attn_mask = torch.triu(
                torch.zeros([tgt_len, src_len]).float().fill_(float("-inf")).type_as(attn_weights),
                1,
            )
        attn_weights = torch.nan_to_num(attn_weights)
        attn_weights += attn_mask
        attn_weights = F.softmax(attn_weights, dim=-1, dtype=torch.float32).type_as(attn_weights)
        lambda_1 = torch.exp(torch.sum(self.lambda_q1 * self.lambda_k1, dim=-1).float()).type_as(q)
        lambda_2 = torch.exp(torch.sum(self.lambda_q2 * self.lambda_k2, dim=-1).float()).type_as(q)
        lambda_full = lambda_1 - lambda_2 + self.lambda_init
        attn_weights = attn_weights.view(bsz, self.num_heads, 2, tgt_len, src_len)
        attn_weights = attn_weights[:, :, 0] - lambda_full * attn_weights[:, :, 1]
        attn = torch.matmul(attn_weights, v)
        attn = self.subln(attn)
        attn = attn * (1 - self.lambda_init)
        attn = attn.transpose(1, 2).reshape(bsz, tgt_len, self.num_heads * 2 * self.head_dim)
        return self.out_proj(attn), lambda_full


torch.manual_seed(0)
print([round(lambda_init_fn(d), 5) for d in range(4)])
layer = MultiheadDiffAttn(16, depth=1, num_heads=2)
x = torch.randn(2, 6, 16)
y, lam = layer(x)
print(y.shape, f"lambda {lam.item():.6f}", layer.subln)
y.pow(2).mean().backward()
out(y, layer.lambda_q1.grad, layer.subln.weight.grad, layer.q_proj.weight.grad)
with torch.no_grad():
    y2, _ = layer(torch.cat([x[:, :4], torch.randn(2, 2, 16)], 1))
print(torch.allclose(y[:, :4].detach(), y2[:, :4], atol=1e-6))
print(
    torch.nan_to_num(
        torch.tensor([float("nan"), float("inf"), -float("inf"), 1.0]), nan=0.0, posinf=1e4
    )
)
