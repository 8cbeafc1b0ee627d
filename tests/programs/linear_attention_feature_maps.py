# Linear attention (Katharopoulos et al.): elu+1 feature map, global and causal (cumsum) forms
def elu_feature_map(x):
    return F.elu(x) + 1


def linear_attention(q, k, v, eps=1e-6):
    Q = elu_feature_map(q)
    K = elu_feature_map(k)
    KV = torch.einsum("nshd,nshm->nhmd", K, v)
    Z = 1 / (torch.einsum("nlhd,nhd->nlh", Q, K.sum(dim=1)) + eps)
    V = torch.einsum("nlhd,nhmd,nlh->nlhm", Q, KV, Z)
    return V.contiguous()


def causal_linear_attention(q, k, v, eps=1e-6):
    Q = elu_feature_map(q)
    K = elu_feature_map(k)
    KV = torch.einsum("nlhd,nlhm->nlhdm", K, v).cumsum(dim=1)
    Z = 1 / (torch.einsum("nlhd,nlhd->nlh", Q, K.cumsum(dim=1)) + eps)
    return torch.einsum("nlhd,nlhdm,nlh->nlhm", Q, KV, Z)


def softmax_free_quadratic(q, k, v, causal):
    Q, K = elu_feature_map(q), elu_feature_map(k)
    A = torch.einsum("nlhd,nshd->nhls", Q, K)
    if causal:
        L = q.shape[1]
        A = A.masked_fill(~torch.ones(L, L, dtype=torch.bool).tril(), 0.0)
    A = A / A.sum(-1, keepdim=True)
    return torch.einsum("nhls,nshm->nlhm", A, v)


torch.manual_seed(0)
N, L, H, D, M = 2, 6, 2, 4, 3
q = torch.randn(N, L, H, D, requires_grad=True)
k = torch.randn(N, L, H, D, requires_grad=True)
v = torch.randn(N, L, H, M, requires_grad=True)
y = linear_attention(q, k, v)
yq = softmax_free_quadratic(q, k, v, causal=False)
print(y.shape, torch.allclose(y, yq, atol=1e-5))
yc = causal_linear_attention(q, k, v)
ycq = softmax_free_quadratic(q, k, v, causal=True)
print(yc.shape, torch.allclose(yc, ycq, atol=1e-5))
(y.sum() + yc.pow(2).sum()).backward()
out(y, yc, q.grad, k.grad, v.grad)


class LinearAttentionLayer(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.query_projection = nn.Linear(d_model, d_model)
        self.key_projection = nn.Linear(d_model, d_model)
        self.value_projection = nn.Linear(d_model, d_model)
        self.out_projection = nn.Linear(d_model, d_model)

    def forward(self, x, causal=False):
        N, L, _ = x.shape
        H = self.n_heads
        q = self.query_projection(x).view(N, L, H, -1)
        k = self.key_projection(x).view(N, L, H, -1)
        v = self.value_projection(x).view(N, L, H, -1)
        fn = causal_linear_attention if causal else linear_attention
        return self.out_projection(fn(q, k, v).view(N, L, -1))


torch.manual_seed(1)
layer = LinearAttentionLayer(8, 2)
x = torch.randn(3, 5, 8)
opt = torch.optim.Adam(layer.parameters(), lr=3e-3)
for i in range(4):
    opt.zero_grad()
    loss = (layer(x, causal=True) - x).pow(2).mean()
    loss.backward()
    opt.step()
    print(f"iter {i} loss={loss.item():.5f}")
# causality: changing the future does not change the past
x2 = x.clone()
x2[:, -1] += 10.0
with torch.no_grad():
    a, b = layer(x, causal=True), layer(x2, causal=True)
print(
    (a[:, :-1] - b[:, :-1]).abs().max().item() < 1e-5,
    (a[:, -1] - b[:, -1]).abs().max().item() > 1e-3,
)
out(a)
