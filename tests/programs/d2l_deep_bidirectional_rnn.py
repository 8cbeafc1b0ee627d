# d2l deep and bidirectional RNNs: an RNNModel wrapper over nn.LSTM/nn.GRU, one-hot inputs, predict
import math

vocab_size, num_hiddens, num_steps, batch_size = 10, 8, 5, 2


class RNNModel(nn.Module):
    def __init__(self, rnn_layer, vocab_size, **kwargs):
        super().__init__(**kwargs)
        self.rnn = rnn_layer
        self.vocab_size = vocab_size
        self.num_hiddens = self.rnn.hidden_size
        if not self.rnn.bidirectional:
            self.num_directions = 1
            self.linear = nn.Linear(self.num_hiddens, self.vocab_size)
        else:
            self.num_directions = 2
            self.linear = nn.Linear(self.num_hiddens * 2, self.vocab_size)

    def forward(self, inputs, state):
        X = F.one_hot(inputs.T.long(), self.vocab_size)
        X = X.to(torch.float32)
        Y, state = self.rnn(X, state)
        output = self.linear(Y.reshape((-1, Y.shape[-1])))
        return output, state

    def begin_state(self, device, batch_size=1):
        if not isinstance(self.rnn, nn.LSTM):
            return torch.zeros(
                (self.num_directions * self.rnn.num_layers, batch_size, self.num_hiddens),
                device=device,
            )
        return (
            torch.zeros(
                (self.num_directions * self.rnn.num_layers, batch_size, self.num_hiddens),
                device=device,
            ),
            torch.zeros(
                (self.num_directions * self.rnn.num_layers, batch_size, self.num_hiddens),
                device=device,
            ),
        )


def grad_clipping(net, theta):
    params = [p for p in net.parameters() if p.requires_grad]
    norm = torch.sqrt(sum(torch.sum(p.grad**2) for p in params))
    if norm > theta:
        for param in params:
            param.grad[:] *= theta / norm
    return norm


def predict(prefix, num_preds, net, device):
    state = net.begin_state(batch_size=1, device=device)
    outputs = [prefix[0]]
    get_input = lambda: torch.tensor([outputs[-1]], device=device).reshape((1, 1))
    for y in prefix[1:]:
        _, state = net(get_input(), state)
        outputs.append(y)
    for _ in range(num_preds):
        y, state = net(get_input(), state)
        outputs.append(int(y.argmax(dim=1).reshape(1)))
    return outputs


corpus = torch.tensor([i % vocab_size for i in range(41)])
device = torch.device("cpu")
for name, layer in [
    ("deep lstm", nn.LSTM(vocab_size, num_hiddens, num_layers=2)),
    ("bi-lstm", nn.LSTM(vocab_size, num_hiddens, num_layers=2, bidirectional=True)),
    ("bi-gru", nn.GRU(vocab_size, num_hiddens, bidirectional=True)),
]:
    net = RNNModel(layer, vocab_size).to(device)
    print(name, net)
    updater = torch.optim.SGD(net.parameters(), lr=1.0)
    loss = nn.CrossEntropyLoss()
    for epoch in range(3):
        state = None
        total, n = 0.0, 0
        for i in range(0, 35, num_steps * batch_size):
            X = corpus[i : i + num_steps * batch_size].reshape(batch_size, num_steps)
            Y = corpus[i + 1 : i + 1 + num_steps * batch_size].reshape(batch_size, num_steps)
            if state is None:
                state = net.begin_state(batch_size=X.shape[0], device=device)
            else:
                if isinstance(state, tuple):
                    for s in state:
                        s.detach_()
                else:
                    state.detach_()
            y = Y.T.reshape(-1)
            y_hat, state = net(X, state)
            batch_loss = loss(y_hat, y.long()).mean()
            updater.zero_grad()
            batch_loss.backward()
            norm = grad_clipping(net, 1)
            updater.step()
            total += batch_loss.item() * y.numel()
            n += y.numel()
        print(
            f"{name} epoch {epoch}: perplexity {math.exp(total / n):.3f}, "
            f"grad norm {norm.item():.4f}"
        )
    print(predict([1, 2, 3], 6, net, device))
    out(y_hat, state)
