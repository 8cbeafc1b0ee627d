# f-strings with format specs on 0-d tensors and loss logging lines
torch.manual_seed(0)
loss = torch.tensor(0.123456789)
acc = torch.tensor(0.875)
print(f"{loss:.3f} {loss:>8.4f} {loss:<10.2e}| {acc:.1%} {acc:g} {loss:+.5f}")
n = torch.tensor(42)
print(f"{n:d} {n:5d} {n:>6} {n:x} {n:,}")
print(f"{loss} {n} {torch.tensor(True)}")
print("{:.4f}".format(torch.tensor(3.14159)), format(torch.tensor(2.5), ".1f"))  # noqa: UP032
print("%.3f" % torch.tensor(1.23456), "%d" % torch.tensor(7))  # noqa: UP031
print(round(torch.tensor(2.567).item(), 2), float(torch.tensor(1.5)), int(torch.tensor(3.9)))
print(f"{torch.tensor([1.0, 2.0])}")
err(lambda: f"{torch.tensor([1.0, 2.0]):.2f}")
print(f"{torch.tensor(1.5, dtype=torch.float64):.3f}", f"{torch.tensor(2, dtype=torch.int8):03d}")
print(f"{torch.tensor(1.5, requires_grad=True):.2f}")
x = torch.randn(3, requires_grad=True)
y = (x * 2).sum()
print(f"{y.item():.4f}", f"{y:.4f}")
# ---
# printing tensors with autograd info and many dtypes
torch.manual_seed(0)
x = torch.randn(2, 3, requires_grad=True)
print(x)
print(x * 2)
print(x.sum())
print(x.mean(dim=0))
print(x[0])
print(x.t())
print(x.view(3, 2))
print(x.exp().log())
print(x.detach())
print(torch.tensor([1, 2, 3], dtype=torch.int32), torch.tensor([1, 2], dtype=torch.int16))
print(torch.tensor([1.5, 2.25], dtype=torch.half), torch.tensor([1.5, -2.25], dtype=torch.bfloat16))
print(torch.tensor([1.0 + 2.0j, 3.5 - 1.0j], dtype=torch.complex64))
print(torch.tensor([[True, False], [False, True]]))
print(torch.tensor(5, dtype=torch.uint8), torch.tensor(2.0, dtype=torch.float16))
print(torch.tensor([1e-3, 1e3], dtype=torch.float16))
print(torch.tensor([0.1, 0.2, 0.3], dtype=torch.float64))
print(torch.zeros(3, dtype=torch.complex128))
print(torch.tensor([100, -5, 2000000]), torch.tensor([-1.0, 0.0, 1.0]))
print(repr(torch.empty(0, 2)), torch.ones(1, 1, 1))
print(torch.tensor([1.0, 2.0]).half().tolist(), torch.tensor([0.1]).half().item())
print(torch.tensor([0.1, 0.7], dtype=torch.bfloat16).tolist())
# ---
# large tensors summarised with ellipsis, in several shapes
torch.manual_seed(0)
print(torch.arange(1001))
print(torch.randn(1001))
print(torch.arange(2000).reshape(40, 50))
print(torch.randn(20, 60, 2)[:, :, 0].shape)
print(torch.ones(11, 11, 11))
print(torch.arange(1500, dtype=torch.float64) / 7)
print(torch.randint(0, 10, (1200,)))
print(torch.zeros(1100, dtype=torch.bool))
# ---
# set_printoptions precision, sci_mode, profile and linewidth
torch.manual_seed(0)
t = torch.randn(3) * 1000
torch.set_printoptions(precision=2)
print(t, torch.tensor([1.23456789]))
torch.set_printoptions(precision=8)
print(torch.tensor([1 / 3]), torch.tensor([1 / 3], dtype=torch.float64))
torch.set_printoptions(sci_mode=True)
print(t, torch.tensor([1.0, 2.0]))
torch.set_printoptions(sci_mode=False)
print(torch.tensor([1e-10, 1e10]))
torch.set_printoptions(profile="short")
print(torch.randn(5, 5), torch.arange(1000))
torch.set_printoptions(profile="full")
print(torch.arange(1100)[:20])
torch.set_printoptions(profile="default")
torch.set_printoptions(linewidth=30)
print(torch.randn(3, 8))
torch.set_printoptions(linewidth=80, precision=4)
print(torch.randn(2, 2))
torch.set_printoptions(profile="default")
print(torch.randn(2, 2))


# ---
# module reprs with nested containers, optimizer str, scheduler state
class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(d, d) for _ in range(2)])
        self.norms = nn.ModuleDict({"pre": nn.LayerNorm(d), "post": nn.BatchNorm1d(d)})
        self.act = nn.Sequential(nn.GELU(approximate="tanh"), nn.Dropout(0.1))
        self.params = nn.ParameterList([nn.Parameter(torch.ones(2)) for _ in range(2)])
        self.pdict = nn.ParameterDict({"a": nn.Parameter(torch.zeros(3))})
        self.register_buffer("mask", torch.ones(2), persistent=False)

    def forward(self, x):
        return x


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(10, 4, padding_idx=0)
        self.blocks = nn.Sequential(*[Block(4) for _ in range(2)])
        self.head = nn.Linear(4, 2, bias=False)
        self.conv = nn.Conv2d(3, 8, kernel_size=3, stride=2, padding=1, bias=False)
        self.pool = nn.AdaptiveAvgPool2d((1, 1))
        self.rnn = nn.LSTM(4, 8, num_layers=2, batch_first=True, dropout=0.2, bidirectional=True)
        self.gru = nn.GRU(4, 3)
        self.empty = nn.Sequential()
        self.id = nn.Identity()
        self.ln = nn.LayerNorm([4, 4], elementwise_affine=False)
        self.flat = nn.Flatten()
        self.up = nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False)
        self.ct = nn.ConvTranspose2d(8, 3, 2, stride=2)
        self.mha = nn.MultiheadAttention(4, 2, batch_first=True)
        self.loss = nn.CrossEntropyLoss(label_smoothing=0.1)
        self.bn2 = nn.BatchNorm2d(8, momentum=None)
        self.drop = nn.Dropout2d(p=0.3)
        self.lrelu = nn.LeakyReLU(0.2, inplace=True)
        self.sm = nn.Softmax(dim=-1)
        self.maxp = nn.MaxPool2d(2, 2)
        self.enc = nn.TransformerEncoder(
            nn.TransformerEncoderLayer(4, 2, 8, batch_first=True), 2, enable_nested_tensor=False
        )


net = Net()
print(net)
print(sum(p.numel() for p in net.parameters()), len(list(net.named_modules())))
opt = torch.optim.AdamW(
    [{"params": net.head.parameters(), "lr": 1e-3}, {"params": net.embed.parameters()}],
    lr=3e-4,
    weight_decay=0.01,
)
print(opt)
print(torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9, nesterov=True))
print(torch.optim.Adam(net.parameters()))
print(torch.optim.RMSprop(net.parameters(), lr=0.01))
sched = torch.optim.lr_scheduler.StepLR(opt, 2, gamma=0.5)
print(sched.state_dict())
print(sched.get_last_lr())
