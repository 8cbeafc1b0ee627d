# nn.init's names without the underscore warn, then initialize in place
import warnings

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    w = torch.empty(3, 4)
    torch.manual_seed(1)
    returned = nn.init.xavier_uniform(w, gain=2.0)
    out(returned is w, w)
    torch.manual_seed(1)
    out(nn.init.kaiming_normal(torch.empty(2, 3), mode="fan_out"))
    torch.manual_seed(1)
    out(
        nn.init.kaiming_uniform(torch.empty(2, 3), a=5**0.5),
        nn.init.xavier_normal(torch.empty(2, 2)),
    )
    torch.manual_seed(1)
    out(nn.init.uniform(torch.empty(3), -1, 1), nn.init.normal(torch.empty(3), std=0.1))
    out(nn.init.constant(torch.empty(2), 3.0), nn.init.eye(torch.empty(2, 3)))
    out(nn.init.dirac(torch.empty(2, 2, 3)).sum())
    torch.manual_seed(1)
    out(nn.init.orthogonal(torch.empty(3, 3)).shape, nn.init.sparse(torch.empty(4, 2), 0.5).shape)
print([(c.category.__name__, str(c.message)) for c in caught])
err(lambda: nn.init.kaiming_normal(torch.empty(2, 3), mode="fan"))
# ---
# clip_grad_norm (no underscore) warns and clips in place
import warnings

p = nn.Parameter(torch.ones(3))
(p * 4).sum().backward()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    out(nn.utils.clip_grad_norm([p], 1.0), p.grad)
    out(nn.utils.clip_grad_norm(p, 0.1, norm_type="inf"), p.grad)
print([(c.category.__name__, str(c.message)) for c in caught])
# ---
# skip_init builds a module without running its initializers (no random draws)
m = nn.utils.skip_init(nn.Linear, 5, 1)
out(m.weight.shape, m.weight.device, m.weight.requires_grad, type(m.weight).__name__)
out(torch.rand(2))
m = nn.utils.skip_init(nn.Conv2d, 3, 4, kernel_size=3, device="cpu")
out(m.weight.shape, m.bias.shape)
print(nn.utils.skip_init(nn.Linear, in_features=6, out_features=1))
err(lambda: nn.utils.skip_init(int))
err(lambda: nn.utils.skip_init(nn.Identity))
# ---
# random fills of meta tensors draw nothing from the generator
w = torch.empty(3, device="meta")
w.uniform_(2, 1)
w.normal_()
w.bernoulli_(0.5)
out(torch.rand(2))
err(lambda: w.normal_(0, -1))
# ---
# NLLLoss2d is NLLLoss under its old name, with a deprecation warning
import warnings

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    loss_fn = nn.NLLLoss2d(ignore_index=1)
print(loss_fn, [str(c.message) for c in caught], isinstance(loss_fn, nn.NLLLoss))
logp = F.log_softmax(torch.randn(2, 3, 2, 2, requires_grad=True), 1)
out(loss_fn(logp, torch.tensor([[[0, 1], [2, 0]], [[1, 1], [0, 2]]])))
# ---
# autograd's thread and view-replay switches read back
out(torch.autograd.is_multithreading_enabled(), torch.autograd.is_view_replay_enabled())
with torch.autograd.set_multithreading_enabled(False):
    out(torch.autograd.is_multithreading_enabled())
out(torch.autograd.is_multithreading_enabled())
