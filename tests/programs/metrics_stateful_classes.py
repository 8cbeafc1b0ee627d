# Stateful metric classes with buffers: update/compute/reset for accuracy, F1, AUROC and calibration
torch.manual_seed(0)


class Metric(nn.Module):
    def __init__(self):
        super().__init__()
        self._defaults = {}

    def add_state(self, name, default):
        self._defaults[name] = default.clone()
        self.register_buffer(name, default.clone(), persistent=False)

    def reset(self):
        for name, default in self._defaults.items():
            setattr(self, name, default.clone())

    def forward(self, *args):
        self.update(*args)
        return self.compute()


class MulticlassAccuracy(Metric):
    def __init__(self, num_classes, top_k=1):
        super().__init__()
        self.top_k = top_k
        self.add_state("correct", torch.tensor(0))
        self.add_state("total", torch.tensor(0))

    def update(self, preds, target):
        topk = preds.topk(self.top_k, dim=-1).indices
        self.correct += (topk == target.unsqueeze(-1)).any(-1).sum()
        self.total += target.numel()

    def compute(self):
        return self.correct.float() / self.total


class MulticlassF1(Metric):
    def __init__(self, num_classes, average="macro"):
        super().__init__()
        self.num_classes, self.average = num_classes, average
        for name in ("tp", "fp", "fn"):
            self.add_state(name, torch.zeros(num_classes, dtype=torch.long))

    def update(self, preds, target):
        p = preds.argmax(-1)
        cm = torch.bincount(target * self.num_classes + p, minlength=self.num_classes**2)
        cm = cm.reshape(self.num_classes, self.num_classes)
        tp = cm.diag()
        self.tp += tp
        self.fp += cm.sum(0) - tp
        self.fn += cm.sum(1) - tp

    def compute(self):
        if self.average == "micro":
            tp, fp, fn = self.tp.sum(), self.fp.sum(), self.fn.sum()
            return 2 * tp / (2 * tp + fp + fn)
        f1 = 2 * self.tp / (2 * self.tp + self.fp + self.fn).clamp(min=1)
        return f1.float().mean() if self.average == "macro" else f1


class BinaryAUROC(Metric):
    def __init__(self):
        super().__init__()
        self.preds, self.target = [], []

    def update(self, preds, target):
        self.preds.append(preds)
        self.target.append(target)

    def compute(self):
        preds, target = torch.cat(self.preds), torch.cat(self.target)
        order = torch.argsort(preds, descending=True, stable=True)
        preds, target = preds[order], target[order]
        distinct = torch.where(preds[1:] - preds[:-1] != 0)[0]
        idx = torch.cat([distinct, torch.tensor([target.numel() - 1])])
        tps = torch.cumsum(target, 0)[idx].float()
        fps = 1 + idx - tps
        tpr = torch.cat([torch.zeros(1), tps / tps[-1]])
        fpr = torch.cat([torch.zeros(1), fps / fps[-1]])
        return torch.trapz(tpr, fpr)

    def reset(self):
        self.preds, self.target = [], []


class CalibrationError(Metric):
    def __init__(self, n_bins=5):
        super().__init__()
        self.register_buffer("bin_boundaries", torch.linspace(0, 1, n_bins + 1))
        self.add_state("confidences", torch.empty(0))
        self.add_state("accuracies", torch.empty(0))

    def update(self, probs, target):
        conf, pred = probs.max(-1)
        self.confidences = torch.cat([self.confidences, conf])
        self.accuracies = torch.cat([self.accuracies, (pred == target).float()])

    def compute(self):
        idx = torch.bucketize(self.confidences, self.bin_boundaries[1:-1], right=True)
        n = len(self.bin_boundaries) - 1
        count = torch.zeros(n).scatter_add_(0, idx, torch.ones_like(self.confidences))
        conf_bin = torch.zeros(n).scatter_add_(0, idx, self.confidences)
        acc_bin = torch.zeros(n).scatter_add_(0, idx, self.accuracies)
        prop = count / count.sum()
        nz = count > 0
        gap = (conf_bin[nz] / count[nz] - acc_bin[nz] / count[nz]).abs()
        return torch.sum(gap * prop[nz])


acc, acc3, f1, f1micro, auroc, ece = (
    MulticlassAccuracy(4),
    MulticlassAccuracy(4, top_k=3),
    MulticlassF1(4),
    MulticlassF1(4, average="micro"),
    BinaryAUROC(),
    CalibrationError(),
)
for step in range(3):
    logits = torch.randn(16, 4)
    target = torch.randint(0, 4, (16,))
    batch_acc = acc(logits, target)
    acc3.update(logits, target)
    f1.update(logits, target)
    f1micro.update(logits, target)
    ece.update(logits.softmax(-1), target)
    scores = torch.rand(16)
    auroc.update(scores, (scores + 0.5 * torch.rand(16) > 0.8).long())
    print(f"step {step}: batch acc {batch_acc.item():.4f} running {acc.compute():.4f}")
print(acc.correct, acc.total, acc3.compute(), f1.tp, f1.fp)
print(f"macro F1 {f1.compute().item():.4f} micro {f1micro.compute().item():.4f}")
print(f"AUROC {auroc.compute().item():.4f} ECE {ece.compute().item():.4f}")
print(list(dict(ece.named_buffers()).keys()), ece.state_dict().keys())
res = f1.compute()
acc.reset()
f1.reset()
print(
    acc.correct,
    acc.total,
    f1.tp,
    MulticlassF1(3, average="none")(torch.eye(3), torch.tensor([0, 2, 2])),
)
out(res, auroc.compute(), ece.compute(), acc3.compute())
