# mixture density network: pi, mu, sigma heads, logsumexp negative log-likelihood and sampling
import math

torch.manual_seed(0)


class MDN(nn.Module):
    def __init__(self, k=3):
        super().__init__()
        self.h = nn.Sequential(nn.Linear(1, 20), nn.Tanh())
        self.pi = nn.Linear(20, k)
        self.mu = nn.Linear(20, k)
        self.log_sigma = nn.Linear(20, k)

    def forward(self, x):
        h = self.h(x)
        return (
            F.log_softmax(self.pi(h), -1),
            self.mu(h),
            torch.exp(self.log_sigma(h)).clamp(min=1e-3),
        )


def mdn_nll(log_pi, mu, sigma, y):
    log_n = -0.5 * ((y - mu) / sigma) ** 2 - torch.log(sigma) - 0.5 * math.log(2 * math.pi)
    return -torch.logsumexp(log_pi + log_n, dim=-1).mean()


x = torch.linspace(-1, 1, 40).unsqueeze(1)
y = torch.sin(3 * x) + 0.1 * torch.randn_like(x)
net = MDN()
opt = torch.optim.Adam(net.parameters(), lr=0.01)
for i in range(25):
    lp, mu, s = net(x)
    loss = mdn_nll(lp, mu, s, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if i % 8 == 0:
        print(f"{i:>3} nll={loss.item():8.4f}")
with torch.no_grad():
    lp, mu, s = net(x[:5])
    k = torch.distributions.Categorical(logits=lp).sample()
    samp = torch.normal(mu.gather(1, k.unsqueeze(1)), s.gather(1, k.unsqueeze(1)))
    mix = torch.distributions.MixtureSameFamily(
        torch.distributions.Categorical(logits=lp), torch.distributions.Normal(mu, s)
    )
    print(k, samp.squeeze(), mix.log_prob(y[:5].squeeze(1)))
