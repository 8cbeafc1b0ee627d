# hand-written NLL with legacy typed tensors and range indexing
# A logistic-regression model written as in "What is torch.nn really?": weights made with
# legacy constructors, the loss picks each row's target log-probability with x[range(n), y].
import math

x_train = torch.FloatTensor([[0.0, 1.0, 2.0], [1.0, 0.5, -1.0], [2.0, -1.0, 0.0], [-1.0, 2.0, 1.0]])
y_train = torch.LongTensor([2, 0, 1, 2])
weights = torch.FloatTensor(3, 3)
with torch.no_grad():
    weights.copy_(torch.arange(9.0).reshape(3, 3) / 9 - 0.5)
weights.div_(math.sqrt(3))
weights.requires_grad_()
bias = torch.zeros(3, requires_grad=True)


def log_softmax(x):
    return x - x.exp().sum(-1).log().unsqueeze(-1)


def model(xb):
    return log_softmax(xb @ weights + bias)


def nll(input, target):
    return -input[range(target.shape[0]), target].mean()


def accuracy(out, yb):
    return (torch.argmax(out, dim=1) == yb).float().mean()


lr = 0.5
for epoch in range(3):
    pred = model(x_train)
    loss = nll(pred, y_train)
    loss.backward()
    with torch.no_grad():
        weights -= weights.grad * lr
        bias -= bias.grad * lr
        weights.grad.zero_()
        bias.grad.zero_()
    print(f"epoch {epoch}: loss {loss.item():.4f} accuracy {accuracy(pred, y_train).item():.2f}")
out(loss, weights, bias, model(x_train))
out(x_train.type(), y_train.type(), weights.type(torch.DoubleTensor))
out(isinstance(x_train, torch.FloatTensor), isinstance(y_train, torch.FloatTensor))
# ---
# range indexing: reads, writes and gradients
scores = torch.tensor([[0.1, 0.7, 0.2], [0.5, 0.2, 0.3], [0.3, 0.3, 0.4]], requires_grad=True)
targets = torch.tensor([1, 0, 2])
picked = scores[range(3), targets]
picked.sum().backward()
out(picked, scores.grad)
one_hot = torch.zeros(3, 3)
one_hot[range(3), targets] = 1
out(one_hot, one_hot[range(1, 3)], one_hot[:, range(2)])
mask = torch.ByteTensor([1, 0, 1]).bool()
out(scores.detach()[mask], scores.detach()[[True, False, True]])
out(scores.detach()[np.array([2, 0])], scores.detach()[(0, 1), (2, 0)])
# ---
# legacy constructors: sizes, data and errors
out(torch.DoubleTensor([1, 2]), torch.IntTensor([1.7, -2.2]), torch.BoolTensor([0, 3]))
out(torch.LongTensor(2, 3).shape, torch.Tensor(), torch.Tensor([1, 2]))
out(torch.HalfTensor([0.1]).dtype, torch.ShortTensor([1]).dtype, torch.CharTensor([1]).dtype)
err(lambda: torch.FloatTensor(torch.tensor([1, 2])))
err(lambda: torch.FloatTensor([1], requires_grad=True))
err(lambda: torch.FloatTensor(2.5))
err(lambda: torch.tensor([1]).type("torch.NoSuchTensor"))
print(torch.FloatTensor, torch.LongTensor.dtype)
