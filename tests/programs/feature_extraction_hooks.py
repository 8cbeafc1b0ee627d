# feature extraction with forward hooks, a custom Dataset, and named_modules surgery
class ToyDataset(torch.utils.data.Dataset):
    def __init__(self, n):
        rng = np.random.default_rng(0)
        self.x = rng.standard_normal((n, 2, 6)).astype(np.float32)
        self.y = rng.integers(0, 2, n)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, idx):
        return {"signal": torch.from_numpy(self.x[idx]), "label": int(self.y[idx])}


dataset = ToyDataset(10)
loader = torch.utils.data.DataLoader(dataset, batch_size=4, drop_last=True)
batch = next(iter(loader))
out(len(loader), batch["signal"].shape, batch["label"])

model = nn.Sequential(
    nn.Conv1d(2, 3, 3),
    nn.BatchNorm1d(3),
    nn.ReLU(),
    nn.Conv1d(3, 4, 3),
    nn.ReLU(),
    nn.AdaptiveMaxPool1d(1),
    nn.Flatten(),
    nn.Linear(4, 2),
)
rng = np.random.default_rng(1)
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.tensor(rng.uniform(-0.5, 0.5, tuple(p.shape))))
activation = {}


def get_activation(name):
    def hook(model, input, output):
        activation[name] = output.detach()

    return hook


handles = [model[2].register_forward_hook(get_activation("relu1"))]
handles.append(model[6].register_forward_hook(get_activation("flat")))
grads = {}
handles.append(
    model[3].register_full_backward_hook(lambda m, gin, gout: grads.update(conv2=gout[0]))
)
handles.append(
    model[0].register_forward_pre_hook(lambda m, args: (args[0] * 2,))  # rescale the input
)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for batch in loader:
    optimizer.zero_grad()
    logits = model(batch["signal"])
    loss = F.cross_entropy(logits, batch["label"])
    loss.backward()
    optimizer.step()
    out(loss, activation["relu1"].shape, activation["flat"], grads["conv2"].shape)
for h in handles:
    h.remove()
out(model(batch["signal"]).detach(), len(activation))

convs = [name for name, m in model.named_modules() if isinstance(m, nn.Conv1d)]
out(convs, [name for name, _ in model.named_children()])
# swap every ReLU for a LeakyReLU in place
for name, m in model.named_children():
    if isinstance(m, nn.ReLU):
        setattr(model, name, nn.LeakyReLU(0.1))
print(model)
sd = model.state_dict()
out(list(sd), sd["1.num_batches_tracked"])
model.eval()
trunk = nn.Sequential(*list(model.children())[:-1])
out(trunk(batch["signal"]).detach())
