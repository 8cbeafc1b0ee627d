# saving and loading recipes: several models and optimizers in one file, map_location and warmstart
import io

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = x.view(-1, 16 * 5 * 5)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


netA = Net()
netB = Net()
optimizerA = torch.optim.SGD(netA.parameters(), lr=0.001, momentum=0.9)
optimizerB = torch.optim.SGD(netB.parameters(), lr=0.001, momentum=0.9)
x = torch.randn(2, 3, 32, 32)
for net, opt in ((netA, optimizerA), (netB, optimizerB)):
    net(x).sum().backward()
    opt.step()
print("Model's state_dict:")
for param_tensor in netA.state_dict():
    print(param_tensor, "\t", netA.state_dict()[param_tensor].size())
print("Optimizer's state_dict:")
for var_name, value in optimizerA.state_dict().items():
    print(
        var_name,
        "\t",
        value if var_name == "param_groups" else {k: list(v) for k, v in value.items()},
    )
buffer = io.BytesIO()
torch.save(
    {
        "modelA_state_dict": netA.state_dict(),
        "modelB_state_dict": netB.state_dict(),
        "optimizerA_state_dict": optimizerA.state_dict(),
        "optimizerB_state_dict": optimizerB.state_dict(),
    },
    buffer,
)
buffer.seek(0)
modelA, modelB = Net(), Net()
optimA = torch.optim.SGD(modelA.parameters(), lr=0.001, momentum=0.9)
optimB = torch.optim.SGD(modelB.parameters(), lr=0.001, momentum=0.9)
checkpoint = torch.load(buffer, map_location=torch.device("cpu"), weights_only=True)
print(modelA.load_state_dict(checkpoint["modelA_state_dict"]))
modelB.load_state_dict(checkpoint["modelB_state_dict"])
optimA.load_state_dict(checkpoint["optimizerA_state_dict"])
optimB.load_state_dict(checkpoint["optimizerB_state_dict"])
modelA.eval()
modelB.train()
print(torch.equal(modelA(x), netA.eval()(x)))
print(optimA.state_dict()["state"][0]["momentum_buffer"].shape)
out(modelB.fc3.bias, optimB.state_dict()["state"][9]["momentum_buffer"])
# ---
# warmstarting recipe: load a differently shaped model with strict=False, renaming keys
import io

torch.manual_seed(0)


class NetA(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.fc1 = nn.Linear(6 * 14 * 14, 10)

    def forward(self, x):
        return self.fc1(F.max_pool2d(F.relu(self.conv1(x)), 2).flatten(1))


class NetB(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.conv2 = nn.Conv2d(6, 6, 1)
        self.head = nn.Linear(6 * 14 * 14, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv2(F.relu(self.conv1(x)))), 2)
        return self.head(x.flatten(1))


netA = NetA()
buf = io.BytesIO()
torch.save(netA.state_dict(), buf)
buf.seek(0)
netB = NetB()
result = netB.load_state_dict(torch.load(buf, weights_only=True), strict=False)
print(result)
print(result.missing_keys, result.unexpected_keys)
print(torch.equal(netB.conv1.weight, netA.conv1.weight))
buf.seek(0)
state = torch.load(buf, weights_only=True)
renamed = {k.replace("fc1", "head"): v for k, v in state.items()}
result = netB.load_state_dict(renamed, strict=False)
print(result)
print(torch.equal(netB.head.bias, netA.fc1.bias))
try:
    netB.load_state_dict(renamed)
except RuntimeError as e:
    print(str(e).splitlines()[0])
bad = dict(renamed, **{"head.bias": torch.zeros(3)})
try:
    netB.load_state_dict(bad, strict=False)
except RuntimeError as e:
    print(str(e).splitlines()[0])
    print(str(e).splitlines()[1].strip())
out(netB(torch.randn(1, 3, 32, 32)))
