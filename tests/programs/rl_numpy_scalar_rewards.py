# REINFORCE on a toy chain environment whose rewards and discounts are NumPy scalars
import random

random.seed(0)
np_rng = np.random.default_rng(0)
torch.manual_seed(0)


class Chain:
    def __init__(self, n=5):
        self.n = n

    def reset(self):
        self.pos = 0
        return np.eye(self.n, dtype=np.float32)[self.pos]

    def step(self, action):
        self.pos = max(0, min(self.n - 1, self.pos + (1 if action == 1 else -1)))
        done = self.pos == self.n - 1
        reward = np.float64(1.0) if done else np.float64(-0.1)
        return np.eye(self.n, dtype=np.float32)[self.pos], reward, done


policy = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 2))
opt = torch.optim.Adam(policy.parameters(), lr=0.02)
gamma = np.float64(0.95)
env = Chain()
for episode in range(4):
    state, log_probs, rewards = env.reset(), [], []
    for _ in range(12):
        logits = policy(torch.from_numpy(state))
        dist = torch.distributions.Categorical(logits=logits)
        action = dist.sample()
        log_probs.append(dist.log_prob(action))
        state, reward, done = env.step(action.item())
        rewards.append(reward)
        if done:
            break
    returns, R = [], np.float64(0.0)
    for r in reversed(rewards):
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    scaled = torch.arange(len(rewards)) * gamma  # an int tensor times a NumPy float
    returns = (returns - returns.mean()) / (returns.std() + np.finfo(np.float32).eps.item())
    loss = -(torch.stack(log_probs) * returns.float()).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"episode {episode}: steps {len(rewards):2d} return {sum(rewards):+.2f} loss {loss:.4f}")
    print(returns.dtype, scaled.dtype, scaled)
steps = torch.tensor([1, 2, 3])
out(steps * np.float64(0.5), np.float32(2) * steps, steps + np.int64(1), steps.pow(np.float64(2)))
out(
    torch.full((2,), np.float64(1.5)),
    torch.full((2,), np.int32(3)),
    steps.clamp(max=np.float64(2.5)),
)
out(torch.where(steps > 1, steps, np.float64(0.5)), steps.div(np.float64(2), rounding_mode="floor"))
print(np.float64(3) - steps, steps // np.float64(2), (steps < np.float32(2.5)).tolist())
