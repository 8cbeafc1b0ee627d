# knowledge distillation: temperature-scaled KL with batchmean, label smoothing and focal loss
torch.manual_seed(0)
teacher = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 4))
student = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 4))
teacher.eval()
x, y = torch.randn(16, 8), torch.randint(0, 4, (16,))
T, alpha = 4.0, 0.7
kd = nn.KLDivLoss(reduction="batchmean")
ce = nn.CrossEntropyLoss(label_smoothing=0.1)


def focal_loss(logits, target, gamma=2.0, alpha=0.25):
    logp = F.log_softmax(logits, dim=-1)
    logpt = logp.gather(1, target.unsqueeze(1)).squeeze(1)
    pt = logpt.exp()
    return (-alpha * (1 - pt) ** gamma * logpt).mean()


def binary_focal(logits, targets, gamma=2.0):
    bce = F.binary_cross_entropy_with_logits(logits, targets, reduction="none")
    p_t = torch.exp(-bce)
    return ((1 - p_t) ** gamma * bce).mean()


opt = torch.optim.SGD(student.parameters(), lr=0.05, momentum=0.9, weight_decay=5e-4)
for epoch in range(5):
    with torch.no_grad():
        t_logits = teacher(x)
    s_logits = student(x)
    soft = kd(F.log_softmax(s_logits / T, dim=1), F.softmax(t_logits / T, dim=1)) * (T * T)
    hard = ce(s_logits, y)
    fl = focal_loss(s_logits, y)
    loss = alpha * soft + (1 - alpha) * hard + fl
    opt.zero_grad()
    loss.backward()
    opt.step()
    acc = (s_logits.argmax(1) == y).float().mean()
    print(f"epoch {epoch} soft {soft:.4f} hard {hard:.4f} focal {fl:.5f} acc {acc:.2%}")
bf = binary_focal(torch.randn(6), torch.tensor([1.0, 0.0, 1.0, 1.0, 0.0, 0.0]))
smooth = torch.full((4, 4), 0.1 / 3).scatter_(1, torch.tensor([[0], [1], [2], [3]]), 0.9)
manual = -(smooth * F.log_softmax(s_logits[:4], 1)).sum(1).mean()
out(
    bf,
    manual,
    F.cross_entropy(s_logits[:4], torch.arange(4), label_smoothing=0.4 / 3),
    student[0].weight.grad[0],
)
