# PPO with continuous actions: MultivariateNormal with diagonal covariance, discounted returns
action_dim = 2
action_var = torch.full((action_dim,), 0.6 * 0.6)
actor = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, action_dim), nn.Tanh())
critic = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 1))
opt = torch.optim.Adam(
    [{"params": actor.parameters(), "lr": 3e-4}, {"params": critic.parameters(), "lr": 1e-3}]
)
MVN = torch.distributions.MultivariateNormal
states = torch.randn(6, 3)
with torch.no_grad():
    mean = actor(states)
    cov_mat = torch.diag(action_var).unsqueeze(dim=0)
    dist = MVN(mean, cov_mat)
    actions = dist.sample()
    old_logprobs = dist.log_prob(actions)
    old_values = critic(states)
print(dist)
out(actions, old_logprobs)
rewards_raw = [1.0, 0.5, -0.2, 0.0, 1.0, 0.3]
terminals = [False, False, True, False, False, True]
rewards = []
discounted = 0
for reward, is_terminal in zip(reversed(rewards_raw), reversed(terminals)):
    if is_terminal:
        discounted = 0
    discounted = reward + (0.99 * discounted)
    rewards.insert(0, discounted)
rewards = torch.tensor(rewards, dtype=torch.float32)
rewards = (rewards - rewards.mean()) / (rewards.std() + 1e-7)
advantages = rewards.detach() - old_values.squeeze().detach()
mse = nn.MSELoss()
for _ in range(4):
    mean = actor(states)
    var = action_var.expand_as(mean)
    dist = MVN(mean, torch.diag_embed(var))
    logprobs = dist.log_prob(actions)
    entropy = dist.entropy()
    values = torch.squeeze(critic(states))
    ratios = torch.exp(logprobs - old_logprobs.detach())
    surr1 = ratios * advantages
    surr2 = torch.clamp(ratios, 1 - 0.2, 1 + 0.2) * advantages
    loss = -torch.min(surr1, surr2) + 0.5 * mse(values, rewards) - 0.01 * entropy
    opt.zero_grad()
    loss.mean().backward()
    opt.step()
    print(f"{loss.mean().item():.6f}")
out(entropy, ratios)
ind = torch.distributions.Independent(torch.distributions.Normal(mean, var.sqrt()), 1)
out(
    ind.log_prob(actions),
    torch.distributions.kl_divergence(
        dist, MVN(mean.detach(), scale_tril=torch.diag_embed(var.sqrt()))
    ),
)
