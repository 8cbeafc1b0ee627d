# DQN update: replay memory, policy/target networks, gather, max(1).values, smooth L1, soft update
import random
from collections import deque, namedtuple

Transition = namedtuple("Transition", ("state", "action", "next_state", "reward"))


class ReplayMemory:
    def __init__(self, capacity):
        self.memory = deque([], maxlen=capacity)

    def push(self, *args):
        self.memory.append(Transition(*args))

    def sample(self, batch_size):
        return random.Random(len(self.memory)).sample(list(self.memory), batch_size)

    def __len__(self):
        return len(self.memory)


class DQN(nn.Module):
    def __init__(self, n_observations, n_actions):
        super().__init__()
        self.layer1 = nn.Linear(n_observations, 16)
        self.layer2 = nn.Linear(16, 16)
        self.layer3 = nn.Linear(16, n_actions)

    def forward(self, x):
        x = F.relu(self.layer1(x))
        x = F.relu(self.layer2(x))
        return self.layer3(x)


rng = np.random.default_rng(0)
policy_net = DQN(4, 2)
with torch.no_grad():
    for p in policy_net.parameters():
        p.copy_(torch.tensor(rng.uniform(-0.4, 0.4, tuple(p.shape))))
target_net = DQN(4, 2)
target_net.load_state_dict(policy_net.state_dict())
optimizer = torch.optim.AdamW(policy_net.parameters(), lr=1e-3, amsgrad=True)
memory = ReplayMemory(50)
BATCH_SIZE, GAMMA, TAU = 8, 0.99, 0.005

state = torch.tensor(rng.standard_normal(4), dtype=torch.float32).unsqueeze(0)
for t in range(20):
    with torch.no_grad():
        action = policy_net(state).max(1).indices.view(1, 1)
    observation = rng.standard_normal(4).astype(np.float32)
    reward = torch.tensor([float(rng.uniform())])
    terminated = t % 7 == 6
    next_state = None if terminated else torch.tensor(observation).unsqueeze(0)
    memory.push(state, action, next_state, reward)
    state = torch.tensor(rng.standard_normal(4), dtype=torch.float32).unsqueeze(0)
    if next_state is not None:
        state = next_state
    if len(memory) < BATCH_SIZE:
        continue
    transitions = memory.sample(BATCH_SIZE)
    batch = Transition(*zip(*transitions))
    non_final_mask = torch.tensor(
        tuple(map(lambda s: s is not None, batch.next_state)), dtype=torch.bool
    )
    non_final_next_states = torch.cat([s for s in batch.next_state if s is not None])
    state_batch = torch.cat(batch.state)
    action_batch = torch.cat(batch.action)
    reward_batch = torch.cat(batch.reward)
    state_action_values = policy_net(state_batch).gather(1, action_batch)
    next_state_values = torch.zeros(BATCH_SIZE)
    with torch.no_grad():
        next_state_values[non_final_mask] = target_net(non_final_next_states).max(1).values
    expected_state_action_values = (next_state_values * GAMMA) + reward_batch
    criterion = nn.SmoothL1Loss()
    loss = criterion(state_action_values, expected_state_action_values.unsqueeze(1))
    optimizer.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_value_(policy_net.parameters(), 100)
    optimizer.step()
    target_net_state_dict = target_net.state_dict()
    policy_net_state_dict = policy_net.state_dict()
    for key in policy_net_state_dict:
        target_net_state_dict[key] = policy_net_state_dict[key] * TAU + target_net_state_dict[
            key
        ] * (1 - TAU)
    target_net.load_state_dict(target_net_state_dict)
    out(t, loss, action_batch.view(-1), non_final_mask)
out(target_net.layer3.bias, policy_net.layer3.bias)
out(sorted(optimizer.state[policy_net.layer1.weight].keys()))
