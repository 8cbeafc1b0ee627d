# Actor-critic: one network with a policy head and a value head, one combined loss
# Actions come from a recorded trajectory (sampling streams differ between libraries).
Categorical = torch.distributions.Categorical


class ActorCritic(nn.Module):
    def __init__(self, obs_dim=4, n_actions=3):
        super().__init__()
        self.body = nn.Linear(obs_dim, 16)
        self.actor = nn.Linear(16, n_actions)
        self.critic = nn.Linear(16, 1)

    def forward(self, obs):
        h = F.relu(self.body(obs))
        return Categorical(logits=self.actor(h)), self.critic(h).squeeze(-1)


model = ActorCritic()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel()).float() + i).reshape(p.shape) * 0.3)
optimizer = torch.optim.RMSprop(model.parameters(), lr=0.01)
observations = torch.cos(torch.arange(20.0).reshape(5, 4))
actions = torch.tensor([0, 2, 1, 1, 0])
rewards = torch.tensor([0.0, 1.0, -0.5, 0.0, 2.0])
dones = torch.tensor([0.0, 0.0, 0.0, 0.0, 1.0])
gamma = 0.99
for update in range(3):
    dist, values = model(observations)
    returns = torch.zeros(5)
    running = 0.0
    for t in reversed(range(5)):
        running = rewards[t] + gamma * running * (1 - dones[t])
        returns[t] = running
    advantages = returns - values
    actor_loss = -(dist.log_prob(actions) * advantages.detach()).mean()
    critic_loss = F.smooth_l1_loss(values, returns)
    entropy = dist.entropy().mean()
    loss = actor_loss + 0.5 * critic_loss - 0.01 * entropy
    optimizer.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 0.5)
    optimizer.step()
    out(loss, actor_loss, critic_loss, entropy, returns, model.actor.bias.grad)
    print(f"update {update}: loss {loss.item():.5f} entropy {entropy.item():.5f}")
drawn = dist.sample()
out(drawn.shape, drawn.dtype, dist.probs.sum(-1))
# ---
# a continuous-action actor: a diagonal Gaussian policy as Independent(Normal, 1)
Normal = torch.distributions.Normal
Independent = torch.distributions.Independent
mean_layer = nn.Linear(3, 2)
log_std = nn.Parameter(torch.tensor([-0.5, 0.2]))
with torch.no_grad():
    mean_layer.weight.copy_(torch.tensor([[0.1, -0.2, 0.3], [0.4, 0.0, -0.1]]))
    mean_layer.bias.copy_(torch.tensor([0.05, -0.05]))
obs = torch.tensor([[1.0, 0.5, -1.0], [0.0, 2.0, 1.0]])
policy = Independent(Normal(mean_layer(obs), log_std.exp()), 1)
action = torch.tensor([[0.2, -0.3], [1.0, 0.1]])
advantage = torch.tensor([1.5, -0.5])
loss = -(policy.log_prob(action) * advantage).mean() - 0.001 * policy.entropy().mean()
loss.backward()
out(policy.batch_shape, policy.event_shape, policy.log_prob(action), policy.entropy())
out(loss, mean_layer.weight.grad, log_std.grad, policy.sample().shape, policy.rsample((5,)).shape)
print(policy)
# ---
# PPO's clipped objective from old and new log-probabilities
Categorical = torch.distributions.Categorical
old_logits = torch.tensor([[1.0, 0.0, -1.0], [0.5, 0.5, 0.0]])
new_logits = old_logits.clone().requires_grad_()
actions = torch.tensor([0, 2])
adv = torch.tensor([1.0, -2.0])
old = Categorical(logits=old_logits)
new = Categorical(logits=new_logits + torch.tensor([[0.3, -0.1, 0.0], [0.0, 0.2, -0.4]]))
ratio = torch.exp(new.log_prob(actions) - old.log_prob(actions))
clipped = torch.clamp(ratio, 0.8, 1.2)
objective = torch.min(ratio * adv, clipped * adv).mean()
approx_kl = torch.distributions.kl_divergence(old, new).mean()
(-objective + approx_kl).backward()
out(ratio, objective, approx_kl, new_logits.grad)
