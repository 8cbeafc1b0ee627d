# A custom Adam on torch._foreach_* list ops, with an EMA of the weights, against the
# per-parameter loop it replaces
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
ema = [p.detach().clone() for p in model.parameters()]
params = list(model.parameters())
exp_avg = [torch.zeros_like(p) for p in params]
exp_avg_sq = [torch.zeros_like(p) for p in params]
beta1, beta2, lr, eps, decay = 0.9, 0.999, 0.01, 1e-8, 0.99
data, target = torch.randn(16, 4), torch.randn(16, 1)
for step in range(1, 4):
    model.zero_grad()
    loss = F.mse_loss(model(data), target)
    loss.backward()
    grads = [p.grad for p in params]
    with torch.no_grad():
        torch._foreach_lerp_(exp_avg, grads, 1 - beta1)
        torch._foreach_mul_(exp_avg_sq, beta2)
        torch._foreach_addcmul_(exp_avg_sq, grads, grads, 1 - beta2)
        denom = torch._foreach_sqrt(exp_avg_sq)
        torch._foreach_div_(denom, (1 - beta2**step) ** 0.5)
        torch._foreach_add_(denom, eps)
        torch._foreach_addcdiv_(params, exp_avg, denom, -lr / (1 - beta1**step))
        torch._foreach_lerp_(ema, params, 1 - decay)
    out(loss)
out(params, ema, torch._foreach_norm(grads))
torch._assert(loss < 10, "the loss diverged")
err(lambda: torch._assert(loss > 10, "the loss is small"))
err(lambda: torch._foreach_add(params, [1.0]))

# ---
# torch._foreach_* out of place: scalar lists, 0-dim tensors, integer promotion, gradients
xs = [torch.tensor([1.0, -2.0], requires_grad=True), torch.tensor([3.0], requires_grad=True)]
ys = torch._foreach_mul(torch._foreach_exp(xs), [2.0, 0.5])
# each result's grad_fn is the single-tensor op's node in numtorch (one shared Foreach node in
# torch): the values and gradients are what is compared
out([y.detach() for y in ys], [y.requires_grad for y in ys])
sum(y.sum() for y in ys).backward()
out([x.grad for x in xs])
ints = [torch.tensor([1, 2]), torch.tensor([3])]
out(torch._foreach_add(ints, 1.5), torch._foreach_mul(ints, 2), torch._foreach_pow(2.0, ints))
out(torch._foreach_maximum(ints, 2), torch._foreach_sub(ints, torch.tensor(1)))
out(torch._C._get_tracing_state(), isinstance(xs[0], torch._C.TensorBase))
