# DQN: replay buffer of namedtuples, epsilon-greedy, soft target updates, Huber loss, gather
import random
from collections import deque, namedtuple

torch.manual_seed(0)
random.seed(0)
Transition = namedtuple("Transition", ("state", "action", "next_state", "reward"))


class ReplayMemory:
    def __init__(self, capacity):
        self.memory = deque([], maxlen=capacity)

    def push(self, *args):
        self.memory.append(Transition(*args))

    def sample(self, batch_size):
        return random.sample(self.memory, batch_size)

    def __len__(self):
        return len(self.memory)


class DQN(nn.Module):
    def __init__(self, n_obs, n_actions):
        super().__init__()
        self.layer1 = nn.Linear(n_obs, 32)
        self.layer2 = nn.Linear(32, 32)
        self.layer3 = nn.Linear(32, n_actions)

    def forward(self, x):
        x = F.relu(self.layer1(x))
        x = F.relu(self.layer2(x))
        return self.layer3(x)


class LineWorld:
    """Walk on 0..6; reaching 6 pays 1 and ends the episode, each step costs 0.01."""

    def reset(self):
        self.pos = 3
        return self.obs()

    def obs(self):
        return torch.tensor([[self.pos / 6.0, 1.0 - self.pos / 6.0]])

    def step(self, action):
        self.pos = max(0, min(6, self.pos + (1 if action == 1 else -1)))
        done = self.pos == 6
        return self.obs(), (1.0 if done else -0.01), done


BATCH_SIZE, GAMMA, TAU, LR = 8, 0.9, 0.05, 1e-3
EPS_START, EPS_END, EPS_DECAY = 0.9, 0.05, 50
policy_net, target_net = DQN(2, 2), DQN(2, 2)
target_net.load_state_dict(policy_net.state_dict())
optimizer = torch.optim.AdamW(policy_net.parameters(), lr=LR, amsgrad=True)
memory = ReplayMemory(100)
steps_done = 0
env = LineWorld()


def select_action(state):
    global steps_done
    eps = EPS_END + (EPS_START - EPS_END) * torch.exp(torch.tensor(-1.0 * steps_done / EPS_DECAY))
    steps_done += 1
    if random.random() > eps.item():
        with torch.no_grad():
            return policy_net(state).max(1).indices.view(1, 1)
    return torch.tensor([[random.randrange(2)]], dtype=torch.long)


def optimize_model():
    if len(memory) < BATCH_SIZE:
        return None
    batch = Transition(*zip(*memory.sample(BATCH_SIZE)))
    non_final_mask = torch.tensor(tuple(s is not None for s in batch.next_state), dtype=torch.bool)
    non_final_next = torch.cat([s for s in batch.next_state if s is not None])
    state_batch = torch.cat(batch.state)
    action_batch = torch.cat(batch.action)
    reward_batch = torch.cat(batch.reward)
    state_action_values = policy_net(state_batch).gather(1, action_batch)
    next_state_values = torch.zeros(BATCH_SIZE)
    with torch.no_grad():
        next_state_values[non_final_mask] = target_net(non_final_next).max(1).values
    expected = (next_state_values * GAMMA) + reward_batch
    criterion = nn.SmoothL1Loss()
    loss = criterion(state_action_values, expected.unsqueeze(1))
    optimizer.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_value_(policy_net.parameters(), 100)
    optimizer.step()
    return loss


for episode in range(4):
    state = env.reset()
    total, losses = 0.0, []
    for t in range(30):  # noqa: B007  (the step count is printed after the loop)
        action = select_action(state)
        obs, reward, done = env.step(action.item())
        total += reward
        reward = torch.tensor([reward])
        next_state = None if done else obs
        memory.push(state, action, next_state, reward)
        state = next_state
        loss = optimize_model()
        if loss is not None:
            losses.append(loss.item())
        target_sd, policy_sd = target_net.state_dict(), policy_net.state_dict()
        for key in policy_sd:
            target_sd[key] = policy_sd[key] * TAU + target_sd[key] * (1 - TAU)
        target_net.load_state_dict(target_sd)
        if done:
            break
    mean_loss = sum(losses) / max(len(losses), 1)
    print(f"episode {episode}: steps {t + 1} return {total:.2f} mean loss {mean_loss:.5f}")
print(len(memory), steps_done)
with torch.no_grad():
    q = policy_net(torch.tensor([[i / 6.0, 1 - i / 6.0] for i in range(7)]))
print(q)
print(q.argmax(1))
out(q, *target_net.parameters())
