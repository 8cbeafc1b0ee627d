# a Mario-style double-DQN agent on synthetic frames: an online and a frozen target copy
# (copy.deepcopy, requires_grad False), a deque replay memory, epsilon decay, TD targets from
# the online argmax and target values, SmoothL1Loss, target sync and a saved checkpoint
import copy
import io
import random
from collections import deque

random.seed(0)
np.random.seed(0)


class MarioNet(nn.Module):
    def __init__(self, input_dim, output_dim):
        super().__init__()
        c, h, w = input_dim
        self.online = nn.Sequential(
            nn.Conv2d(c, 4, kernel_size=3, stride=2),
            nn.ReLU(),
            nn.Conv2d(4, 8, kernel_size=3, stride=1),
            nn.ReLU(),
            nn.Flatten(),
            nn.Linear(8 * 2 * 2, 16),
            nn.ReLU(),
            nn.Linear(16, output_dim),
        )
        self.target = copy.deepcopy(self.online)
        for p in self.target.parameters():
            p.requires_grad = False

    def forward(self, input, model):
        if model == "online":
            return self.online(input)
        elif model == "target":
            return self.target(input)


class Agent:
    def __init__(self, state_dim, action_dim):
        self.action_dim = action_dim
        self.net = MarioNet(state_dim, action_dim).float()
        self.exploration_rate = 1.0
        self.exploration_rate_decay = 0.9
        self.exploration_rate_min = 0.1
        self.curr_step = 0
        self.memory = deque(maxlen=50)
        self.batch_size = 4
        self.gamma = 0.9
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=0.00025)
        self.loss_fn = torch.nn.SmoothL1Loss()

    def act(self, state):
        if np.random.rand() < self.exploration_rate:
            action_idx = np.random.randint(self.action_dim)
        else:
            state = torch.tensor(state).unsqueeze(0)
            action_values = self.net(state, model="online")
            action_idx = torch.argmax(action_values, axis=1).item()
        self.exploration_rate *= self.exploration_rate_decay
        self.exploration_rate = max(self.exploration_rate_min, self.exploration_rate)
        self.curr_step += 1
        return action_idx

    def cache(self, state, next_state, action, reward, done):
        state = torch.tensor(state)
        next_state = torch.tensor(next_state)
        self.memory.append(
            (
                state,
                next_state,
                torch.tensor([action]),
                torch.tensor([reward]),
                torch.tensor([done]),
            )
        )

    def recall(self):
        batch = random.sample(self.memory, self.batch_size)
        state, next_state, action, reward, done = map(torch.stack, zip(*batch))
        return state, next_state, action.squeeze(), reward.squeeze(), done.squeeze()

    def td_estimate(self, state, action):
        return self.net(state, model="online")[np.arange(0, self.batch_size), action]

    @torch.no_grad()
    def td_target(self, reward, next_state, done):
        next_state_Q = self.net(next_state, model="online")
        best_action = torch.argmax(next_state_Q, axis=1)
        next_Q = self.net(next_state, model="target")[np.arange(0, self.batch_size), best_action]
        return (reward + (1 - done.float()) * self.gamma * next_Q).float()

    def update_Q_online(self, td_estimate, td_target):
        loss = self.loss_fn(td_estimate, td_target)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def sync_Q_target(self):
        self.net.target.load_state_dict(self.net.online.state_dict())


agent = Agent((2, 9, 9), 3)
print(agent.net.target[0].weight.requires_grad, agent.net.online[0].weight.requires_grad)
frames = np.random.rand(12, 2, 9, 9).astype(np.float32)
losses, actions = [], []
for step in range(10):
    state, next_state = frames[step], frames[step + 1]
    action = agent.act(state)
    actions.append(action)
    reward = float(np.sin(step) + action * 0.1)
    agent.cache(state, next_state, action, reward, step == 9)
    if len(agent.memory) >= agent.batch_size:
        state_b, next_b, action_b, reward_b, done_b = agent.recall()
        td_est = agent.td_estimate(state_b, action_b)
        td_tgt = agent.td_target(reward_b, next_b, done_b)
        losses.append(round(agent.update_Q_online(td_est, td_tgt), 5))
    if step % 5 == 4:
        agent.sync_Q_target()
print(actions, f"{agent.exploration_rate:.4f}", agent.curr_step)
print(losses)
print(td_est.dtype, td_tgt.dtype, done_b.dtype, reward_b.dtype, action_b.dtype)
out(td_est, td_tgt)
same = all(
    torch.equal(a, b)
    for a, b in zip(agent.net.online.state_dict().values(), agent.net.target.state_dict().values())
)
print("synced", same)
buf = io.BytesIO()
torch.save(dict(model=agent.net.state_dict(), exploration_rate=agent.exploration_rate), buf)
buf.seek(0)
ckpt = torch.load(buf)
print(sorted(ckpt)[:2], list(ckpt["model"])[:3], round(ckpt["exploration_rate"], 4))
