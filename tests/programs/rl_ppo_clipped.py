# PPO: actor-critic with Categorical, GAE advantages, clipped surrogate, entropy bonus, minibatches
torch.manual_seed(0)
obs_dim, n_actions = 4, 3


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, 32), nn.Tanh())
        self.pi = nn.Linear(32, n_actions)
        self.v = nn.Linear(32, 1)

    def forward(self, obs):
        h = self.body(obs)
        return torch.distributions.Categorical(logits=self.pi(h)), self.v(h).squeeze(-1)


def toy_env_step(obs, action):
    # reward: +1 when the action matches the sign pattern of the first feature
    target = (obs[:, 0] > 0).long() + (obs[:, 1] > 0.5).long()
    reward = (action == target).float()
    next_obs = torch.tanh(obs + 0.1 * torch.randn_like(obs))
    done = torch.rand(obs.size(0)) < 0.1
    return next_obs, reward, done


def compute_gae(rewards, values, dones, last_value, gamma=0.99, lam=0.95):
    T = rewards.size(0)
    adv = torch.zeros_like(rewards)
    gae = torch.zeros(rewards.size(1))
    for t in reversed(range(T)):
        next_v = last_value if t == T - 1 else values[t + 1]
        nonterminal = 1.0 - dones[t].float()
        delta = rewards[t] + gamma * next_v * nonterminal - values[t]
        gae = delta + gamma * lam * nonterminal * gae
        adv[t] = gae
    return adv, adv + values


net = ActorCritic()
opt = torch.optim.Adam(net.parameters(), lr=3e-3, eps=1e-5)
n_envs, horizon, clip_eps = 4, 8, 0.2
obs = torch.randn(n_envs, obs_dim)
for update in range(3):
    buf_obs, buf_act, buf_logp, buf_rew, buf_done, buf_val = [], [], [], [], [], []
    with torch.no_grad():
        for _t in range(horizon):
            dist, value = net(obs)
            action = dist.sample()
            next_obs, reward, done = toy_env_step(obs, action)
            buf_obs.append(obs)
            buf_act.append(action)
            buf_logp.append(dist.log_prob(action))
            buf_rew.append(reward)
            buf_done.append(done)
            buf_val.append(value)
            obs = next_obs
        _, last_value = net(obs)
    rewards, values = torch.stack(buf_rew), torch.stack(buf_val)
    adv, returns = compute_gae(rewards, values, torch.stack(buf_done), last_value)
    b_obs = torch.stack(buf_obs).reshape(-1, obs_dim)
    b_act = torch.stack(buf_act).reshape(-1)
    b_logp = torch.stack(buf_logp).reshape(-1)
    b_adv = adv.reshape(-1)
    b_ret = returns.reshape(-1)
    b_adv = (b_adv - b_adv.mean()) / (b_adv.std() + 1e-8)
    for _epoch in range(2):
        perm = torch.randperm(b_obs.size(0))
        for mb in perm.split(16):
            dist, v = net(b_obs[mb])
            logp = dist.log_prob(b_act[mb])
            ratio = (logp - b_logp[mb]).exp()
            s1 = ratio * b_adv[mb]
            s2 = torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps) * b_adv[mb]
            pg_loss = -torch.min(s1, s2).mean()
            v_loss = F.mse_loss(v, b_ret[mb])
            entropy = dist.entropy().mean()
            loss = pg_loss + 0.5 * v_loss - 0.01 * entropy
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), 0.5)
            opt.step()
            with torch.no_grad():
                approx_kl = ((ratio - 1) - (logp - b_logp[mb])).mean()
                clipfrac = ((ratio - 1.0).abs() > clip_eps).float().mean()
    print(
        f"update {update}: reward {rewards.sum().item():.1f} pg {pg_loss.item():.4f} "
        f"v {v_loss.item():.4f} ent {entropy.item():.4f} kl {approx_kl.item():.5f} "
        f"clipfrac {clipfrac.item():.3f}"
    )
out(loss, ratio, adv, returns)
print(dist)
print(dist.probs.shape, dist.logits.shape, dist.batch_shape, dist.event_shape)
# ---
# REINFORCE with baseline: discounted returns via reversed loop, normalised, entropy regularisation
torch.manual_seed(5)
policy = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 2), nn.Softmax(dim=-1))
baseline = nn.Linear(3, 1)
opt = torch.optim.SGD(
    list(policy.parameters()) + list(baseline.parameters()), lr=0.05, momentum=0.9
)
gamma = 0.9
for episode in range(3):
    state = torch.randn(3)
    log_probs, rewards, entropies, values = [], [], [], []
    for _t in range(6):
        probs = policy(state)
        m = torch.distributions.Categorical(probs)
        a = m.sample()
        log_probs.append(m.log_prob(a))
        entropies.append(m.entropy())
        values.append(baseline(state).squeeze())
        rewards.append(1.0 if a.item() == int(state.sum() > 0) else -0.5)
        state = state.roll(1) * 0.9 + 0.1 * torch.randn(3)
    R, returns = 0.0, []
    for r in rewards[::-1]:
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + 1e-6)
    values = torch.stack(values)
    advantage = returns - values.detach()
    policy_loss = -(torch.stack(log_probs) * advantage).sum()
    value_loss = F.smooth_l1_loss(values, returns)
    ent = torch.stack(entropies).sum()
    loss = policy_loss + value_loss - 0.001 * ent
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"episode {episode} return {sum(rewards):.2f} loss {loss.item():.4f}")
out(returns, values, loss)
