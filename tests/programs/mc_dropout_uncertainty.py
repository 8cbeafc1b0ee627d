# MC dropout: dropout kept on at test time (enable only Dropout modules), predictive entropy, BALD
class Net(nn.Module):
    def __init__(self, p=0.3):
        super().__init__()
        self.fc1 = nn.Linear(5, 32)
        self.drop1 = nn.Dropout(p)
        self.fc2 = nn.Linear(32, 32, bias=False)
        self.drop2 = nn.Dropout(p)
        self.bn = nn.BatchNorm1d(32)
        self.out = nn.Linear(32, 3)

    def forward(self, x):
        x = self.drop1(F.relu(self.fc1(x)))
        x = self.drop2(F.relu(self.bn(self.fc2(x))))
        return self.out(x)


def enable_dropout(model):
    for m in model.modules():
        if m.__class__.__name__.startswith("Dropout"):
            m.train()


torch.manual_seed(0)
model = Net()
x = torch.randn(40, 5)
y = (x[:, 0] > 0).long() + (x[:, 1] > 0.5).long()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for _epoch in range(5):
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"train loss {loss.item():.5f}")
model.eval()
enable_dropout(model)
print([(n, m.training) for n, m in model.named_modules() if n])
x_test = torch.randn(6, 5)
T = 20
with torch.no_grad():
    probs = torch.stack([F.softmax(model(x_test), dim=-1) for _ in range(T)])
mean = probs.mean(0)
predictive_entropy = -(mean * torch.log(mean + 1e-10)).sum(-1)
expected_entropy = -(probs * torch.log(probs + 1e-10)).sum(-1).mean(0)
bald = predictive_entropy - expected_entropy
var = probs.var(0, unbiased=False).sum(-1)
print(probs.shape, mean.argmax(-1).tolist())
for i in range(3):
    print(
        f"x{i}: H={predictive_entropy[i].item():.4f} BALD={bald[i].item():.4f} "
        f"var={var[i].item():.5f}"
    )
out(mean, bald, var, probs.std(0))
model.eval()
with torch.no_grad():
    a, b = model(x_test), model(x_test)
print(torch.equal(a, b))
with torch.no_grad():
    batched = model(x_test.repeat(T, 1)).view(T, 6, 3).softmax(-1)
print(batched.shape, (batched.std(0) == 0).all().item())
F_drop = F.dropout(torch.ones(2, 6), p=0.5, training=True)
print(
    F_drop, F.dropout(torch.ones(3), 0.5, training=False), F.alpha_dropout(torch.ones(4), 0.0, True)
)
out(F.dropout1d(torch.ones(2, 3, 4), 0.5, training=True), F.dropout2d(torch.ones(1, 4, 2, 2), 0.5))
