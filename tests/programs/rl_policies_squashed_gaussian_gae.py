# RL policies: a squashed diagonal Gaussian with its tanh log-prob correction, categorical entropy
torch.manual_seed(0)
Categorical, Normal = torch.distributions.Categorical, torch.distributions.Normal


class TanhBijector:
    @staticmethod
    def forward(x):
        return torch.tanh(x)

    @staticmethod
    def atanh(x):
        return 0.5 * (x.log1p() - (-x).log1p())

    @staticmethod
    def inverse(y):
        eps = torch.finfo(y.dtype).eps
        return TanhBijector.atanh(y.clamp(min=-1.0 + eps, max=1.0 - eps))

    def log_prob_correction(self, x):
        return torch.log(1.0 - torch.tanh(x) ** 2 + 1e-6)


def sum_independent_dims(t):
    return t.sum(dim=1) if len(t.shape) > 1 else t.sum()


class SquashedDiagGaussianDistribution:
    def __init__(self, action_dim, epsilon=1e-6):
        self.action_dim, self.epsilon = action_dim, epsilon
        self.bijector = TanhBijector()

    def proba_distribution(self, mean_actions, log_std):
        self.distribution = Normal(mean_actions, torch.ones_like(mean_actions) * log_std.exp())
        return self

    def log_prob(self, actions, gaussian_actions=None):
        if gaussian_actions is None:
            gaussian_actions = TanhBijector.inverse(actions)
        log_prob = sum_independent_dims(self.distribution.log_prob(gaussian_actions))
        log_prob -= torch.sum(torch.log(1 - actions**2 + self.epsilon), dim=1)
        return log_prob

    def sample(self):
        self.gaussian_actions = self.distribution.rsample()
        return torch.tanh(self.gaussian_actions)

    def mode(self):
        return torch.tanh(self.distribution.mean)

    def entropy(self):
        return None

    def log_prob_from_params(self, mean_actions, log_std):
        actions = self.proba_distribution(mean_actions, log_std).sample()
        return actions, self.log_prob(actions, self.gaussian_actions)


