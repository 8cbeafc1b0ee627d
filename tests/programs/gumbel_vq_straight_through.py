# Discrete latents: F.gumbel_softmax hard/soft, temperature annealing, VQ straight-through
torch.manual_seed(0)
logits = torch.randn(4, 5, requires_grad=True)
soft = F.gumbel_softmax(logits, tau=0.5, hard=False)
hard = F.gumbel_softmax(logits, tau=0.5, hard=True)
print(soft.sum(-1), hard.sum(-1), hard.grad_fn.name(), (hard.max(-1).values == 1).all())
(hard * torch.arange(5.0)).sum().backward()
print(logits.grad.abs().sum() > 0, logits.grad.shape)
out(soft, hard, logits.grad)


class CategoricalVAE(nn.Module):
    def __init__(self, n_in=8, n_latent=3, n_cat=4):
        super().__init__()
        self.n_latent, self.n_cat = n_latent, n_cat
        self.enc = nn.Linear(n_in, n_latent * n_cat)
        self.dec = nn.Linear(n_latent * n_cat, n_in)

    def forward(self, x, temp, hard):
        q = self.enc(x).view(-1, self.n_latent, self.n_cat)
        z = F.gumbel_softmax(q, tau=temp, hard=hard, dim=-1)
        recon = torch.sigmoid(self.dec(z.view(-1, self.n_latent * self.n_cat)))
        log_q = F.log_softmax(q, dim=-1)
        kl = (log_q.exp() * (log_q - torch.log(torch.tensor(1.0 / self.n_cat)))).sum((1, 2)).mean()
        return recon, kl


model = CategoricalVAE()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
x = (torch.rand(16, 8) > 0.5).float()
temp, anneal_rate, temp_min = 1.0, 0.3, 0.5
for epoch in range(4):
    recon, kl = model(x, temp, hard=epoch % 2 == 1)
    bce = F.binary_cross_entropy(recon, x, reduction="sum") / x.size(0)
    loss = bce + kl
    opt.zero_grad()
    loss.backward()
    opt.step()
    temp = max(temp * np.exp(-anneal_rate * (epoch + 1)), temp_min)
    print(f"epoch {epoch} bce {bce.item():.4f} kl {kl.item():.4f} temp {temp:.4f}")
out(loss)
# ---
# Vector quantization: nearest code by expanded distances, straight-through estimator, EMA codebook
torch.manual_seed(0)
K, D = 6, 3
codebook = nn.Embedding(K, D)
codebook.weight.data.uniform_(-1 / K, 1 / K)
z_e = torch.randn(2, D, 4, 4, requires_grad=True)
flat = z_e.permute(0, 2, 3, 1).contiguous().view(-1, D)
distances = (
    torch.sum(flat**2, dim=1, keepdim=True)
    + torch.sum(codebook.weight**2, dim=1)
    - 2 * torch.matmul(flat, codebook.weight.t())
)
encoding_indices = torch.argmin(distances, dim=1).unsqueeze(1)
encodings = torch.zeros(encoding_indices.shape[0], K)
encodings.scatter_(1, encoding_indices, 1)
quantized = torch.matmul(encodings, codebook.weight).view(2, 4, 4, D)
inputs = z_e.permute(0, 2, 3, 1)
e_latent_loss = F.mse_loss(quantized.detach(), inputs)
q_latent_loss = F.mse_loss(quantized, inputs.detach())
loss = q_latent_loss + 0.25 * e_latent_loss
quantized = inputs + (quantized - inputs).detach()
avg_probs = torch.mean(encodings, dim=0)
perplexity = torch.exp(-torch.sum(avg_probs * torch.log(avg_probs + 1e-10)))
(loss + quantized.pow(2).mean()).backward()
print(f"loss {loss.item():.5f} perplexity {perplexity.item():.4f}", encoding_indices.view(-1)[:8])
print(quantized.grad_fn.name(), z_e.grad.shape, codebook.weight.grad.abs().sum() > 0)
decay, eps = 0.99, 1e-5
cluster_size = torch.zeros(K)
ema_w = codebook.weight.data.clone()
with torch.no_grad():
    cluster_size.mul_(decay).add_(encodings.sum(0), alpha=1 - decay)
    n = cluster_size.sum()
    cluster_size = (cluster_size + eps) / (n + K * eps) * n
    dw = encodings.t() @ flat
    ema_w.mul_(decay).add_(dw, alpha=1 - decay)
    codebook.weight.copy_(ema_w / cluster_size.unsqueeze(1))
print(cluster_size)
out(loss, perplexity, z_e.grad, codebook.weight)
