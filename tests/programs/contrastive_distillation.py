# SimCLR's NT-Xent loss with F.normalize and cosine similarities, CosineAnnealingWarmRestarts
def fill_(module, scale=0.3):
    with torch.no_grad():
        for i, p in enumerate(module.parameters()):
            grid = torch.arange(p.numel(), dtype=torch.float32).reshape(p.shape)
            p.copy_(torch.cos(grid * 0.43 + i) * scale)


def nt_xent(z1, z2, tau=0.5):
    z = F.normalize(torch.cat([z1, z2]), dim=1)
    sim = z @ z.T / tau
    n = z1.shape[0]
    sim = sim.masked_fill(torch.eye(2 * n, dtype=torch.bool), float("-inf"))
    targets = torch.cat([torch.arange(n, 2 * n), torch.arange(n)])
    return F.cross_entropy(sim, targets)


encoder = nn.Sequential(nn.Linear(5, 8), nn.ReLU(), nn.Linear(8, 4))
fill_(encoder)
x = torch.sin(torch.arange(30, dtype=torch.float32).reshape(6, 5))
view1, view2 = x + 0.1 * torch.cos(x), x * 0.9
opt = torch.optim.SGD(encoder.parameters(), lr=0.2, momentum=0.9)
sched = torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=2, eta_min=0.01)
for step in range(6):
    opt.zero_grad()
    loss = nt_xent(encoder(view1), encoder(view2))
    loss.backward()
    opt.step()
    sched.step()
    print(step, round(loss.item(), 5), round(sched.get_last_lr()[0], 6))
z1, z2 = encoder(view1), encoder(view2)
out(F.cosine_similarity(z1, z2), F.cosine_similarity(z1[:, None], z2[None], dim=-1).argmax(1))
out(F.pairwise_distance(z1, z2), F.normalize(z1, p=1, dim=0))


# ---
# knowledge distillation: KLDivLoss on temperature-softened outputs plus the hard-label loss
def fill_(module, scale=0.3, phase=0.0):
    with torch.no_grad():
        for i, p in enumerate(module.parameters()):
            grid = torch.arange(p.numel(), dtype=torch.float32).reshape(p.shape)
            p.copy_(torch.cos(grid * 0.43 + i + phase) * scale)


teacher = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 3))
student = nn.Sequential(nn.Linear(4, 3))
fill_(teacher, 0.5)
fill_(student, 0.2, phase=1.0)
teacher.eval()
x = torch.cos(torch.arange(32, dtype=torch.float32).reshape(8, 4))
y = torch.tensor([0, 1, 2, 0, 1, 2, 0, 1])
T = 2.0
kl = nn.KLDivLoss(reduction="batchmean")
kl_log = nn.KLDivLoss(reduction="batchmean", log_target=True)
opt = torch.optim.Adam(student.parameters(), lr=0.05)
plateau = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="min", factor=0.5, patience=1)
for epoch in range(5):
    with torch.no_grad():
        soft = F.softmax(teacher(x) / T, dim=1)
    logits = student(x)
    distill = kl(F.log_softmax(logits / T, dim=1), soft) * T * T
    same = kl_log(F.log_softmax(logits / T, dim=1), soft.log()) * T * T
    loss = 0.7 * distill + 0.3 * F.cross_entropy(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    plateau.step(round(loss.item(), 1))
    print(
        epoch,
        round(loss.item(), 5),
        round(distill.item() - same.item(), 6),
        opt.param_groups[0]["lr"],
    )
out(
    student[0].weight,
    F.kl_div(torch.tensor([[-1.0, -0.5]]), torch.tensor([[0.3, 0.7]]), reduction="sum"),
)
# ---
# parametrizations (orthogonal, spectral_norm, weight_norm) and a state_dict round trip
import io

torch.manual_seed(0)
with torch.no_grad():
    lin = nn.Linear(4, 4)
    lin.weight.copy_(
        torch.tensor(
            [[1.0, 0.2, 0.0, 0.1], [0.0, 1.0, 0.3, 0.0], [0.2, 0.0, 1.0, 0.0], [0.0, 0.1, 0.0, 1.0]]
        )
    )
orth = nn.utils.parametrizations.orthogonal(lin)
W = orth.weight
out(
    torch.allclose(W @ W.T, torch.eye(4), atol=1e-5), type(orth.parametrizations.weight[0]).__name__
)
wn = nn.utils.parametrizations.weight_norm(nn.Linear(3, 2), dim=0)
with torch.no_grad():
    wn.parametrizations.weight.original0.copy_(torch.tensor([[2.0], [0.5]]))
    wn.parametrizations.weight.original1.copy_(torch.tensor([[1.0, 2.0, 2.0], [0.0, 3.0, 4.0]]))
out(wn.weight, sorted(wn.state_dict().keys()))


class Scaler(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("running", torch.zeros(3))
        self.register_buffer("scratch", torch.ones(2), persistent=False)
        self.w = nn.Parameter(torch.tensor([1.0, -1.0, 0.5]))

    def forward(self, x):
        if self.training:
            self.running.mul_(0.9).add_(0.1 * x.mean(0))
        return (x - self.running) * self.w


m = Scaler()
m(torch.tensor([[1.0, 2.0, 3.0], [3.0, 2.0, 1.0]]))
buf = io.BytesIO()
torch.save(m.state_dict(), buf)
buf.seek(0)
m2 = Scaler()
result = m2.load_state_dict(torch.load(buf))
out(list(m.state_dict().keys()), m2.running, str(result), [n for n, _ in m2.named_buffers()])
err(lambda: m2.load_state_dict({"w": torch.zeros(3)}))
out(str(m2.load_state_dict({"w": torch.zeros(3)}, strict=False)))
