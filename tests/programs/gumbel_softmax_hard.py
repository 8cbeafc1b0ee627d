# Gumbel-softmax: F.gumbel_softmax soft/hard, seeded RNG, straight-through, temperature annealing
torch.manual_seed(0)
logits = torch.randn(4, 5, requires_grad=True)
soft = F.gumbel_softmax(logits, tau=0.5)
print(soft.sum(-1), soft.grad_fn.__class__.__name__)
torch.manual_seed(0)
hard = F.gumbel_softmax(logits, tau=0.5, hard=True)
print(hard)
print(torch.equal(hard.argmax(-1), soft.argmax(-1)), hard.grad_fn.__class__.__name__)
(hard * torch.arange(5.0)).sum().backward()
out(soft, hard, logits.grad)
torch.manual_seed(3)
y = F.gumbel_softmax(logits.detach(), tau=1.0, hard=True, dim=0)
print(y.sum(0), y.dtype)


def sample_gumbel(shape, eps=1e-20, generator=None):
    U = torch.rand(shape, generator=generator)
    return -torch.log(-torch.log(U + eps) + eps)


def gumbel_softmax_sample(logits, temperature, generator=None):
    y = logits + sample_gumbel(logits.size(), generator=generator)
    return F.softmax(y / temperature, dim=-1)


def gumbel_softmax(logits, temperature, hard=False, generator=None):
    y = gumbel_softmax_sample(logits, temperature, generator)
    if not hard:
        return y
    shape = y.size()
    _, ind = y.max(dim=-1)
    y_hard = torch.zeros_like(y).view(-1, shape[-1])
    y_hard.scatter_(1, ind.view(-1, 1), 1)
    y_hard = y_hard.view(*shape)
    return (y_hard - y).detach() + y


class CategoricalVAE(nn.Module):
    def __init__(self, d=12, latent=3, categories=4):
        super().__init__()
        self.latent, self.categories = latent, categories
        self.enc = nn.Linear(d, latent * categories)
        self.dec = nn.Linear(latent * categories, d)

    def forward(self, x, temp, hard, generator):
        q = self.enc(x).view(-1, self.latent, self.categories)
        z = gumbel_softmax(q, temp, hard, generator)
        recon = torch.sigmoid(self.dec(z.view(-1, self.latent * self.categories)))
        return recon, F.softmax(q, dim=-1)


torch.manual_seed(0)
model = CategoricalVAE()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
data = (torch.rand(16, 12) > 0.5).float()
g = torch.Generator().manual_seed(0)
temp, anneal_rate, temp_min = 1.0, 0.3, 0.5
for epoch in range(4):
    recon, qy = model(data, temp, hard=epoch >= 2, generator=g)
    log_ratio = torch.log(qy * model.categories + 1e-20)
    kld = torch.sum(qy * log_ratio, dim=-1).mean()
    bce = F.binary_cross_entropy(recon, data, reduction="sum") / data.shape[0]
    loss = bce + kld
    opt.zero_grad()
    loss.backward()
    opt.step()
    temp = max(temp * torch.exp(torch.tensor(-anneal_rate * epoch)).item(), temp_min)
    print(f"epoch {epoch} loss {loss.item():.4f} kld {kld.item():.4f} temp {temp:.4f}")
out(recon, qy, model.enc.weight.grad)
