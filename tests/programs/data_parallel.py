# DataParallel on a CPU-only machine: the wrapper forwards and prefixes state dict keys
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(3, 4)
        self.fc2 = nn.Linear(4, 2)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


net = Net()
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.linspace(-1.0, 1.0, p.numel()).reshape(p.shape) / (i + 1))
model = nn.DataParallel(net)
print(model)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
x = torch.tensor([[0.5, -1.0, 2.0], [1.0, 0.0, -0.5]])
y = torch.tensor([1, 0])
for _ in range(3):
    opt.zero_grad()
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
    print(f"{loss.item():.5f}")
state = model.state_dict()
out(list(state), model.device_ids, model.module is net, loss)
# the usual fix when loading a DataParallel checkpoint into a bare model
plain = Net()
plain.load_state_dict({k.removeprefix("module."): v for k, v in state.items()})
out(plain(x), model(x), type(model(x).grad_fn).__name__)
err(lambda: plain.load_state_dict(state))
