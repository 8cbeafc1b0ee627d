# REINFORCE on a corridor: a Categorical policy learns to walk right
# A tiny environment: positions 0..4, the episode ends at 4 (reward 1) or after 6 steps.
# Sampled actions depend on the random stream, which differs between libraries, so the
# episodes replay a fixed list of actions; what the policy computes from them is compared.
Categorical = torch.distributions.Categorical


class Corridor:
    def __init__(self):
        self.position = 0

    def reset(self):
        self.position = 0
        return self.observe()

    def observe(self):
        return F.one_hot(torch.tensor(self.position), 5).float()

    def step(self, action):
        self.position = max(0, min(4, self.position + (1 if action == 1 else -1)))
        done = self.position == 4
        return self.observe(), (1.0 if done else -0.1), done


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.Linear(5, 8)
        self.head = nn.Linear(8, 2)

    def forward(self, x):
        return F.softmax(self.head(torch.tanh(self.hidden(x))), dim=-1)


policy = Policy()
with torch.no_grad():  # deterministic weights instead of the random init
    for i, p in enumerate(policy.parameters()):
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape) * (i + 1) / 2)
optimizer = torch.optim.Adam(policy.parameters(), lr=0.05)
env = Corridor()
gamma = 0.9
scripted = [[1, 0, 1, 1, 1, 1], [1, 1, 0, 1, 1, 1], [1, 1, 1, 1]]
for episode, actions in enumerate(scripted):
    state = env.reset()
    log_probs, rewards = [], []
    for action in actions:
        probs = policy(state)
        m = Categorical(probs)
        drawn = m.sample()
        assert drawn.shape == () and drawn.dtype == torch.int64 and 0 <= drawn.item() < 2
        a = torch.tensor(action)
        log_probs.append(m.log_prob(a))
        state, reward, done = env.step(a.item())
        rewards.append(reward)
        if done:
            break
    returns, R = [], 0.0
    for r in reversed(rewards):
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + 1e-8)
    loss = torch.stack([-lp * G for lp, G in zip(log_probs, returns)]).sum()
    optimizer.zero_grad()
    loss.backward()
    out(loss, policy.head.weight.grad)
    optimizer.step()
    print(f"episode {episode}: steps {len(rewards)}, loss {loss.item():.4f}")
out(policy(env.reset()), [p.detach() for p in policy.parameters()])
# ---
# Categorical from logits: batched sampling shapes, log_prob, entropy and their gradients
logits = torch.tensor([[2.0, 0.5, -1.0], [0.0, 0.0, 0.0]], requires_grad=True)
m = torch.distributions.Categorical(logits=logits)
out(m.batch_shape, m.event_shape, m.sample().shape, m.sample((4,)).shape, m.sample().dtype)
actions = torch.tensor([0, 2])
lp = m.log_prob(actions)
ent = m.entropy()
(lp.sum() + 0.01 * ent.sum()).backward()
out(lp, ent, m.probs, m.logits, logits.grad, m.mode, m.enumerate_support())
print(m)
# ---
# sampled actions follow the policy's probabilities
torch.manual_seed(0)
probs = torch.tensor([0.2, 0.5, 0.3])
draws = torch.distributions.Categorical(probs).sample((20000,))
freq = torch.bincount(draws, minlength=3).float() / 20000
out(draws.shape, draws.dtype, bool(((freq - probs).abs() < 0.02).all()))
