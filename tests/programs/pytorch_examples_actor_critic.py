# pytorch/examples actor_critic: a SavedAction namedtuple, discounted returns, smooth_l1 value loss
from collections import namedtuple

SavedAction = namedtuple("SavedAction", ["log_prob", "value"])
gamma = 0.99
eps = np.finfo(np.float32).eps.item()
print(type(eps).__name__, eps)


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.affine1 = nn.Linear(4, 32)
        self.action_head = nn.Linear(32, 2)
        self.value_head = nn.Linear(32, 1)
        self.saved_actions = []
        self.rewards = []

    def forward(self, x):
        x = F.relu(self.affine1(x))
        action_prob = F.softmax(self.action_head(x), dim=-1)
        state_values = self.value_head(x)
        return action_prob, state_values


model = Policy()
optimizer = torch.optim.Adam(model.parameters(), lr=3e-2)


class ToyCartPole:
    """A deterministic stand-in for the gym environment: the pole falls unless pushed back."""

    def reset(self):
        self.state = np.array([0.0, 0.0, 0.05, 0.0])
        self.t = 0
        return self.state, {}

    def step(self, action):
        force = 1.0 if action == 1 else -1.0
        x, x_dot, theta, theta_dot = self.state
        theta_dot += 0.05 * (theta * 9.8 - force)
        theta += 0.05 * theta_dot
        x_dot += 0.02 * force
        x += 0.05 * x_dot
        self.state = np.array([x, x_dot, theta, theta_dot])
        self.t += 1
        done = abs(theta) > 0.2 or self.t >= 20
        return self.state, 1.0, done, False, {}


def select_action(state):
    state = torch.from_numpy(state).float()
    probs, state_value = model(state)
    m = torch.distributions.Categorical(probs)
    action = m.sample()
    model.saved_actions.append(SavedAction(m.log_prob(action), state_value))
    return action.item()


def finish_episode():
    R = 0
    saved_actions = model.saved_actions
    policy_losses = []
    value_losses = []
    returns = []
    for r in model.rewards[::-1]:
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + eps)
    for (log_prob, value), R in zip(saved_actions, returns):
        advantage = R - value.item()
        policy_losses.append(-log_prob * advantage)
        value_losses.append(F.smooth_l1_loss(value, torch.tensor([R])))
    optimizer.zero_grad()
    loss = torch.stack(policy_losses).sum() + torch.stack(value_losses).sum()
    loss.backward()
    optimizer.step()
    del model.rewards[:]
    del model.saved_actions[:]
    return loss


env = ToyCartPole()
running_reward = 10
for i_episode in range(1, 6):
    state, _ = env.reset()
    ep_reward = 0
    for _t in range(1, 10000):
        action = select_action(state)
        state, reward, done, _, _ = env.step(action)
        model.rewards.append(reward)
        ep_reward += reward
        if done:
            break
    running_reward = 0.05 * ep_reward + (1 - 0.05) * running_reward
    loss = finish_episode()
    print(
        f"Episode {i_episode}\tLast reward: {ep_reward:.2f}\tAverage reward: {running_reward:.2f}"
        f"\tloss {loss.item():.4f}"
    )
print(len(model.saved_actions), model.rewards)
out(model.action_head.weight, model.value_head.bias)
