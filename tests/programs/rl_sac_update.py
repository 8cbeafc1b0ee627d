# SAC update: tanh-squashed Normal policy, rsample, twin Q targets, entropy tuning, polyak averaging
import copy

torch.manual_seed(0)
obs_dim, act_dim, hidden = 3, 2, 32
LOG_STD_MIN, LOG_STD_MAX = -20, 2


def mlp(sizes, activation=nn.ReLU, output_activation=nn.Identity):
    layers = []
    for j in range(len(sizes) - 1):
        act = activation if j < len(sizes) - 2 else output_activation
        layers += [nn.Linear(sizes[j], sizes[j + 1]), act()]
    return nn.Sequential(*layers)


class Actor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = mlp([obs_dim, hidden, hidden], nn.ReLU, nn.ReLU)
        self.mu_layer = nn.Linear(hidden, act_dim)
        self.log_std_layer = nn.Linear(hidden, act_dim)

    def forward(self, obs, deterministic=False, with_logprob=True):
        h = self.net(obs)
        mu = self.mu_layer(h)
        log_std = torch.clamp(self.log_std_layer(h), LOG_STD_MIN, LOG_STD_MAX)
        pi_distribution = torch.distributions.Normal(mu, log_std.exp())
        pi_action = mu if deterministic else pi_distribution.rsample()
        logp_pi = None
        if with_logprob:
            logp_pi = pi_distribution.log_prob(pi_action).sum(axis=-1)
            logp_pi -= (2 * (np.log(2) - pi_action - F.softplus(-2 * pi_action))).sum(axis=1)
        return torch.tanh(pi_action), logp_pi


class QFunction(nn.Module):
    def __init__(self):
        super().__init__()
        self.q = mlp([obs_dim + act_dim, hidden, hidden, 1])

    def forward(self, obs, act):
        return torch.squeeze(self.q(torch.cat([obs, act], dim=-1)), -1)


actor, q1, q2 = Actor(), QFunction(), QFunction()
q1_targ, q2_targ = copy.deepcopy(q1), copy.deepcopy(q2)
for p in list(q1_targ.parameters()) + list(q2_targ.parameters()):
    p.requires_grad = False
log_alpha = torch.zeros(1, requires_grad=True)
target_entropy = -float(act_dim)
pi_opt = torch.optim.Adam(actor.parameters(), lr=3e-3)
q_params = list(q1.parameters()) + list(q2.parameters())
q_opt = torch.optim.Adam(q_params, lr=3e-3)
alpha_opt = torch.optim.Adam([log_alpha], lr=3e-3)
gamma, polyak, batch = 0.99, 0.995, 16
o = torch.randn(batch, obs_dim)
a = torch.rand(batch, act_dim) * 2 - 1
r = -(a**2).sum(1) + 0.1 * o[:, 0]
o2 = o + 0.1 * torch.randn_like(o)
d = (torch.rand(batch) < 0.1).float()
for it in range(4):
    alpha = log_alpha.exp().detach()
    q1_v, q2_v = q1(o, a), q2(o, a)
    with torch.no_grad():
        a2, logp_a2 = actor(o2)
        q_pi_targ = torch.min(q1_targ(o2, a2), q2_targ(o2, a2))
        backup = r + gamma * (1 - d) * (q_pi_targ - alpha * logp_a2)
    loss_q = ((q1_v - backup) ** 2).mean() + ((q2_v - backup) ** 2).mean()
    q_opt.zero_grad()
    loss_q.backward()
    q_opt.step()
    for p in q_params:
        p.requires_grad = False
    pi, logp_pi = actor(o)
    q_pi = torch.min(q1(o, pi), q2(o, pi))
    loss_pi = (alpha * logp_pi - q_pi).mean()
    pi_opt.zero_grad()
    loss_pi.backward()
    pi_opt.step()
    for p in q_params:
        p.requires_grad = True
    loss_alpha = -(log_alpha * (logp_pi + target_entropy).detach()).mean()
    alpha_opt.zero_grad()
    loss_alpha.backward()
    alpha_opt.step()
    with torch.no_grad():
        for p, p_targ in zip(q1.parameters(), q1_targ.parameters()):
            p_targ.data.mul_(polyak)
            p_targ.data.add_((1 - polyak) * p.data)
        for p, p_targ in zip(q2.parameters(), q2_targ.parameters()):
            p_targ.mul_(polyak).add_(p, alpha=1 - polyak)
    print(
        f"it {it}: LossQ {loss_q.item():.4f} LossPi {loss_pi.item():.4f} "
        f"alpha {log_alpha.exp().item():.4f} LogPi {logp_pi.mean().item():.4f}"
    )
with torch.no_grad():
    act_det, _ = actor(o[:3], deterministic=True, with_logprob=False)
print(act_det)
print(q1_targ.q[0].weight.requires_grad, q1.q[0].weight.grad is not None)
out(loss_q, loss_pi, log_alpha, act_det, *q1_targ.parameters())
