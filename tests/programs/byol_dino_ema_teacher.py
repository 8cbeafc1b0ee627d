# BYOL/DINO: EMA teacher updated under no_grad (mul_/add_, lerp_, _foreach), centering, temperatures
import copy


class MLPHead(nn.Module):
    def __init__(self, in_dim, hidden, out_dim):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(in_dim, hidden, bias=False),
            nn.BatchNorm1d(hidden),
            nn.ReLU(inplace=True),
            nn.Linear(hidden, out_dim),
        )

    def forward(self, x):
        return self.net(x)


def byol_loss(x, y):
    x = F.normalize(x, dim=-1, p=2)
    y = F.normalize(y, dim=-1, p=2)
    return 2 - 2 * (x * y).sum(dim=-1)


torch.manual_seed(0)
online = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), MLPHead(16, 32, 8))
predictor = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 8))
target = copy.deepcopy(online)
for p in target.parameters():
    p.requires_grad = False
opt = torch.optim.Adam(list(online.parameters()) + list(predictor.parameters()), lr=3e-3)
x = torch.randn(16, 8)
base_tau = 0.99
total = 4
for step in range(total):
    v1, v2 = x + 0.1 * torch.randn_like(x), x + 0.1 * torch.randn_like(x)
    p1, p2 = predictor(online(v1)), predictor(online(v2))
    with torch.no_grad():
        t1, t2 = target(v1), target(v2)
    loss = (byol_loss(p1, t2.detach()) + byol_loss(p2, t1.detach())).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    tau = 1 - (1 - base_tau) * (torch.cos(torch.tensor(torch.pi * step / total)) + 1) / 2
    with torch.no_grad():
        for po, pt in zip(online.parameters(), target.parameters()):
            pt.data = tau * pt.data + (1 - tau) * po.data
        for bo, bt in zip(online.buffers(), target.buffers()):
            bt.copy_(bo)
    print(f"byol step {step}: loss {loss.item():.5f} tau {tau.item():.5f}")
diff = sum((po - pt).abs().sum() for po, pt in zip(online.parameters(), target.parameters()))
print(f"online-target distance {diff.item():.5f}", target[0].weight.requires_grad)
out(loss, target[0].weight)


class DINOLoss(nn.Module):
    def __init__(
        self,
        out_dim,
        ncrops,
        warmup_teacher_temp=0.04,
        teacher_temp=0.07,
        student_temp=0.1,
        center_momentum=0.9,
    ):
        super().__init__()
        self.student_temp = student_temp
        self.center_momentum = center_momentum
        self.ncrops = ncrops
        self.register_buffer("center", torch.zeros(1, out_dim))
        self.teacher_temp_schedule = torch.linspace(warmup_teacher_temp, teacher_temp, 3)

    def forward(self, student_output, teacher_output, epoch):
        student_out = student_output / self.student_temp
        student_out = student_out.chunk(self.ncrops)
        temp = self.teacher_temp_schedule[epoch]
        teacher_out = F.softmax((teacher_output - self.center) / temp, dim=-1)
        teacher_out = teacher_out.detach().chunk(2)
        total_loss = 0
        n_loss_terms = 0
        for iq, q in enumerate(teacher_out):
            for v in range(len(student_out)):
                if v == iq:
                    continue
                loss = torch.sum(-q * F.log_softmax(student_out[v], dim=-1), dim=-1)
                total_loss += loss.mean()
                n_loss_terms += 1
        total_loss /= n_loss_terms
        self.update_center(teacher_output)
        return total_loss

    @torch.no_grad()
    def update_center(self, teacher_output):
        batch_center = torch.sum(teacher_output, dim=0, keepdim=True)
        batch_center = batch_center / len(teacher_output)
        self.center = self.center * self.center_momentum + batch_center * (1 - self.center_momentum)


torch.manual_seed(1)
student = nn.Sequential(nn.Linear(8, 16), nn.GELU(), nn.Linear(16, 10))
teacher = nn.Sequential(nn.Linear(8, 16), nn.GELU(), nn.Linear(16, 10))
teacher.load_state_dict(student.state_dict())
teacher.requires_grad_(False)
dino = DINOLoss(10, ncrops=4)
opt = torch.optim.SGD(student.parameters(), lr=0.1)
batch = torch.randn(6, 8)
for epoch in range(3):
    crops = [batch + 0.05 * (i + 1) * torch.randn_like(batch) for i in range(4)]
    s_out = student(torch.cat(crops))
    t_out = teacher(torch.cat(crops[:2]))
    loss = dino(s_out, t_out, epoch)
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():
        m = 0.996
        for param_q, param_k in zip(student.parameters(), teacher.parameters()):
            param_k.data.mul_(m).add_((1 - m) * param_q.detach().data)
    print(f"dino epoch {epoch}: {loss.item():.5f} center {dino.center.norm().item():.5f}")
ema = [p.clone() for p in teacher.parameters()]
with torch.no_grad():
    torch._foreach_lerp_(ema, list(student.parameters()), 0.5)
    for e, s in zip(ema, student.parameters()):
        e.lerp_(s, 0.25)
print(type(dino.center).__name__, "center" in dict(dino.named_buffers()), ema[0].requires_grad)
out(loss, dino.center, teacher[2].weight, ema[2])