class Actor(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.latent_pi = nn.Sequential(nn.Linear(obs_dim, 16), nn.ReLU())
        self.mu = nn.Linear(16, act_dim)
        self.log_std = nn.Linear(16, act_dim)
        self.action_dist = SquashedDiagGaussianDistribution(act_dim)

    def forward(self, obs, deterministic=False):
        latent = self.latent_pi(obs)
        mean, log_std = self.mu(latent), torch.clamp(self.log_std(latent), -20, 2)
        dist = self.action_dist.proba_distribution(mean, log_std)
        return dist.mode() if deterministic else dist.sample()

    def action_log_prob(self, obs):
        latent = self.latent_pi(obs)
        mean, log_std = self.mu(latent), torch.clamp(self.log_std(latent), -20, 2)
        return self.action_dist.log_prob_from_params(mean, log_std)


actor = Actor(3, 2)
obs = torch.randn(5, 3)
actions, log_prob = actor.action_log_prob(obs)
print(actions.shape, log_prob.shape, log_prob.grad_fn.name())
print(log_prob.detach())
recomputed = actor.action_dist.log_prob(actions)
print(f"max |diff| small: {(recomputed - log_prob).abs().max().item() < 1e-2}")
print(actor(obs, deterministic=True).detach(), actions.abs().max() < 1)
ent_coef = torch.ones(1).log().requires_grad_()
target_entropy = -2.0
ent_loss = -(ent_coef * (log_prob + target_entropy).detach()).mean()
ent_loss.backward()
print(f"ent_coef grad {ent_coef.grad.item():.5f}")
(-log_prob.mean()).backward()
print(actor.mu.weight.grad.norm().item() > 0, TanhBijector.inverse(torch.tensor([1.0, -1.0, 0.5])))
logits = torch.randn(4, 6, requires_grad=True)
cat = Categorical(logits=logits)
a = cat.sample()
print(a, cat.log_prob(a).detach(), cat.entropy().detach(), cat.probs.sum(-1).detach())
print(Categorical(probs=torch.tensor([0.0, 0.5, 0.5])).entropy())
out(actions, log_prob, ent_coef.grad, actor.mu.weight.grad, cat.entropy(), a)
# ---
# A rollout buffer with generalised advantage estimation, returns and minibatch indices
torch.manual_seed(0)


class RolloutBuffer:
    def __init__(self, buffer_size, n_envs, obs_dim, gamma=0.99, gae_lambda=0.95):
        self.buffer_size, self.n_envs = buffer_size, n_envs
        self.gamma, self.gae_lambda = gamma, gae_lambda
        self.observations = torch.zeros(buffer_size, n_envs, obs_dim)
        self.rewards = torch.zeros(buffer_size, n_envs)
        self.episode_starts = torch.zeros(buffer_size, n_envs)
        self.values = torch.zeros(buffer_size, n_envs)
        self.log_probs = torch.zeros(buffer_size, n_envs)
        self.advantages = torch.zeros(buffer_size, n_envs)
        self.pos, self.full = 0, False

    def add(self, obs, reward, episode_start, value, log_prob):
        self.observations[self.pos] = obs
        self.rewards[self.pos] = reward
        self.episode_starts[self.pos] = episode_start
        self.values[self.pos] = value.flatten()
        self.log_probs[self.pos] = log_prob
        self.pos += 1
        self.full = self.pos == self.buffer_size

    def compute_returns_and_advantage(self, last_values, dones):
        last_values = last_values.clone().flatten()
        last_gae_lam = 0
        for step in reversed(range(self.buffer_size)):
            if step == self.buffer_size - 1:
                next_non_terminal = 1.0 - dones.float()
                next_values = last_values
            else:
                next_non_terminal = 1.0 - self.episode_starts[step + 1]
                next_values = self.values[step + 1]
            delta = (
                self.rewards[step]
                + self.gamma * next_values * next_non_terminal
                - self.values[step]
            )
            last_gae_lam = delta + self.gamma * self.gae_lambda * next_non_terminal * last_gae_lam
            self.advantages[step] = last_gae_lam
        self.returns = self.advantages + self.values

    def get(self, batch_size):
        def swap_and_flatten(arr):
            shape = arr.shape
            if len(shape) < 3:
                shape = (*shape, 1)
            return arr.swapaxes(0, 1).reshape(shape[0] * shape[1], *shape[2:])

        indices = torch.randperm(self.buffer_size * self.n_envs)
        flat = {
            k: swap_and_flatten(getattr(self, k))
            for k in ("observations", "log_probs", "advantages", "returns")
        }
        for start in range(0, len(indices), batch_size):
            idx = indices[start : start + batch_size]
            yield {k: v[idx] for k, v in flat.items()}


buf = RolloutBuffer(6, 2, 3)
value_net = nn.Linear(3, 1)
for t in range(6):
    obs = torch.randn(2, 3)
    with torch.no_grad():
        v = value_net(obs)
    buf.add(
        obs, torch.tensor([1.0, 0.5 * t]), torch.tensor([float(t == 3), 0.0]), v, torch.randn(2)
    )
print(buf.full, buf.values.shape)
buf.compute_returns_and_advantage(torch.tensor([[0.2], [0.1]]), torch.tensor([False, True]))
print(buf.advantages)
print(buf.returns[:, 1])
for batch in buf.get(5):
    adv = batch["advantages"]
    if len(adv) > 1:
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    print({k: tuple(v.shape) for k, v in batch.items()}, f"{adv.std().item():.3f}")
ev = 1 - torch.var(buf.returns.flatten() - buf.values.flatten()) / torch.var(buf.returns.flatten())
print(f"explained variance {ev.item():.4f}")
out(buf.advantages, buf.returns, ev)
