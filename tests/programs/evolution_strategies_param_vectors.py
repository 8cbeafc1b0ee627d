# Evolution strategies and TRPO-style updates on flat parameter vectors (parameters_to_vector)
torch.manual_seed(0)
parameters_to_vector = nn.utils.parameters_to_vector
vector_to_parameters = nn.utils.vector_to_parameters

policy = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))
X = torch.randn(32, 3)
target = (X[:, :1] * 2 - X[:, 1:2]).tanh()


@torch.no_grad()
def fitness(vec):
    vector_to_parameters(vec, policy.parameters())
    return -F.mse_loss(policy(X), target).item()


theta = parameters_to_vector(policy.parameters()).detach().clone()
print(theta.shape, theta.requires_grad, sum(p.numel() for p in policy.parameters()))
npop, sigma, alpha = 20, 0.1, 0.05
for gen in range(5):
    noise = torch.randn(npop, theta.numel())
    rewards = torch.tensor([fitness(theta + sigma * eps) for eps in noise])
    ranks = rewards.argsort().argsort().float()
    shaped = ranks / (npop - 1) - 0.5
    theta = theta + alpha / (npop * sigma) * noise.T @ shaped
    print(
        f"gen {gen}: mean reward {rewards.mean():.4f} best {rewards.max():.4f} "
        f"current {fitness(theta):.4f}"
    )
vector_to_parameters(theta, policy.parameters())
print(policy[0].weight.is_leaf, policy[0].weight.requires_grad)
out(theta, policy[2].bias)
# ---
# Conjugate gradient on Fisher-vector products with flat gradients (TRPO's natural gradient step)
torch.set_default_dtype(torch.float64)  # as RL code bases do for the conjugate-gradient solve
torch.manual_seed(0)
net = nn.Sequential(nn.Linear(4, 6), nn.Tanh(), nn.Linear(6, 3))
obs = torch.randn(16, 4)
actions = torch.randint(0, 3, (16,))
adv = torch.randn(16)
params = list(net.parameters())


def flat_grad(y, params, **kwargs):
    grads = torch.autograd.grad(y, params, **kwargs)
    return torch.cat([g.reshape(-1) for g in grads])


logits = net(obs)
old_dist = torch.distributions.Categorical(logits=logits.detach())
dist = torch.distributions.Categorical(logits=logits)
surrogate = (torch.exp(dist.log_prob(actions) - old_dist.log_prob(actions)) * adv).mean()
g = flat_grad(surrogate, params, retain_graph=True)
kl = torch.distributions.kl_divergence(old_dist, dist).mean()
grad_kl = flat_grad(kl, params, create_graph=True)


def fvp(v, damping=0.1):
    return flat_grad(grad_kl @ v, params, retain_graph=True) + damping * v


def conjugate_gradient(Avp, b, nsteps=10, residual_tol=1e-10):
    x = torch.zeros_like(b)
    r, p = b.clone(), b.clone()
    rdotr = torch.dot(r, r)
    for _ in range(nsteps):
        _Avp = Avp(p)
        alpha = rdotr / torch.dot(p, _Avp)
        x += alpha * p
        r -= alpha * _Avp
        new_rdotr = torch.dot(r, r)
        p = r + new_rdotr / rdotr * p
        rdotr = new_rdotr
        if rdotr < residual_tol:
            break
    return x


step_dir = conjugate_gradient(fvp, g)
shs = 0.5 * (step_dir @ fvp(step_dir))
lm = torch.sqrt(shs / 0.01)
full_step = step_dir / lm
print(
    f"kl {kl.item():.2e} |g| {g.norm():.4f} shs {shs.item():.4f} step norm {full_step.norm():.4f}"
)
old = nn.utils.parameters_to_vector(params).detach()
nn.utils.vector_to_parameters(old + full_step, params)
new_kl = torch.distributions.kl_divergence(
    old_dist, torch.distributions.Categorical(logits=net(obs))
).mean()
print(f"new kl {new_kl.item():.5f}")
out(g, step_dir, new_kl)
