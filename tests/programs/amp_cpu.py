# mixed precision on the CPU: autocast to bfloat16 with a gradient scaler
# The AMP recipe on a CPU: matrix products run in bfloat16, the loss in float32, and the
# scaler multiplies the loss before backward and unscales before the step.


def init_(model):
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape) * (i + 1) / 4)


net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
init_(net)
opt = torch.optim.SGD(net.parameters(), lr=0.25)
scaler = torch.amp.GradScaler("cpu", init_scale=2.0**8)
inputs = torch.tensor([[0.5, -1.0, 0.25, 2.0], [1.5, 0.75, -0.5, 0.0], [-1.0, 0.5, 1.0, 0.25]])
labels = torch.tensor([0, 2, 1])
for step in range(3):
    opt.zero_grad()
    with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
        logits = net(inputs)
        loss = nn.functional.cross_entropy(logits, labels)
    print(step, logits.dtype, loss.dtype, f"{loss.item():.3f}")
    scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()
out(logits.float(), loss, [p.grad for p in net.parameters()], scaler.get_scale())
out(type(logits.grad_fn).__name__, type(loss.grad_fn).__name__, net[0].weight.dtype)
# ---
# which ops autocast lowers and which it keeps in float32
a = torch.tensor([[0.5, -1.25], [2.0, 0.75]], requires_grad=True)
w = torch.tensor([[1.0, 0.5], [-0.25, 2.0]], requires_grad=True)
with torch.autocast("cpu"):
    mm = a @ w
    lin = nn.functional.linear(a, w)
    summed = a.sum()
    soft = a.softmax(-1)
    mse = nn.functional.mse_loss(mm, a)
    with torch.autocast("cpu", enabled=False):
        plain = a @ w
    print(torch.is_autocast_enabled("cpu"), torch.get_autocast_dtype("cpu"))
print(torch.is_autocast_enabled("cpu"))
out(mm.dtype, lin.dtype, summed.dtype, soft.dtype, mse.dtype, plain.dtype)
(mm.float().sum() + mse).backward()
out(mm.float(), mse, a.grad, w.grad)


@torch.autocast("cpu", dtype=torch.bfloat16)
def project(x):
    return x @ w


out(project(a).dtype, (a @ w).dtype)
# ---
# the deprecated CUDA spellings on a CPU-only machine
scaler = torch.cuda.amp.GradScaler(enabled=False)
w = torch.tensor([1.0, -2.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
with torch.cuda.amp.autocast(enabled=False):
    loss = (w * w).sum()
scaler.scale(loss).backward()
scaler.step(opt)
scaler.update()
out(w, scaler.get_scale(), scaler.is_enabled(), scaler.state_dict())
scaler = torch.amp.GradScaler()  # asks for CUDA: warns and disables itself
out(scaler.is_enabled(), scaler.scale(torch.tensor(3.0)))
with torch.autocast("cpu", dtype=torch.float64):  # unsupported dtype: warns, disabled
    out((torch.ones(2, 2) @ torch.ones(2, 2)).dtype, torch.is_autocast_enabled("cpu"))
err(lambda: torch.autocast(device_type=0))
# ---
# recurrent layers under CPU autocast: LSTM and RNN run in bfloat16, GRU stays float32
torch.manual_seed(0)
lstm = nn.LSTM(4, 6, num_layers=2, batch_first=True)
gru = nn.GRU(4, 6)
rnn = nn.RNN(4, 6, nonlinearity="relu")
proj = nn.LSTM(4, 6, proj_size=3)
x = torch.randn(2, 5, 4)
with torch.autocast("cpu", dtype=torch.bfloat16):
    o, (h, c) = lstm(x)
    out(o.dtype, h.dtype, c.dtype, o.shape, h.grad_fn.name())
    o2, h2 = gru(x.transpose(0, 1))
    out(o2.dtype, h2.dtype, o2.grad_fn.name())
    o3, h3 = rnn(x.transpose(0, 1))
    out(o3.dtype, h3.dtype, o3.grad_fn.name(), h3.grad_fn.name())
    o4, (h4, c4) = proj(x.transpose(0, 1))
    out(o4.dtype, o4.shape, h4.shape)
    packed = nn.utils.rnn.pack_padded_sequence(x, [5, 3], batch_first=True)
    p, (hp, cp) = lstm(packed)
    out(p.data.dtype, hp.dtype, p.batch_sizes)
loss = o.float().pow(2).mean() + o3.float().mean()
loss.backward()
out(lstm.weight_ih_l0.grad.dtype, lstm.weight_hh_l1.grad.shape, rnn.weight_hh_l0.grad.dtype)
