# vmap over nn layers: values and grad_fn names of linear, conv, norms, embedding, attention
def fill(module, start=0.0):
    with torch.no_grad():
        for i, p in enumerate(module.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel()) * 0.7 + i + start).reshape(p.shape) * 0.5)
    return module


x = torch.cos(torch.arange(60.0) * 0.37).reshape(4, 5, 3)
lin = fill(nn.Linear(3, 2))
out(torch.vmap(lin)(x), torch.vmap(lin, in_dims=1)(x), torch.vmap(lin)(x[:, 0]))
out(torch.vmap(fill(nn.Linear(3, 2, bias=False)))(x[:, 0]))
out(torch.vmap(lambda r: r @ lin.weight.t())(x))
out(torch.vmap(lambda r: torch.addmm(lin.bias, r, lin.weight.t()))(x))
out(torch.vmap(fill(nn.LayerNorm(3)))(x))
out(torch.vmap(nn.Sequential(fill(nn.Linear(3, 4)), nn.GELU(), fill(nn.Linear(4, 1))))(x))
img = torch.sin(torch.arange(4 * 2 * 6 * 6.0) * 0.11).reshape(4, 1, 2, 6, 6)
conv = fill(nn.Conv2d(2, 3, 3, padding=1))
out(torch.vmap(conv)(img))
out(torch.vmap(nn.Sequential(conv, nn.ReLU(), nn.MaxPool2d(2), nn.Flatten()))(img))
out(torch.vmap(nn.AvgPool2d(2))(img))
emb = fill(nn.Embedding(10, 3))
idx = torch.tensor([[1, 2, 3], [0, 9, 9]])
out(torch.vmap(emb)(idx), torch.vmap(lambda i: F.embedding(i, emb.weight))(idx))
att = fill(nn.MultiheadAttention(4, 2, batch_first=True))
seq = torch.cos(torch.arange(2 * 3 * 4.0)).reshape(2, 1, 3, 4)
out(torch.vmap(lambda s: att(s, s, s, need_weights=False)[0])(seq))
bn = fill(nn.BatchNorm1d(3)).eval()
out(torch.vmap(bn)(x))


# ---
# vmap(grad) per-sample gradients of layers: the gradients' shapes and values
def fill(module, start=0.0):
    with torch.no_grad():
        for i, p in enumerate(module.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel()) * 0.7 + i + start).reshape(p.shape) * 0.5)
    return module


model = nn.Sequential(fill(nn.Linear(3, 5)), nn.Tanh(), fill(nn.Linear(5, 2)))
params = {k: v.detach() for k, v in model.named_parameters()}
x = torch.cos(torch.arange(12.0)).reshape(4, 3)
t = torch.tensor([0, 1, 1, 0])


def loss(p, xi, ti):
    logits = torch.func.functional_call(model, p, (xi.unsqueeze(0),))
    return F.cross_entropy(logits, ti.unsqueeze(0))


g = torch.vmap(torch.func.grad(loss), in_dims=(None, 0, 0))(params, x, t)
out({k: v for k, v in g.items()})
gv = torch.vmap(torch.func.grad_and_value(loss), in_dims=(None, 0, 0))(params, x, t)
out(gv[1])
emb = fill(nn.Embedding(6, 2))
ids = torch.tensor([[1, 2], [2, 2], [5, 0]])


def emb_loss(w, i):
    return F.embedding(i, w).pow(2).sum()


out(torch.vmap(torch.func.grad(emb_loss), in_dims=(None, 0))(emb.weight.detach(), ids))
conv = fill(nn.Conv2d(1, 2, 3))
imgs = torch.sin(torch.arange(3 * 25.0)).reshape(3, 1, 1, 5, 5)


def conv_loss(p, im):
    return torch.func.functional_call(conv, p, (im,)).relu().mean()


cp = {k: v.detach() for k, v in conv.named_parameters()}
out(torch.vmap(torch.func.grad(conv_loss), in_dims=(None, 0))(cp, imgs))
rnn = fill(nn.LSTM(2, 3, batch_first=True))
rp = {k: v.detach() for k, v in rnn.named_parameters()}
seqs = torch.cos(torch.arange(3 * 4 * 2.0)).reshape(3, 1, 4, 2)


def rnn_loss(p, s):
    return torch.func.functional_call(rnn, p, (s,))[0].sum()


out(torch.vmap(torch.func.grad(rnn_loss), in_dims=(None, 0))(rp, seqs))
# per-sample gradients through normalization layers: batch norm in eval mode, group norm
net = nn.Sequential(fill(nn.Conv2d(1, 4, 3)), fill(nn.BatchNorm2d(4)), nn.ReLU(), nn.Flatten())
net[1].running_mean.copy_(torch.linspace(-0.2, 0.2, 4))
net[1].running_var.copy_(torch.linspace(0.5, 1.5, 4))
net.eval()
npar = {k: v.detach() for k, v in net.named_parameters()}
nbuf = {k: v for k, v in net.named_buffers()}


def net_loss(p, im):
    return torch.func.functional_call(net, (p, nbuf), (im,)).pow(2).mean()


out(torch.vmap(torch.func.grad(net_loss), in_dims=(None, 0))(npar, imgs))
gn = fill(nn.GroupNorm(2, 4))
gx = torch.cos(torch.arange(3 * 2 * 4 * 3.0)).reshape(3, 2, 4, 3)
gp = {k: v.detach() for k, v in gn.named_parameters()}
out(
    torch.vmap(
        torch.func.grad(lambda p, s: torch.func.functional_call(gn, p, (s,)).pow(3).sum()),
        in_dims=(None, 0),
    )(gp, gx)
)
out(torch.vmap(torch.func.grad(lambda s: gn(s).pow(3).sum()))(gx))
bn_train = nn.BatchNorm1d(4)
err(lambda: torch.vmap(bn_train)(gx))
out(torch.vmap(nn.BatchNorm1d(4, track_running_stats=False))(gx))
out(
    torch.vmap(torch.func.grad(lambda s: F.batch_norm(s, None, None, training=True).pow(3).sum()))(
        gx
    )
)
