# "Reasoning about shapes": meta tensors through layers, a CNN's flatten size, and fake-free checks
torch.manual_seed(0)
a = torch.ones((2, 3, 4), device="meta")
b = torch.ones((4,), device="meta")
print(a.shape, b.device, (a @ b).shape)
conv = nn.Conv2d(3, 8, kernel_size=5, stride=2, padding=1).to("meta")
x = torch.empty(16, 3, 64, 64, device="meta")
y = conv(x)
print(y.shape, y.device, y.dtype, y.is_meta)
pool = nn.MaxPool2d(2)
print(pool(y).shape)


class CNN(nn.Module):
    def __init__(self, in_shape=(3, 32, 32)):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 6, 5), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(6, 16, 5), nn.ReLU()
        )
        with torch.no_grad():
            n = self.features(torch.zeros(1, *in_shape)).numel()
        print("flattened features:", n)
        self.head = nn.Linear(n, 10)

    def forward(self, x):
        return self.head(self.features(x).flatten(1))


model = CNN()
print(model(torch.randn(2, 3, 32, 32)).shape)


def forward_hook(module, input, output):
    print(f"{module.__class__.__name__:10s} {tuple(output.shape)}")


meta_model = CNN().to("meta")
for m in meta_model.modules():
    if not isinstance(m, (nn.Sequential, CNN)):
        m.register_forward_hook(forward_hook)
out_ = meta_model(torch.empty(4, 3, 32, 32, device="meta"))
print(out_.shape, out_.device)
lstm = nn.LSTM(10, 20, 2, batch_first=True, device="meta")
o, (h, c) = lstm(torch.empty(3, 7, 10, device="meta"))
print(o.shape, h.shape, c.shape)
emb = nn.Embedding(100, 8, device="meta")
print(emb(torch.zeros(2, 5, dtype=torch.long, device="meta")).shape)
err(lambda: a.item())
err(lambda: print(a.tolist()))
print(torch.empty(3, device="meta"))
print(repr(torch.zeros(2, 2, device="meta", dtype=torch.float16)))
big = nn.Linear(10_000, 10_000, device="meta")
print(sum(p.numel() for p in big.parameters()), big.weight.element_size())
real = big.to_empty(device="cpu")
print(real.weight.device, real.weight.shape)
nn.init.zeros_(real.bias)
out(real.bias[:3], y.shape)
