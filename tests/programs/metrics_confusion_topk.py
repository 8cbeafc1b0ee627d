# Eval loop: top-k accuracy, confusion matrix by bincount, per-class precision/recall/F1
torch.manual_seed(0)
num_classes = 5
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, num_classes))
data = torch.randn(64, 8)
targets = torch.randint(0, num_classes, (64,))


def accuracy(output, target, topk=(1,)):
    """Computes the accuracy over the k top predictions for the specified values of k"""
    with torch.no_grad():
        maxk = max(topk)
        batch_size = target.size(0)
        _, pred = output.topk(maxk, 1, True, True)
        pred = pred.t()
        correct = pred.eq(target.view(1, -1).expand_as(pred))
        res = []
        for k in topk:
            correct_k = correct[:k].reshape(-1).float().sum(0, keepdim=True)
            res.append(correct_k.mul_(100.0 / batch_size))
        return res


class AverageMeter:
    def __init__(self, name, fmt=":f"):
        self.name, self.fmt = name, fmt
        self.reset()

    def reset(self):
        self.val = self.avg = self.sum = self.count = 0

    def update(self, val, n=1):
        self.val = val
        self.sum += val * n
        self.count += n
        self.avg = self.sum / self.count

    def __str__(self):
        fmtstr = "{name} {val" + self.fmt + "} ({avg" + self.fmt + "})"
        return fmtstr.format(**self.__dict__)


top1, top3 = AverageMeter("Acc@1", ":6.2f"), AverageMeter("Acc@3", ":6.2f")
confusion = torch.zeros(num_classes, num_classes, dtype=torch.int64)
model.eval()
with torch.no_grad():
    for i in range(0, 64, 16):
        images, target = data[i : i + 16], targets[i : i + 16]
        output = model(images)
        acc1, acc3 = accuracy(output, target, topk=(1, 3))
        top1.update(acc1[0], images.size(0))
        top3.update(acc3[0], images.size(0))
        preds = output.argmax(dim=1)
        confusion += torch.bincount(target * num_classes + preds, minlength=num_classes**2).reshape(
            num_classes, num_classes
        )
        print(f"[{i // 16}/4]\t{top1}\t{top3}")
print(f" * Acc@1 {top1.avg:.3f} Acc@3 {top3.avg:.3f}")
print(confusion)
tp = confusion.diag().float()
precision = tp / confusion.sum(0).clamp(min=1)
recall = tp / confusion.sum(1).clamp(min=1)
f1 = 2 * precision * recall / (precision + recall).clamp(min=1e-8)
for c in range(num_classes):
    print(f"class {c}: P={precision[c]:.3f} R={recall[c]:.3f} F1={f1[c]:.3f}")
print(f"macro F1 {f1.mean().item():.4f}")
out(confusion, precision, recall, f1, top1.avg)
# ---
# Confusion matrix by scatter_add_ / index_put_ accumulate, balanced accuracy and IoU per class
num_classes = 4
pred = torch.tensor([0, 1, 1, 3, 2, 2, 0, 3, 3, 1])
true = torch.tensor([0, 1, 2, 3, 2, 1, 0, 3, 0, 1])
cm = torch.zeros(num_classes * num_classes, dtype=torch.long)
cm.scatter_add_(0, true * num_classes + pred, torch.ones_like(pred))
cm = cm.view(num_classes, num_classes)
cm2 = torch.zeros(num_classes, num_classes, dtype=torch.long)
cm2.index_put_((true, pred), torch.ones(len(pred), dtype=torch.long), accumulate=True)
print(torch.equal(cm, cm2))
inter = cm.diag()
union = cm.sum(0) + cm.sum(1) - inter
iou = inter.float() / union.float()
print("IoU", iou, "mIoU", iou.nanmean())
balanced = (cm.diag() / cm.sum(1)).mean()
print(f"balanced accuracy: {balanced:.4f}")
normalized = cm / cm.sum(dim=1, keepdim=True)
print(normalized)
out(cm, iou, balanced, normalized)
