# Module.apply with nn.init schemes per layer type, calculate_gain, fans, init statistics
import math

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3)
        self.bn = nn.BatchNorm2d(8)
        self.rnn = nn.GRU(8, 6, batch_first=True)
        self.emb = nn.Embedding(10, 8, padding_idx=0)
        self.fc = nn.Linear(6, 4)
        self.ln = nn.LayerNorm(4)


def init_weights(m):
    if isinstance(m, nn.Conv2d):
        nn.init.kaiming_normal_(m.weight, mode="fan_out", nonlinearity="relu")
        nn.init.zeros_(m.bias)
    elif isinstance(m, (nn.BatchNorm2d, nn.LayerNorm)):
        nn.init.ones_(m.weight)
        nn.init.constant_(m.bias, 0.1)
    elif isinstance(m, nn.GRU):
        for name, param in m.named_parameters():
            if "weight_ih" in name:
                nn.init.xavier_uniform_(param)
            elif "weight_hh" in name:
                nn.init.orthogonal_(param)
            elif "bias" in name:
                param.data.fill_(0)
    elif isinstance(m, nn.Embedding):
        nn.init.normal_(m.weight, mean=0.0, std=0.02)
        with torch.no_grad():
            m.weight[m.padding_idx].zero_()
    elif isinstance(m, nn.Linear):
        nn.init.trunc_normal_(m.weight, std=0.02, a=-0.04, b=0.04)
        nn.init.zeros_(m.bias)


net = Net()
visited = []
net.apply(lambda m: visited.append(type(m).__name__))
print(visited)
net.apply(init_weights)
for name, p in net.named_parameters():
    print(
        f"{name:20s} {str(tuple(p.shape)):12s} mean {p.mean().item():+.4f} "
        f"std {p.std().item() if p.numel() > 1 else 0.0:.4f}"
    )
whh = net.rnn.weight_hh_l0
blocks = whh.view(3, 6, 6)
print(torch.allclose(whh.T @ whh, torch.eye(6), atol=1e-5))
print(net.emb.weight[0], net.fc.weight.abs().max() <= 0.04)
print(
    nn.init.calculate_gain("relu"),
    nn.init.calculate_gain("leaky_relu", 0.2),
    nn.init.calculate_gain("tanh"),
)
print(
    nn.init.calculate_gain("selu"),
    nn.init.calculate_gain("linear"),
    nn.init.calculate_gain("conv2d"),
)
w = torch.empty(5, 4, 3, 3)
fan_in = w.size(1) * w[0][0].numel()
print(fan_in, math.sqrt(2.0 / fan_in))
nn.init.kaiming_uniform_(w, a=math.sqrt(5))
bound = 1 / math.sqrt(fan_in)
print(w.abs().max() <= bound, f"{w.std().item():.4f}")
e = torch.empty(3, 5)
nn.init.eye_(e)
print(e)
d = torch.empty(2, 2, 3)
nn.init.dirac_(d)
print(d)
s = torch.empty(6, 4)
nn.init.sparse_(s, sparsity=0.5)
print((s == 0).sum(0))
u = nn.init.uniform_(torch.empty(2, 3), -0.1, 0.1)
print(u)
x = nn.init.xavier_normal_(torch.empty(3, 4), gain=nn.init.calculate_gain("tanh"))
print(x)
err(lambda: nn.init.calculate_gain("bogus"))
err(lambda: nn.init.orthogonal_(torch.empty(3)))
err(lambda: nn.init.kaiming_normal_(torch.empty(3, 4), mode="fan_avg"))
out(
    net.conv.weight,
    net.rnn.weight_ih_l0,
    net.rnn.weight_hh_l0,
    net.emb.weight,
    net.fc.weight,
    s,
    u,
    x,
)
# ---
# parameters_to_vector / vector_to_parameters (shared memory), weight averaging, reset_parameters
torch.manual_seed(1)
pv = nn.utils.parameters_to_vector
vp = nn.utils.vector_to_parameters
model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
vec = pv(model.parameters())
print(vec.shape, vec.requires_grad, vec.grad_fn.__class__.__name__)
vp(torch.zeros_like(vec), model.parameters())
print(model[0].weight.abs().sum(), model[2].bias)
vp(vec.detach(), model.parameters())
print(torch.equal(pv(model.parameters()), vec.detach()))
for m in model.modules():
    if hasattr(m, "reset_parameters"):
        m.reset_parameters()
print(pv(model.parameters())[:5])
other = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
avg = {k: (v + other.state_dict()[k]) / 2 for k, v in model.state_dict().items()}
model.load_state_dict(avg)
print(model[2].weight)
flat_grad = None
loss = model(torch.randn(5, 3)).pow(2).sum()
loss.backward()
flat_grad = torch.cat([p.grad.reshape(-1) for p in model.parameters()])
print(flat_grad.shape, f"{flat_grad.norm():.5f}")
out(vec, flat_grad, model[0].weight)
