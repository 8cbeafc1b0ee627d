# pytorch/examples regression: polynomial features from torch.cat of powers, fc until loss < eps
POLY_DEGREE = 4
W_target = torch.randn(POLY_DEGREE, 1) * 5
b_target = torch.randn(1) * 5


def make_features(x):
    x = x.unsqueeze(1)
    return torch.cat([x**i for i in range(1, POLY_DEGREE + 1)], 1)


def f(x):
    return x.mm(W_target) + b_target.item()


def poly_desc(W, b):
    result = "y = "
    for i, w in enumerate(W):
        result += f"{w:+.2f} x^{i + 1} "
    result += f"{b[0]:+.2f}"
    return result


def get_batch(batch_size=32):
    random = torch.randn(batch_size)
    x = make_features(random)
    y = f(x)
    return x, y


fc = torch.nn.Linear(W_target.size(0), 1)
for batch_idx in range(1, 200):  # noqa: B007
    batch_x, batch_y = get_batch()
    fc.zero_grad()
    output = F.smooth_l1_loss(fc(batch_x), batch_y)
    loss = output.item()
    output.backward()
    for param in fc.parameters():
        param.data.add_(-0.1 * param.grad)
    if loss < 1e-3:
        break
print(f"Loss: {loss:.6f} after {batch_idx} batches")
print("==> Learned function:\t" + poly_desc(fc.weight.view(-1), fc.bias))
print("==> Actual function:\t" + poly_desc(W_target.view(-1), b_target))
out(fc.weight, fc.bias, make_features(torch.tensor([1.0, 2.0])))

# ---
# tensor formatting in f-strings and % formats, as printing code in examples does
w = torch.tensor([1.23456, -2.5])
b = torch.tensor([0.5])
print(f"{w[0]:+.2f} {w[1]:.3e} {b[0]:8.4f}|{b.item():g}")
print("%.3f %d" % (w[0], torch.tensor(7)))  # noqa: UP031
print("{:.1f}".format(w[1]))  # noqa: UP032
print(f"{torch.tensor(3)}", f"{torch.tensor(2.5)}", f"{torch.tensor(True)}")
err(lambda: f"{w:.2f}")
err(lambda: "%.2f" % w)  # noqa: UP031
err(lambda: format(torch.tensor([1.0]), ".2f"))
print(format(torch.tensor([1.0, 2.0])), str(torch.tensor(1.5)))
