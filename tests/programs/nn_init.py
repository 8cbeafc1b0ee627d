# nn.init functions
w = torch.empty(3, 4)
out(nn.init.zeros_(w) is w, w.sum())
nn.init.ones_(w)
out(w.sum())
nn.init.constant_(w, 0.3)
out(w)
nn.init.eye_(w)
out(w)
torch.manual_seed(0)
nn.init.uniform_(w, -0.1, 0.1)
out(bool((w.abs() <= 0.1).all()))
nn.init.normal_(w, 5.0, 0.0)
out(w)
out(
    nn.init.calculate_gain("relu"),
    nn.init.calculate_gain("leaky_relu", 0.2),
    nn.init.calculate_gain("tanh"),
)
out(
    nn.init.calculate_gain("linear"),
    nn.init.calculate_gain("sigmoid"),
    nn.init.calculate_gain("selu"),
)
err(lambda: nn.init.calculate_gain("wat"))
err(lambda: nn.init.calculate_gain("leaky_relu", "x"))
big = torch.empty(200, 300)
nn.init.kaiming_uniform_(big, a=0)
bound = (6 / 300) ** 0.5
out(bool(big.abs().max() <= bound), bool(big.abs().max() > 0.9 * bound))
nn.init.kaiming_uniform_(big, mode="fan_out", nonlinearity="relu")
out(bool(big.abs().max() <= (6 / 200) ** 0.5))
nn.init.xavier_uniform_(big, gain=2.0)
out(bool(big.abs().max() <= 2 * (6 / 500) ** 0.5))
nn.init.xavier_normal_(big)
out(abs(float(big.std()) - (2 / 500) ** 0.5) < 0.003)
nn.init.kaiming_normal_(big)
out(abs(float(big.std()) - (2 / 300) ** 0.5) < 0.004)
err(lambda: nn.init.kaiming_uniform_(torch.empty(3)))
err(lambda: nn.init.xavier_uniform_(torch.empty(3)))
err(lambda: nn.init.kaiming_normal_(big, mode="fan_x"))
err(lambda: nn.init.eye_(torch.empty(2, 2, 2)))
p = nn.Parameter(torch.ones(2))
r = nn.init.zeros_(p)
out(r is p, p.requires_grad, p.grad_fn is None)
# ---
# default initialisation bounds per layer
torch.manual_seed(0)
lin = nn.Linear(50, 40)
b = 1 / 50**0.5
out(
    bool(lin.weight.abs().max() <= b),
    bool(lin.bias.abs().max() <= b),
    bool(lin.weight.abs().max() > 0.9 * b),
)
conv = nn.Conv2d(4, 6, 3)
b = 1 / (4 * 9) ** 0.5
out(bool(conv.weight.abs().max() <= b), bool(conv.bias.abs().max() <= b))
bn = nn.BatchNorm2d(3)
out(bn.weight, bn.bias, bn.running_mean, bn.running_var, bn.num_batches_tracked)
ln = nn.LayerNorm(3)
out(ln.weight, ln.bias)
emb = nn.Embedding(1000, 10)
out(abs(float(emb.weight.std()) - 1) < 0.05)
ct = nn.ConvTranspose2d(4, 6, 3)
b = 1 / (6 * 9) ** 0.5
out(bool(ct.weight.abs().max() <= b), bool(ct.bias.abs().max() <= b))
# ---
# init argument errors, sparse_ structure, gains
err(lambda: nn.init.uniform_(torch.empty(3), 1, 0))
err(lambda: nn.init.normal_(torch.empty(3), 0, -1))
err(lambda: torch.empty(3).uniform_(2.0, 1.0))
err(lambda: torch.normal(torch.zeros(2), torch.tensor([1.0, -1.0])))
err(lambda: torch.normal(0.0, -1.0, (2,)))
out((nn.init.sparse_(torch.empty(10, 4), 0.5) == 0).sum(0))
err(lambda: nn.init.sparse_(torch.empty(3), 0.5))
out(
    [
        nn.init.calculate_gain(n)
        for n in ["conv1d", "conv2d", "conv3d", "conv_transpose2d", "sigmoid"]
    ]
)
out(nn.init.calculate_gain("leaky_relu", None), nn.init.calculate_gain("leaky_relu", 1))
t = torch.zeros(2, requires_grad=True)
r = nn.init.ones_(t)
out(r, r.grad_fn, t._version)
out(
    nn.init.zeros_(torch.ones(2, dtype=torch.int64)),
    nn.init.constant_(torch.ones(2, dtype=torch.int64), 2.7),
)
err(lambda: nn.init.kaiming_uniform_(torch.empty(0, 3)))
