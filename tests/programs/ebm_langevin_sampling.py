# Energy-based model: Langevin sampling with autograd.grad on inputs, a replay buffer, CD loss
class EnergyNet(nn.Module):
    def __init__(self, dim=2, hidden=32):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(dim, hidden),
            nn.SiLU(),
            nn.Linear(hidden, hidden),
            nn.SiLU(),
            nn.Linear(hidden, 1),
        )

    def forward(self, x):
        return self.net(x).squeeze(-1)


def langevin(model, x, steps=10, step_size=0.1, noise=0.01, generator=None):
    is_training = model.training
    model.eval()
    for p in model.parameters():
        p.requires_grad_(False)
    x = x.detach().clone()
    x.requires_grad_(True)
    had_gradients_enabled = torch.is_grad_enabled()
    torch.set_grad_enabled(True)
    for _ in range(steps):
        x.data.add_(torch.randn(x.shape, generator=generator) * noise)
        x.data.clamp_(min=-3.0, max=3.0)
        energy = -model(x)
        grad = torch.autograd.grad(energy.sum(), x, only_inputs=True)[0]
        grad.data.clamp_(-0.1, 0.1)
        x.data.add_(-step_size * grad.data)
        x.data.clamp_(min=-3.0, max=3.0)
    for p in model.parameters():
        p.requires_grad_(True)
    model.train(is_training)
    torch.set_grad_enabled(had_gradients_enabled)
    return x.detach()


class Sampler:
    def __init__(self, model, sample_size, max_len=64, generator=None):
        self.model = model
        self.sample_size = sample_size
        self.max_len = max_len
        self.gen = generator
        self.examples = [
            (torch.rand((1, 2), generator=generator) * 6 - 3) for _ in range(sample_size)
        ]

    def sample_new_exmps(self, steps=10, step_size=0.1):
        n_new = 3
        rand = torch.rand((n_new, 2), generator=self.gen) * 6 - 3
        idx = torch.randint(len(self.examples), (self.sample_size - n_new,), generator=self.gen)
        old = torch.cat([self.examples[i] for i in idx.tolist()], dim=0)
        inp = torch.cat([rand, old], dim=0).detach()
        inp = langevin(self.model, inp, steps=steps, step_size=step_size, generator=self.gen)
        self.examples = list(inp.split(1, dim=0)) + self.examples
        self.examples = self.examples[: self.max_len]
        return inp


torch.manual_seed(0)
gen = torch.Generator().manual_seed(123)
model = EnergyNet()
sampler = Sampler(model, sample_size=8, generator=gen)
opt = torch.optim.Adam(model.parameters(), lr=1e-3, betas=(0.0, 0.999))
for it in range(4):
    real = torch.randn(8, 2) * 0.3 + torch.tensor([1.0, -1.0])
    real = real + 0.005 * torch.randn_like(real)
    fake = sampler.sample_new_exmps(steps=5)
    inp = torch.cat([real, fake], dim=0)
    real_out, fake_out = model(inp).chunk(2, dim=0)
    reg_loss = 0.1 * (real_out**2 + fake_out**2).mean()
    cdiv_loss = fake_out.mean() - real_out.mean()
    loss = reg_loss + cdiv_loss
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(
        f"iter {it}: loss {loss.item():.5f} cdiv {cdiv_loss.item():.5f} reg {reg_loss.item():.5f}"
    )
print(
    len(sampler.examples), torch.is_grad_enabled(), all(p.requires_grad for p in model.parameters())
)
out(fake, real_out, model.net[0].weight.grad)
with torch.no_grad():
    samples = langevin(
        model, torch.zeros(4, 2), steps=3, generator=torch.Generator().manual_seed(7)
    )
print(torch.is_grad_enabled(), samples.requires_grad)
out(samples)
