# imagenet-style training loop: AverageMeter, ProgressMeter, top-k accuracy, StepLR, checkpoints
import os
import shutil
import tempfile
from enum import Enum


class Summary(Enum):
    NONE = 0
    AVERAGE = 1
    SUM = 2
    COUNT = 3


class AverageMeter:
    def __init__(self, name, fmt=":f", summary_type=Summary.AVERAGE):
        self.name = name
        self.fmt = fmt
        self.summary_type = summary_type
        self.reset()

    def reset(self):
        self.val = 0
        self.avg = 0
        self.sum = 0
        self.count = 0

    def update(self, val, n=1):
        self.val = val
        self.sum += val * n
        self.count += n
        self.avg = self.sum / self.count

    def all_reduce(self):
        total = torch.tensor([self.sum, self.count], dtype=torch.float32)
        self.sum, self.count = total.tolist()
        self.avg = self.sum / self.count

    def __str__(self):
        fmtstr = "{name} {val" + self.fmt + "} ({avg" + self.fmt + "})"
        return fmtstr.format(**self.__dict__)

    def summary(self):
        if self.summary_type is Summary.AVERAGE:
            return "{name} {avg:.3f}".format(**self.__dict__)
        return "{name} {sum:.3f}".format(**self.__dict__)


class ProgressMeter:
    def __init__(self, num_batches, meters, prefix=""):
        num_digits = len(str(num_batches // 1))
        fmt = "{:" + str(num_digits) + "d}"
        self.batch_fmtstr = "[" + fmt + "/" + fmt.format(num_batches) + "]"
        self.meters = meters
        self.prefix = prefix

    def display(self, batch):
        entries = [self.prefix + self.batch_fmtstr.format(batch)]
        entries += [str(meter) for meter in self.meters]
        print("\t".join(entries))

    def display_summary(self):
        print(" ".join([" *"] + [meter.summary() for meter in self.meters]))


def accuracy(output, target, topk=(1,)):
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


model = nn.Sequential(
    nn.Conv2d(3, 8, 3, padding=1),
    nn.BatchNorm2d(8),
    nn.ReLU(inplace=True),
    nn.AdaptiveAvgPool2d((1, 1)),
    nn.Flatten(),
    nn.Linear(8, 10),
)
torch.backends.cudnn.benchmark = True
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), 0.1, momentum=0.9, weight_decay=1e-4)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=2, gamma=0.1)
data = torch.randn(24, 3, 8, 8)
labels = torch.randint(0, 10, (24,))
dataset = torch.utils.data.TensorDataset(data, labels)
loader = torch.utils.data.DataLoader(dataset, batch_size=8, shuffle=True)
best_acc1 = 0
tmp = tempfile.mkdtemp()


CHECKPOINT = os.path.join(tmp, "checkpoint.pth.tar")


def save_checkpoint(state, is_best, filename=CHECKPOINT):
    torch.save(state, filename)
    if is_best:
        shutil.copyfile(filename, os.path.join(tmp, "model_best.pth.tar"))


for epoch in range(3):
    batch_time = AverageMeter("Time", ":6.3f")
    losses = AverageMeter("Loss", ":.4e")
    top1 = AverageMeter("Acc@1", ":6.2f")
    top5 = AverageMeter("Acc@5", ":6.2f")
    progress = ProgressMeter(len(loader), [losses, top1, top5], prefix=f"Epoch: [{epoch}]")
    model.train()
    for i, (images, target) in enumerate(loader):
        output = model(images)
        loss = criterion(output, target)
        acc1, acc5 = accuracy(output, target, topk=(1, 5))
        losses.update(loss.item(), images.size(0))
        top1.update(acc1[0], images.size(0))
        top5.update(acc5[0], images.size(0))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if i % 2 == 0:
            progress.display(i + 1)
    scheduler.step()
    model.eval()
    with torch.no_grad():
        out_ = model(data)
        acc1, acc5 = accuracy(out_, labels, topk=(1, 5))
    print(type(acc1), acc1, acc5)
    is_best = acc1.item() > best_acc1
    best_acc1 = max(acc1.item(), best_acc1)
    save_checkpoint(
        {
            "epoch": epoch + 1,
            "arch": "tiny",
            "state_dict": model.state_dict(),
            "best_acc1": best_acc1,
            "optimizer": optimizer.state_dict(),
            "scheduler": scheduler.state_dict(),
        },
        is_best,
    )
    progress.display_summary()
checkpoint = torch.load(os.path.join(tmp, "checkpoint.pth.tar"), weights_only=False)
print(checkpoint["epoch"], checkpoint["best_acc1"], checkpoint["scheduler"])
model.load_state_dict(checkpoint["state_dict"])
optimizer.load_state_dict(checkpoint["optimizer"])
print(optimizer.param_groups[0]["lr"], scheduler.get_last_lr())
shutil.rmtree(tmp)
