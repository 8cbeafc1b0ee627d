# A single-file PPO script end to end on a toy point-mass environment written in torch
torch.manual_seed(1)
import random

random.seed(1)
np.random.seed(1)
torch.backends.cudnn.deterministic = True
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class PointEnv:
    """Move a point on a line to the origin: discrete actions left/stay/right."""

    def __init__(self, num_envs, gen):
        self.num_envs, self.gen = num_envs, gen
        self.reset()

    def reset(self):
        self.pos = torch.rand(self.num_envs, generator=self.gen) * 4 - 2
        self.t = torch.zeros(self.num_envs, dtype=torch.long)
        return self.obs()

    def obs(self):
        return torch.stack([self.pos, self.t.float() / 10], dim=1)

    def step(self, action):
        self.pos = self.pos + (action.float() - 1) * 0.25
        self.t += 1
        reward = -self.pos.abs()
        done = (self.t >= 10) | (self.pos.abs() < 0.1)
        reward = torch.where(self.pos.abs() < 0.1, reward + 1.0, reward)
        new_pos = torch.rand(self.num_envs, generator=self.gen) * 4 - 2
        self.pos = torch.where(done, new_pos, self.pos)
        self.t = torch.where(done, torch.zeros_like(self.t), self.t)
        return self.obs(), reward, done


def layer_init(layer, std=np.sqrt(2), bias_const=0.0):  # noqa: B008
    torch.nn.init.orthogonal_(layer.weight, std)
    torch.nn.init.constant_(layer.bias, bias_const)
    return layer


class Agent(nn.Module):
    def __init__(self):
        super().__init__()
        self.critic = nn.Sequential(
            layer_init(nn.Linear(2, 16)), nn.Tanh(), layer_init(nn.Linear(16, 1), std=1.0)
        )
        self.actor = nn.Sequential(
            layer_init(nn.Linear(2, 16)), nn.Tanh(), layer_init(nn.Linear(16, 3), std=0.01)
        )

    def get_value(self, x):
        return self.critic(x)

    def get_action_and_value(self, x, action=None):
        logits = self.actor(x)
        probs = torch.distributions.Categorical(logits=logits)
        if action is None:
            action = probs.sample()
        return action, probs.log_prob(action), probs.entropy(), self.critic(x)


num_envs, num_steps, gamma, gae_lambda = 4, 16, 0.99, 0.95
batch_size, num_minibatches, update_epochs, clip_coef = num_envs * num_steps, 4, 2, 0.2
minibatch_size = batch_size // num_minibatches
env = PointEnv(num_envs, torch.Generator().manual_seed(3))
agent = Agent().to(device)
optimizer = torch.optim.Adam(agent.parameters(), lr=2.5e-3, eps=1e-5)
obs = torch.zeros((num_steps, num_envs, 2)).to(device)
actions = torch.zeros((num_steps, num_envs)).to(device)
logprobs = torch.zeros((num_steps, num_envs)).to(device)
rewards = torch.zeros((num_steps, num_envs)).to(device)
dones = torch.zeros((num_steps, num_envs)).to(device)
values = torch.zeros((num_steps, num_envs)).to(device)
next_obs = env.reset()
next_done = torch.zeros(num_envs).to(device)
num_iterations = 4
for iteration in range(1, num_iterations + 1):
    frac = 1.0 - (iteration - 1.0) / num_iterations
    optimizer.param_groups[0]["lr"] = frac * 2.5e-3
    for step in range(num_steps):
        obs[step] = next_obs
        dones[step] = next_done
        with torch.no_grad():
            action, logprob, _, value = agent.get_action_and_value(next_obs)
            values[step] = value.flatten()
        actions[step] = action
        logprobs[step] = logprob
        next_obs, reward, done = env.step(action)
        rewards[step] = reward.view(-1)
        next_done = done.float()
    with torch.no_grad():
        next_value = agent.get_value(next_obs).reshape(1, -1)
        advantages = torch.zeros_like(rewards).to(device)
        lastgaelam = 0
        for t in reversed(range(num_steps)):
            if t == num_steps - 1:
                nextnonterminal = 1.0 - next_done
                nextvalues = next_value
            else:
                nextnonterminal = 1.0 - dones[t + 1]
                nextvalues = values[t + 1]
            delta = rewards[t] + gamma * nextvalues * nextnonterminal - values[t]
            advantages[t] = lastgaelam = delta + gamma * gae_lambda * nextnonterminal * lastgaelam
        returns = advantages + values
    b_obs = obs.reshape((-1, 2))
    b_logprobs = logprobs.reshape(-1)
    b_actions = actions.reshape(-1)
    b_advantages = advantages.reshape(-1)
    b_returns = returns.reshape(-1)
    b_values = values.reshape(-1)
    b_inds = np.arange(batch_size)
    clipfracs = []
    for _epoch in range(update_epochs):
        np.random.shuffle(b_inds)
        for start in range(0, batch_size, minibatch_size):
            mb_inds = b_inds[start : start + minibatch_size]
            _, newlogprob, entropy, newvalue = agent.get_action_and_value(
                b_obs[mb_inds], b_actions.long()[mb_inds]
            )
            logratio = newlogprob - b_logprobs[mb_inds]
            ratio = logratio.exp()
            with torch.no_grad():
                old_approx_kl = (-logratio).mean()
                approx_kl = ((ratio - 1) - logratio).mean()
                clipfracs += [((ratio - 1.0).abs() > clip_coef).float().mean().item()]
            mb_advantages = b_advantages[mb_inds]
            mb_advantages = (mb_advantages - mb_advantages.mean()) / (mb_advantages.std() + 1e-8)
            pg_loss1 = -mb_advantages * ratio
            pg_loss2 = -mb_advantages * torch.clamp(ratio, 1 - clip_coef, 1 + clip_coef)
            pg_loss = torch.max(pg_loss1, pg_loss2).mean()
            newvalue = newvalue.view(-1)
            v_loss_unclipped = (newvalue - b_returns[mb_inds]) ** 2
            v_clipped = b_values[mb_inds] + torch.clamp(
                newvalue - b_values[mb_inds], -clip_coef, clip_coef
            )
            v_loss_clipped = (v_clipped - b_returns[mb_inds]) ** 2
            v_loss = 0.5 * torch.max(v_loss_unclipped, v_loss_clipped).mean()
            entropy_loss = entropy.mean()
            loss = pg_loss - 0.01 * entropy_loss + v_loss * 0.5
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
            optimizer.step()
    y_pred, y_true = b_values.cpu().numpy(), b_returns.cpu().numpy()
    var_y = np.var(y_true)
    explained_var = np.nan if var_y == 0 else 1 - np.var(y_true - y_pred) / var_y
    print(
        f"iter {iteration} lr {optimizer.param_groups[0]['lr']:.5f}"
        f" return {rewards.sum(0).mean().item():.3f} v_loss {v_loss.item():.4f}"
        f" pg_loss {pg_loss.item():.4f} entropy {entropy_loss.item():.4f}"
        f" kl {approx_kl.item():.5f} clipfrac {np.mean(clipfracs):.3f} ev {explained_var:.3f}"
    )
out(b_advantages, b_returns, agent.actor[2].weight, loss)
