# fine-tuning: freeze a backbone, replace the head, optimize only trainable parameters
rng = np.random.default_rng(0)


def fill(module):
    with torch.no_grad():
        for p in module.parameters():
            p.copy_(torch.tensor(rng.uniform(-0.5, 0.5, tuple(p.shape))))


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, padding=1)
        self.bn = nn.BatchNorm2d(4)
        self.pool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(4, 10)

    def forward(self, x):
        return self.fc(torch.flatten(self.pool(F.relu(self.bn(self.conv(x)))), 1))


model = Backbone()
fill(model)
for param in model.parameters():
    param.requires_grad = False
num_ftrs = model.fc.in_features
model.fc = nn.Linear(num_ftrs, 3)
fill(model.fc)
trainable = [n for n, p in model.named_parameters() if p.requires_grad]
out(num_ftrs, trainable)
optimizer = torch.optim.SGD(filter(lambda p: p.requires_grad, model.parameters()), lr=0.1)
images = torch.tensor(rng.standard_normal((6, 3, 5, 5)), dtype=torch.float32)
labels = torch.tensor([0, 1, 2, 0, 1, 2])
for phase in ("train", "val"):
    model.train() if phase == "train" else model.eval()
    with torch.set_grad_enabled(phase == "train"):
        outputs = model(images)
        _, preds = torch.max(outputs, 1)
        loss = F.cross_entropy(outputs, labels)
        if phase == "train":
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    running_corrects = torch.sum(preds == labels.data)
    out(phase, loss, running_corrects, running_corrects.double() / len(labels))
out(model.conv.weight.grad, model.fc.weight.grad, model.bn.running_mean)
# ---
# knowledge distillation: temperature-softened KL divergence plus hard-label cross entropy
rng = np.random.default_rng(1)
teacher = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 3))
student = nn.Sequential(nn.Linear(5, 4), nn.ReLU(), nn.Linear(4, 3))
for m in (teacher, student):
    with torch.no_grad():
        for p in m.parameters():
            p.copy_(torch.tensor(rng.uniform(-0.6, 0.6, tuple(p.shape))))
x = torch.tensor(rng.standard_normal((8, 5)), dtype=torch.float32)
labels = torch.tensor(rng.integers(0, 3, 8))
T, soft_target_loss_weight, ce_loss_weight = 2.0, 0.25, 0.75
optimizer = torch.optim.Adam(student.parameters(), lr=0.01)
teacher.eval()
student.train()
for step in range(4):
    optimizer.zero_grad()
    with torch.no_grad():
        teacher_logits = teacher(x)
    student_logits = student(x)
    soft_targets = F.softmax(teacher_logits / T, dim=-1)
    soft_prob = F.log_softmax(student_logits / T, dim=-1)
    soft_targets_loss = torch.sum(soft_targets * (soft_targets.log() - soft_prob)) / (
        soft_prob.size()[0] * T**2
    )
    kl = F.kl_div(soft_prob, soft_targets, reduction="batchmean") * T**2
    label_loss = F.cross_entropy(student_logits, labels)
    loss = soft_target_loss_weight * soft_targets_loss + ce_loss_weight * label_loss
    loss.backward()
    optimizer.step()
    out(step, loss, kl, soft_targets_loss)
out(nn.KLDivLoss(reduction="batchmean", log_target=True)(soft_prob, soft_targets.log()))
out(student[0].weight.grad, teacher[0].weight.grad)
