# Start-up settings, device choice, compile pass-through, attention, BytesIO checkpoint, Adam repr
torch.backends.cudnn.benchmark = True
torch.backends.cudnn.deterministic = True
torch.set_float32_matmul_precision("high")
torch.use_deterministic_algorithms(True)
torch.cuda.manual_seed_all(0)
print(torch.backends.mps.is_available(), torch.get_float32_matmul_precision())
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
print(device, torch.manual_seed(1).initial_seed())
m = torch.compile(nn.Linear(2, 2))
print(m(torch.ones(1, 2)).shape)
q = torch.randn(1, 2, 4, 8)
print(F.scaled_dot_product_attention(q, q, q, is_causal=True).shape)
mha = nn.MultiheadAttention(8, 2, batch_first=True)
o, w = mha(q[0], q[0], q[0], need_weights=True, average_attn_weights=False)
print(o.shape, w.shape)
t = torch.tensor([1.0, 2.0])
t.apply_(lambda v: v * 3)
print(t, np.array(t), float(t[0]), t.__array__().dtype)
import io

buf = io.BytesIO()
torch.save({"a": t, "n": 3}, buf)
buf.seek(0)
print(torch.load(buf, weights_only=True))
opt = torch.optim.Adam(
    nn.Linear(2, 1).parameters(),
    lr=1e-3,
    betas=(0.9, 0.98),
    eps=1e-9,
    weight_decay=0.01,
    amsgrad=True,
)
print(opt)
print(opt.state_dict()["param_groups"])
lin = nn.Linear(2, 1)
lin(torch.ones(1, 2)).sum().backward()
nn.utils.clip_grad_value_(lin.parameters(), 0.1)
print(lin.weight.grad)
x = torch.randn(4, 3, requires_grad=True)
y = x.mean(dim=0).norm()
y.backward()
print(y.grad_fn.name(), x.grad.shape)
print(torch.nn.functional.gelu(torch.tensor([1.0]), approximate="tanh"))
print(torch.logsumexp(torch.tensor([[1.0, 2.0]]), dim=1), torch.special.expit(torch.tensor(0.3)))
print(torch.tensor([[1, 2], [3, 4]]).T.contiguous().view(-1))
print(torch.triu(torch.ones(3, 3), diagonal=1).bool())
mask = torch.tril(torch.ones(3, 3)).view(1, 1, 3, 3)
att = torch.randn(1, 1, 3, 3).masked_fill(mask[:, :, :3, :3] == 0, float("-inf"))
print(F.softmax(att, dim=-1))
print(torch.Tensor([1, 2]), torch.Tensor(2, 3).shape, torch.LongTensor([1]).dtype)
print(x.data.norm(2).item() > 0, x.grad.data.norm(2).dtype)
# global settings go back to their defaults for the programs that follow
torch.use_deterministic_algorithms(False)
torch.set_float32_matmul_precision("highest")
print(torch.are_deterministic_algorithms_enabled())
out(o, w, x.grad, att)
# ---
# Custom Functions (once_differentiable, needs_input_grad, mark_dirty), buffers, chained schedulers
once_differentiable = torch.autograd.function.once_differentiable


class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        ctx.save_for_backward(x)
        ctx.k = k
        return x * x * k

    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        print(ctx.needs_input_grad)
        (x,) = ctx.saved_tensors
        return g * 2 * x * ctx.k, None


x = torch.randn(3, requires_grad=True)
Sq.apply(x, 3.0).sum().backward()
print(x.grad)


class Inc(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, g):
        return g


a = torch.randn(2, requires_grad=True).clone()
print(Inc.apply(a).grad_fn.name())


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("mask", torch.ones(2), persistent=False)
        self.l = nn.Linear(2, 2)


m = M()
print(list(m.state_dict()), [n for n, _ in m.named_modules()], [n for n, _ in m.named_buffers()])


def init_weights(mod):
    if isinstance(mod, nn.Linear):
        nn.init.xavier_uniform_(mod.weight)
        mod.bias.data.fill_(0.01)


m.apply(init_weights)
print(m.l.bias)
print(m.load_state_dict({"l.weight": torch.zeros(2, 2)}, strict=False))
m.register_forward_pre_hook(lambda mod, args, kwargs: (args, kwargs), with_kwargs=True)
print(m.half().l.weight.dtype)
opt = torch.optim.SGD(nn.Linear(2, 2).parameters(), lr=1.0)
s1 = torch.optim.lr_scheduler.LinearLR(opt, start_factor=0.1, total_iters=2)
s2 = torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=3)
sch = torch.optim.lr_scheduler.SequentialLR(opt, [s1, s2], milestones=[2])
lrs = []
for _ in range(6):
    opt.step()
    sch.step()
    lrs.append(round(opt.param_groups[0]["lr"], 6))
print(lrs)
opt2 = torch.optim.SGD(nn.Linear(2, 2).parameters(), lr=1.0)
lam = torch.optim.lr_scheduler.LambdaLR(opt2, lambda e: 0.5**e)
for _ in range(3):
    opt2.step()
    lam.step()
print(lam.get_last_lr(), lam.state_dict()["last_epoch"])
e = nn.Embedding(5, 2, sparse=True)
sa = torch.optim.SparseAdam(e.parameters(), lr=0.1)
e(torch.tensor([1, 2])).sum().backward()
sa.step()
print(e.weight[1:3])
wn = nn.utils.weight_norm(nn.Linear(2, 3))
print(sorted(n for n, _ in wn.named_parameters()))
print(torch.nn.utils.parametrize.is_parametrized(wn))
out(x.grad, e.weight, *wn.parameters())
