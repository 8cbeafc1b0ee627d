# Normalising-flow style TransformedDistribution with constraints, biject_to and transform_to
torch.manual_seed(0)
D = torch.distributions
T = torch.distributions.transforms
constraints = torch.distributions.constraints

for c in (
    constraints.positive,
    constraints.unit_interval,
    constraints.simplex,
    constraints.real,
    constraints.corr_cholesky,
):
    t = D.biject_to(c)
    print(type(t).__name__, t.domain, t.codomain, t.bijective)
x = torch.randn(5, 3)
pos = D.biject_to(constraints.positive)(x)
print(pos.min() > 0, D.transform_to(constraints.simplex)(x).sum(-1))
stick = D.biject_to(constraints.simplex)
s = stick(x)
print(s.shape, torch.allclose(stick.inv(s), x, atol=1e-5), stick.log_abs_det_jacobian(x, s))
iv = D.biject_to(constraints.interval(-2.0, 3.0))
print(type(iv).__name__, [type(p).__name__ for p in iv.parts], iv(torch.tensor([0.0, 10.0, -10.0])))
print(constraints.positive.check(torch.tensor([1.0, -1.0, 0.0])), constraints.simplex.check(s))
print(
    constraints.interval(0, 1).check(torch.tensor([0.5, 1.5])),
    constraints.integer_interval(0, 3).check(torch.tensor([1.0, 2.5])),
)
# a learnable base-plus-affine-plus-tanh flow with TransformedDistribution
loc = torch.zeros(2, requires_grad=True)
log_scale = torch.zeros(2, requires_grad=True)
base = D.Independent(D.Normal(torch.zeros(2), torch.ones(2)), 1)
flow = D.TransformedDistribution(
    base, [T.AffineTransform(loc, log_scale.exp()), T.TanhTransform(cache_size=1)]
)
print(flow.batch_shape, flow.event_shape, flow.support)
data = torch.tanh(torch.randn(64, 2) * torch.tensor([0.5, 1.5]) + torch.tensor([0.3, -0.4]))
opt = torch.optim.Adam([loc, log_scale], lr=0.1)
for _step in range(40):
    opt.zero_grad()
    nll = -flow.log_prob(data.clamp(-0.999, 0.999)).mean()
    nll.backward()
    opt.step()
    flow = D.TransformedDistribution(
        base, [T.AffineTransform(loc, log_scale.exp()), T.TanhTransform(cache_size=1)]
    )
print(f"nll {nll.item():.4f} loc {loc.detach()} scale {log_scale.exp().detach()}")
smp = flow.rsample((4,))
print(smp.shape, smp.grad_fn.name(), flow.log_prob(smp).shape)
# composed transforms, their inverse, and a log-normal as exp of a normal
comp = T.ComposeTransform([T.ExpTransform(), T.AffineTransform(1.0, 2.0)])
y = comp(torch.tensor([0.0, 1.0]))
print(y, comp.inv(y).round(decimals=4), comp.log_abs_det_jacobian(torch.tensor([0.0, 1.0]), y))
ln = D.TransformedDistribution(D.Normal(0.0, 1.0), T.ExpTransform())
print(
    f"{ln.log_prob(torch.tensor(2.0)).item():.6f}",
    f"{D.LogNormal(0.0, 1.0).log_prob(torch.tensor(2.0)).item():.6f}",
)
sig = T.SigmoidTransform()
print(
    sig.inv(sig(torch.tensor([-3.0, 0.0, 3.0]))),
    T.PowerTransform(2.0).sign,
    T.SoftmaxTransform().event_dim,
)
out(s, pos, loc, log_scale, smp, y)
