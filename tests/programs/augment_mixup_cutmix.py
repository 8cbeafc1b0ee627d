# mixup and cutmix as training scripts write them: Beta lam, permuted pairs, mixed criterion
torch.manual_seed(0)
np.random.seed(0)


def mixup_data(x, y, alpha=1.0):
    """Returns mixed inputs, pairs of targets, and lambda"""
    lam = np.random.beta(alpha, alpha) if alpha > 0 else 1
    batch_size = x.size()[0]
    index = torch.randperm(batch_size)
    mixed_x = lam * x + (1 - lam) * x[index, :]
    y_a, y_b = y, y[index]
    return mixed_x, y_a, y_b, lam


def mixup_criterion(criterion, pred, y_a, y_b, lam):
    return lam * criterion(pred, y_a) + (1 - lam) * criterion(pred, y_b)


def rand_bbox(size, lam):
    W, H = size[2], size[3]
    cut_rat = np.sqrt(1.0 - lam)
    cut_w, cut_h = int(W * cut_rat), int(H * cut_rat)
    cx, cy = np.random.randint(W), np.random.randint(H)
    bbx1, bby1 = np.clip(cx - cut_w // 2, 0, W), np.clip(cy - cut_h // 2, 0, H)
    bbx2, bby2 = np.clip(cx + cut_w // 2, 0, W), np.clip(cy + cut_h // 2, 0, H)
    return bbx1, bby1, bbx2, bby2


model = nn.Sequential(
    nn.Conv2d(3, 4, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(4, 3)
)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=5e-4)
inputs = torch.randn(8, 3, 8, 8)
targets = torch.randint(0, 3, (8,))
for step in range(3):
    if step % 2 == 0:
        mixed, ya, yb, lam = mixup_data(inputs, targets, alpha=0.4)
        outputs = model(mixed)
        loss = mixup_criterion(criterion, outputs, ya, yb, lam)
    else:
        lam = np.random.beta(1.0, 1.0)
        rand_index = torch.randperm(inputs.size()[0])
        bbx1, bby1, bbx2, bby2 = rand_bbox(inputs.size(), lam)
        mixed = inputs.clone()
        mixed[:, :, bbx1:bbx2, bby1:bby2] = inputs[rand_index, :, bbx1:bbx2, bby1:bby2]
        lam = 1 - ((bbx2 - bbx1) * (bby2 - bby1) / (inputs.size()[-1] * inputs.size()[-2]))
        outputs = model(mixed)
        loss = criterion(outputs, targets) * lam + criterion(outputs, targets[rand_index]) * (
            1.0 - lam
        )
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    _, predicted = torch.max(outputs.data, 1)
    correct = (
        lam * predicted.eq(ya.data).cpu().sum().float()
        + (1 - lam) * predicted.eq(yb.data).cpu().sum().float()
    )
    print(
        f"step {step} loss {loss.item():.4f} lam {float(lam):.3f} correct {correct:.2f}",
        type(loss).__name__,
        loss.dtype,
    )
out(loss, correct)
# ---
# Soft-target mixup with one_hot and label smoothing, cross_entropy on probabilities
torch.manual_seed(0)
num_classes, smoothing = 4, 0.1
x = torch.randn(6, 5)
y = torch.tensor([0, 1, 2, 3, 1, 0])


def one_hot(target, num_classes, on_value=1.0, off_value=0.0):
    target = target.long().view(-1, 1)
    return torch.full((target.size()[0], num_classes), off_value).scatter_(1, target, on_value)


def mixup_target(target, num_classes, lam=1.0, smoothing=0.0):
    off_value = smoothing / num_classes
    on_value = 1.0 - smoothing + off_value
    y1 = one_hot(target, num_classes, on_value=on_value, off_value=off_value)
    y2 = one_hot(target.flip(0), num_classes, on_value=on_value, off_value=off_value)
    return y1 * lam + y2 * (1.0 - lam)


soft = mixup_target(y, num_classes, lam=0.7, smoothing=smoothing)
print(soft)
head = nn.Linear(5, num_classes)
logits = head(x.lerp(x.flip(0), 0.3))
loss_soft = torch.sum(-soft * F.log_softmax(logits, dim=-1), dim=-1).mean()
loss_builtin = F.cross_entropy(logits, soft)
loss_ls = F.cross_entropy(logits, y, label_smoothing=smoothing)
print(f"{loss_soft.item():.5f} {loss_builtin.item():.5f} {loss_ls.item():.5f}")
loss_soft.backward()
out(soft, loss_soft, loss_builtin, loss_ls, head.weight.grad)
