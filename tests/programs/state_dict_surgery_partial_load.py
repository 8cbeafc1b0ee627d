# Checkpoint surgery: strip 'module.' prefixes, drop the head, strict=False and its report
import io
from collections import OrderedDict

torch.manual_seed(0)


class Backbone(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4), nn.ReLU())
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(4, num_classes)

    def forward(self, x):
        return self.fc(self.pool(self.features(x)).flatten(1))


src = Backbone(10)
wrapped = nn.DataParallel(src) if False else nn.Sequential(OrderedDict(module=src))
ckpt = {"epoch": 7, "state_dict": wrapped.state_dict(), "best_acc1": torch.tensor(71.5)}
buf = io.BytesIO()
torch.save(ckpt, buf)
buf.seek(0)
loaded = torch.load(buf)
print(list(loaded["state_dict"].keys())[:4], loaded["epoch"], loaded["best_acc1"])
state_dict = OrderedDict(
    (k[len("module.") :] if k.startswith("module.") else k, v)
    for k, v in loaded["state_dict"].items()
)
state_dict = {k: v for k, v in state_dict.items() if not k.startswith("fc.")}
model = Backbone(num_classes=3)
result = model.load_state_dict(state_dict, strict=False)
print(result)
print(result.missing_keys, result.unexpected_keys)
missing, unexpected = result
print(len(missing), len(unexpected))
print(torch.equal(model.features[0].weight, src.features[0].weight))
print(model.features[1].num_batches_tracked, model.features[1].running_mean.dtype)
try:
    model.load_state_dict(loaded["state_dict"])
except RuntimeError as e:
    print(str(e).splitlines()[0])
err(lambda: model.load_state_dict(loaded["state_dict"]))
bad = dict(model.state_dict())
bad["fc.weight"] = torch.zeros(5, 4)
err(lambda: model.load_state_dict(bad))
err(lambda: model.load_state_dict(bad, strict=False))
out(model.fc.weight, model.features[0].weight)
# ---
# Partial loading by shape filter, renaming keys, assign=True, _metadata versions survive copying
from collections import OrderedDict

torch.manual_seed(0)
old = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 2))
new = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 5))
pretrained = old.state_dict()
model_dict = new.state_dict()
filtered = {
    k: v for k, v in pretrained.items() if k in model_dict and v.shape == model_dict[k].shape
}
print(sorted(filtered), sorted(set(pretrained) - set(filtered)))
model_dict.update(filtered)
print(new.load_state_dict(model_dict))
print(torch.equal(new[0].weight, old[0].weight), torch.equal(new[2].bias[:2], old[2].bias))
print(hasattr(pretrained, "_metadata"), type(pretrained).__name__)
renamed = OrderedDict((k.replace("0.", "encoder."), v) for k, v in pretrained.items())
print(list(renamed))
enc = nn.Module()
enc.encoder = nn.Linear(4, 6)
print(enc.load_state_dict(renamed, strict=False))
meta = nn.Linear(4, 6, device="meta")
r = meta.load_state_dict(
    {"weight": pretrained["0.weight"], "bias": pretrained["0.bias"]}, assign=True
)
print(r, meta.weight.device, meta.weight.requires_grad, type(meta.weight).__name__)
out(meta.weight, new[2].weight)
