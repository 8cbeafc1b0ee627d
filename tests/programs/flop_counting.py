# counting a small CNN's flops per module, forward and backward, as model-size reports do
import importlib

# (an import statement would bring in torch's own module under both libraries)
FlopCounterMode = importlib.import_module(torch.__name__ + ".utils.flop_counter").FlopCounterMode


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(8, 16, 3)
        )
        self.head = nn.Linear(16 * 2 * 2, 10)

    def forward(self, x):
        return self.head(self.features(x).flatten(1))


torch.manual_seed(0)
model = SmallCNN()
x = torch.randn(4, 3, 8, 8)
with FlopCounterMode(depth=2) as counter:
    loss = F.cross_entropy(model(x), torch.tensor([1, 2, 3, 4]))
    loss.backward()
print(counter.get_total_flops())
counts = counter.get_flop_counts()
for name in sorted(counts):
    print(name, sorted((str(op), n) for op, n in counts[name].items()))
print(counter.get_table(depth=1))
out(loss)
# ---
# a GPT-style block's flops per token: forward only, then with backward (about 3x)
import importlib

# (an import statement would bring in torch's own module under both libraries)
FlopCounterMode = importlib.import_module(torch.__name__ + ".utils.flop_counter").FlopCounterMode


class Block(nn.Module):
    def __init__(self, d=16, heads=2):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(x).split(d, dim=2)
        q, k, v = (z.view(b, t, self.heads, d // self.heads).transpose(1, 2) for z in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=False)
        x = x + self.proj(y.transpose(1, 2).reshape(b, t, d))
        return x + self.mlp(x)


torch.manual_seed(0)
block = Block()
x = torch.randn(2, 8, 16)
with FlopCounterMode(display=False) as forward_only, torch.no_grad():
    block(x)
with FlopCounterMode(display=False) as both:
    block(x).pow(2).mean().backward()
tokens = x.shape[0] * x.shape[1]
print(forward_only.get_total_flops(), both.get_total_flops(), both.get_total_flops() / tokens)
print(sorted((str(op), n) for op, n in both.get_flop_counts()["Block.mlp"].items()))
with FlopCounterMode(display=False) as mixing:
    torch.einsum("btd,bsd->bts", x, x)
print(mixing.get_total_flops(), both.get_total_flops() / forward_only.get_total_flops())
