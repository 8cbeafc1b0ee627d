# TD3: twin critics, target policy smoothing (clamped noise), delayed actor updates, polyak
import copy


class Actor(nn.Module):
    def __init__(self, state_dim, action_dim, max_action):
        super().__init__()
        self.l1 = nn.Linear(state_dim, 32)
        self.l2 = nn.Linear(32, 32)
        self.l3 = nn.Linear(32, action_dim)
        self.max_action = max_action

    def forward(self, state):
        a = F.relu(self.l1(state))
        a = F.relu(self.l2(a))
        return self.max_action * torch.tanh(self.l3(a))


class Critic(nn.Module):
    def __init__(self, state_dim, action_dim):
        super().__init__()
        self.l1 = nn.Linear(state_dim + action_dim, 32)
        self.l2 = nn.Linear(32, 1)
        self.l4 = nn.Linear(state_dim + action_dim, 32)
        self.l5 = nn.Linear(32, 1)

    def forward(self, state, action):
        sa = torch.cat([state, action], 1)
        q1 = self.l2(F.relu(self.l1(sa)))
        q2 = self.l5(F.relu(self.l4(sa)))
        return q1, q2

    def Q1(self, state, action):
        sa = torch.cat([state, action], 1)
        return self.l2(F.relu(self.l1(sa)))


class TD3:
    def __init__(
        self,
        state_dim,
        action_dim,
        max_action,
        discount=0.99,
        tau=0.005,
        policy_noise=0.2,
        noise_clip=0.5,
        policy_freq=2,
    ):
        self.actor = Actor(state_dim, action_dim, max_action)
        self.actor_target = copy.deepcopy(self.actor)
        self.actor_optimizer = torch.optim.Adam(self.actor.parameters(), lr=3e-4)
        self.critic = Critic(state_dim, action_dim)
        self.critic_target = copy.deepcopy(self.critic)
        self.critic_optimizer = torch.optim.Adam(self.critic.parameters(), lr=3e-4)
        self.max_action = max_action
        self.discount = discount
        self.tau = tau
        self.policy_noise = policy_noise
        self.noise_clip = noise_clip
        self.policy_freq = policy_freq
        self.total_it = 0

    def select_action(self, state):
        state = torch.FloatTensor(state.reshape(1, -1))
        return self.actor(state).cpu().data.numpy().flatten()

    def train(self, state, action, next_state, reward, not_done):
        self.total_it += 1
        with torch.no_grad():
            noise = (torch.randn_like(action) * self.policy_noise).clamp(
                -self.noise_clip, self.noise_clip
            )
            next_action = (self.actor_target(next_state) + noise).clamp(
                -self.max_action, self.max_action
            )
            target_Q1, target_Q2 = self.critic_target(next_state, next_action)
            target_Q = torch.min(target_Q1, target_Q2)
            target_Q = reward + not_done * self.discount * target_Q
        current_Q1, current_Q2 = self.critic(state, action)
        critic_loss = F.mse_loss(current_Q1, target_Q) + F.mse_loss(current_Q2, target_Q)
        self.critic_optimizer.zero_grad()
        critic_loss.backward()
        self.critic_optimizer.step()
        actor_loss = None
        if self.total_it % self.policy_freq == 0:
            actor_loss = -self.critic.Q1(state, self.actor(state)).mean()
            self.actor_optimizer.zero_grad()
            actor_loss.backward()
            self.actor_optimizer.step()
            for param, target_param in zip(
                self.critic.parameters(), self.critic_target.parameters()
            ):
                target_param.data.copy_(self.tau * param.data + (1 - self.tau) * target_param.data)
            for param, target_param in zip(self.actor.parameters(), self.actor_target.parameters()):
                target_param.data.copy_(self.tau * param.data + (1 - self.tau) * target_param.data)
        return critic_loss, actor_loss


torch.manual_seed(0)
np.random.seed(0)
agent = TD3(state_dim=3, action_dim=2, max_action=2.0)
a = agent.select_action(np.array([0.1, -0.2, 0.3]))
print(type(a).__name__, a.dtype, a.shape, np.round(a, 5))
batch = 16
state = torch.FloatTensor(np.random.randn(batch, 3))
action = torch.FloatTensor(np.random.uniform(-2, 2, size=(batch, 2)))
next_state = state + 0.1 * torch.randn(batch, 3)
reward = -state.pow(2).sum(1, keepdim=True)
not_done = torch.FloatTensor((np.random.rand(batch, 1) > 0.1).astype(np.float32))
for _ in range(4):
    critic_loss, actor_loss = agent.train(state, action, next_state, reward, not_done)
    msg = f"it {agent.total_it} critic {critic_loss.item():.5f}"
    if actor_loss is not None:
        msg += f" actor {actor_loss.item():.5f}"
    print(msg)
out(critic_loss, actor_loss, agent.critic_target.l1.weight, agent.actor.l3.weight.grad)
sd = {"critic": agent.critic.state_dict(), "critic_optimizer": agent.critic_optimizer.state_dict()}
print(
    list(sd["critic_optimizer"]["state"].keys())[:3],
    sd["critic_optimizer"]["param_groups"][0]["lr"],
)
