# A2C with generalized advantage estimation on a toy chain environment, Categorical entropy bonus
from dataclasses import dataclass

torch.manual_seed(0)
rng = np.random.default_rng(0)


@dataclass
class HParams:
    gamma: float = 0.99
    lam: float = 0.95
    entropy_coef: float = 0.01
    value_coef: float = 0.5
    rollout: int = 8
    updates: int = 4


class ChainEnv:
    """Walk left/right on a line of 5 states; reward 1 at the right end."""

    def __init__(self, n=5):
        self.n = n
        self.reset()

    def reset(self):
        self.s = 0
        return self.obs()

    def obs(self):
        return np.eye(self.n, dtype=np.float32)[self.s]

    def step(self, a):
        self.s = max(0, min(self.n - 1, self.s + (1 if a == 1 else -1)))
        done = self.s == self.n - 1
        return self.obs(), float(done), done


class ActorCritic(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=16):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh())
        self.pi = nn.Linear(hidden, n_actions)
        self.v = nn.Linear(hidden, 1)

    def forward(self, x):
        h = self.body(x)
        return torch.distributions.Categorical(logits=self.pi(h)), self.v(h).squeeze(-1)


def compute_gae(rewards, values, dones, last_value, gamma, lam):
    advantages = torch.zeros_like(rewards)
    gae = 0.0
    for t in reversed(range(len(rewards))):
        next_value = last_value if t == len(rewards) - 1 else values[t + 1]
        nonterminal = 1.0 - dones[t]
        delta = rewards[t] + gamma * next_value * nonterminal - values[t]
        gae = delta + gamma * lam * nonterminal * gae
        advantages[t] = gae
    return advantages, advantages + values


hp = HParams()
env = ChainEnv()
net = ActorCritic(5, 2)
opt = torch.optim.RMSprop(net.parameters(), lr=7e-3, alpha=0.99, eps=1e-5)
obs = env.reset()
for update in range(hp.updates):
    log_probs, values, rewards, dones, entropies = [], [], [], [], []
    for _ in range(hp.rollout):
        dist, value = net(torch.from_numpy(obs))
        action = dist.sample()
        obs, reward, done = env.step(action.item())
        log_probs.append(dist.log_prob(action))
        entropies.append(dist.entropy())
        values.append(value)
        rewards.append(reward)
        dones.append(float(done))
        if done:
            obs = env.reset()
    with torch.no_grad():
        _, last_value = net(torch.from_numpy(obs))
    values_t = torch.stack(values)
    adv, returns = compute_gae(
        torch.tensor(rewards), values_t.detach(), torch.tensor(dones), last_value, hp.gamma, hp.lam
    )
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    policy_loss = -(torch.stack(log_probs) * adv).mean()
    value_loss = F.mse_loss(values_t, returns)
    entropy = torch.stack(entropies).mean()
    loss = policy_loss + hp.value_coef * value_loss - hp.entropy_coef * entropy
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(net.parameters(), 0.5)
    opt.step()
    print(
        f"update {update}: return {sum(rewards):.1f} pi {policy_loss.item():+.4f} "
        f"v {value_loss.item():.4f} H {entropy.item():.4f}"
    )
out(returns, value_loss)
# ---
# Discounted returns three ways: python loop, reversed cumsum trick with flip, matrix of powers
gamma = 0.9
rewards = torch.tensor([1.0, 0.0, -1.0, 2.0, 0.5])
returns, R = [], 0.0
for r in reversed(rewards.tolist()):
    R = r + gamma * R
    returns.insert(0, R)
returns = torch.tensor(returns)
T = len(rewards)
powers = gamma ** (torch.arange(T)[None, :] - torch.arange(T)[:, None]).clamp(min=0).float()
discount = torch.triu(powers)
returns_mat = discount @ rewards
scale = gamma ** torch.arange(T, dtype=torch.float32)
returns_cum = torch.flip(torch.cumsum(torch.flip(rewards * scale, [0]), 0), [0]) / scale
print(returns, torch.allclose(returns, returns_mat), torch.allclose(returns, returns_cum))
norm = (returns - returns.mean()) / (returns.std() + np.finfo(np.float32).eps.item())
print(norm)
out(returns_mat, returns_cum, norm)
