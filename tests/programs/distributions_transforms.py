# A tanh-squashed Gaussian policy (soft actor-critic) built from transforms
D = torch.distributions
T = torch.distributions.transforms
torch.manual_seed(0)
policy_net = nn.Linear(3, 4)
with torch.no_grad():
    policy_net.weight.copy_(torch.linspace(-1.0, 1.0, 12).reshape(4, 3))
    policy_net.bias.copy_(torch.tensor([0.1, -0.2, -1.0, -0.5]))
obs = torch.tensor([[0.5, -0.3, 1.0], [1.5, 0.2, -0.7]])
mu, log_std = policy_net(obs).chunk(2, dim=-1)
base = D.Independent(D.Normal(mu, log_std.clamp(-5, 2).exp()), 1)
action_scale = torch.tensor([2.0, 0.5])
policy = D.TransformedDistribution(
    base, [T.TanhTransform(cache_size=1), T.AffineTransform(0.0, action_scale)]
)
eps = torch.tensor([[0.3, -1.1], [0.8, 0.2]])
pre_tanh = mu + log_std.clamp(-5, 2).exp() * eps  # what policy.rsample() computes
action = policy.transforms[1](policy.transforms[0](pre_tanh))
log_prob = policy.log_prob(action)
alpha = 0.2
q_value = -(action - torch.tensor([0.5, 0.1])).pow(2).sum(-1)
actor_loss = (alpha * log_prob - q_value).mean()
actor_loss.backward()
out(action, log_prob, actor_loss, policy_net.weight.grad, policy_net.bias.grad)
out(policy.batch_shape, policy.event_shape, policy.rsample().shape, policy.has_rsample)
print(policy.transforms)
# ---
# a log-normal built by hand equals LogNormal; an affine flow's density and samples
D = torch.distributions
T = torch.distributions.transforms
loc = torch.tensor([0.0, 0.5], requires_grad=True)
scale = torch.tensor([1.0, 0.3], requires_grad=True)
by_hand = D.TransformedDistribution(D.Normal(loc, scale), [T.ExpTransform()])
built_in = D.LogNormal(loc, scale)
x = torch.tensor([0.7, 2.0])
out(by_hand.log_prob(x), built_in.log_prob(x), built_in.mean, built_in.variance)
flow = D.TransformedDistribution(
    D.Normal(torch.zeros(2), torch.ones(2)),
    [T.AffineTransform(torch.tensor([1.0, -1.0]), torch.tensor([2.0, 0.5])), T.SigmoidTransform()],
)
y = torch.tensor([0.3, 0.6])
out(flow.log_prob(y), flow.cdf(y), flow.icdf(torch.tensor([0.2, 0.9])), repr(flow.support))
(by_hand.log_prob(x).sum() + built_in.entropy().sum()).backward()
out(loc.grad, scale.grad)
# ---
# constrained parameters with transform_to: optimise freely, read through the transform
D = torch.distributions
raw_scale = torch.zeros(3, requires_grad=True)
raw_probs = torch.tensor([0.5, -0.2, 0.1, 0.0], requires_grad=True)
to_positive = D.transform_to(D.constraints.positive)
to_simplex = D.transform_to(D.constraints.simplex)
to_interval = D.biject_to(D.constraints.interval(-1.0, 1.0))
target = torch.tensor([0.5, 1.0, 2.0])
optimizer = torch.optim.SGD([raw_scale, raw_probs], lr=0.1)
for _ in range(20):
    scale = to_positive(raw_scale)
    probs = to_simplex(raw_probs)
    loss = (scale - target).pow(2).sum() - D.Categorical(probs).entropy()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
out(loss, to_positive(raw_scale), to_simplex(raw_probs), to_interval(torch.tensor([0.0, 3.0])))
print(to_positive, to_simplex, to_interval)
