# d2l GRU and LSTM from scratch: params lists, one-hot inputs, grad_clipping, perplexity, predict
import math

vocab_size, num_hiddens = 8, 12
corpus = torch.tensor([1, 2, 3, 4, 5, 6, 7, 1, 2, 3, 4, 5, 6, 7, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3])


def seq_data_iter_sequential(corpus, batch_size, num_steps):
    offset = 2
    num_tokens = ((len(corpus) - offset - 1) // batch_size) * batch_size
    Xs = corpus[offset : offset + num_tokens]
    Ys = corpus[offset + 1 : offset + 1 + num_tokens]
    Xs, Ys = Xs.reshape(batch_size, -1), Ys.reshape(batch_size, -1)
    num_batches = Xs.shape[1] // num_steps
    for i in range(0, num_steps * num_batches, num_steps):
        yield Xs[:, i : i + num_steps], Ys[:, i : i + num_steps]


def get_gru_params(vocab_size, num_hiddens):
    num_inputs = num_outputs = vocab_size

    def normal(shape):
        return torch.randn(size=shape) * 0.01

    def three():
        return (
            normal((num_inputs, num_hiddens)),
            normal((num_hiddens, num_hiddens)),
            torch.zeros(num_hiddens),
        )

    W_xz, W_hz, b_z = three()
    W_xr, W_hr, b_r = three()
    W_xh, W_hh, b_h = three()
    W_hq = normal((num_hiddens, num_outputs))
    b_q = torch.zeros(num_outputs)
    params = [W_xz, W_hz, b_z, W_xr, W_hr, b_r, W_xh, W_hh, b_h, W_hq, b_q]
    for param in params:
        param.requires_grad_(True)
    return params


def init_gru_state(batch_size, num_hiddens):
    return (torch.zeros((batch_size, num_hiddens)),)


def gru(inputs, state, params):
    W_xz, W_hz, b_z, W_xr, W_hr, b_r, W_xh, W_hh, b_h, W_hq, b_q = params
    (H,) = state
    outputs = []
    for X in inputs:
        Z = torch.sigmoid((X @ W_xz) + (H @ W_hz) + b_z)
        R = torch.sigmoid((X @ W_xr) + (H @ W_hr) + b_r)
        H_tilda = torch.tanh((X @ W_xh) + ((R * H) @ W_hh) + b_h)
        H = Z * H + (1 - Z) * H_tilda
        Y = H @ W_hq + b_q
        outputs.append(Y)
    return torch.cat(outputs, dim=0), (H,)


class RNNModelScratch:
    def __init__(self, vocab_size, num_hiddens, get_params, init_state, forward_fn):
        self.vocab_size, self.num_hiddens = vocab_size, num_hiddens
        self.params = get_params(vocab_size, num_hiddens)
        self.init_state, self.forward_fn = init_state, forward_fn

    def __call__(self, X, state):
        X = F.one_hot(X.T, self.vocab_size).type(torch.float32)
        return self.forward_fn(X, state, self.params)

    def begin_state(self, batch_size):
        return self.init_state(batch_size, self.num_hiddens)


def grad_clipping(net, theta):
    if isinstance(net, nn.Module):
        params = [p for p in net.parameters() if p.requires_grad]
    else:
        params = net.params
    norm = torch.sqrt(sum(torch.sum(p.grad**2) for p in params))
    if norm > theta:
        for param in params:
            param.grad[:] *= theta / norm
    return norm


def predict(prefix, num_preds, net):
    state = net.begin_state(batch_size=1)
    outputs = [prefix[0]]

    def get_input():
        return torch.tensor([outputs[-1]]).reshape((1, 1))

    for y in prefix[1:]:
        _, state = net(get_input(), state)
        outputs.append(y)
    for _ in range(num_preds):
        y, state = net(get_input(), state)
        outputs.append(int(y.argmax(dim=1).reshape(1)))
    return outputs


def train_epoch(net, updater, batch_size, num_steps):
    state = None
    total, count = 0.0, 0
    for X, Y in seq_data_iter_sequential(corpus, batch_size, num_steps):
        if state is None:
            state = net.begin_state(batch_size=X.shape[0])
        else:
            for s in state:
                s.detach_()
        y = Y.T.reshape(-1)
        y_hat, state = net(X, state)
        l = nn.CrossEntropyLoss()(y_hat, y.long()).mean()  # noqa: E741
        if isinstance(updater, torch.optim.Optimizer):
            updater.zero_grad()
            l.backward()
            norm = grad_clipping(net, 1)
            updater.step()
        else:
            l.backward()
            norm = grad_clipping(net, 1)
            with torch.no_grad():
                for param in net.params:
                    param -= 1.0 * param.grad
                    param.grad.zero_()
        total += l.item() * y.numel()
        count += y.numel()
    return math.exp(total / count), norm


net = RNNModelScratch(vocab_size, num_hiddens, get_gru_params, init_gru_state, gru)
X = torch.arange(10).reshape((2, 5)) % vocab_size
err(lambda: F.one_hot(torch.arange(10), vocab_size))
Y, new_state = net(X, net.begin_state(X.shape[0]))
print(Y.shape, len(new_state), new_state[0].shape)
for epoch in range(12):
    ppl, norm = train_epoch(net, None, 2, 3)
    if epoch % 4 == 0:
        print(f"epoch {epoch}: perplexity {ppl:.3f}, grad norm {float(norm):.4f}")
print(predict([1, 2], 6, net))
out(net.params[0], net.params[-1], Y)

# ---
# d2l LSTM from scratch beside nn.LSTM with copied weights, and a concise RNNModel
num_inputs, num_hiddens = 5, 6


def normal(shape):
    return torch.randn(size=shape) * 0.1


W_xi, W_hi, b_i = (
    normal((num_inputs, num_hiddens)),
    normal((num_hiddens, num_hiddens)),
    torch.zeros(num_hiddens),
)
W_xf, W_hf, b_f = (
    normal((num_inputs, num_hiddens)),
    normal((num_hiddens, num_hiddens)),
    torch.zeros(num_hiddens),
)
W_xo, W_ho, b_o = (
    normal((num_inputs, num_hiddens)),
    normal((num_hiddens, num_hiddens)),
    torch.zeros(num_hiddens),
)
W_xc, W_hc, b_c = (
    normal((num_inputs, num_hiddens)),
    normal((num_hiddens, num_hiddens)),
    torch.zeros(num_hiddens),
)
params = [W_xi, W_hi, b_i, W_xf, W_hf, b_f, W_xo, W_ho, b_o, W_xc, W_hc, b_c]
for p in params:
    p.requires_grad_(True)


def lstm(inputs, state):
    H, C = state
    outputs = []
    for X in inputs:
        I = torch.sigmoid((X @ W_xi) + (H @ W_hi) + b_i)  # noqa: E741
        Fg = torch.sigmoid((X @ W_xf) + (H @ W_hf) + b_f)
        O = torch.sigmoid((X @ W_xo) + (H @ W_ho) + b_o)  # noqa: E741
        C_tilda = torch.tanh((X @ W_xc) + (H @ W_hc) + b_c)
        C = Fg * C + I * C_tilda
        H = O * torch.tanh(C)
        outputs.append(H)
    return torch.stack(outputs), (H, C)


inputs = torch.randn(4, 3, num_inputs)
state = (torch.zeros(3, num_hiddens), torch.zeros(3, num_hiddens))
ys, (H, C) = lstm(inputs, state)

ref = nn.LSTM(num_inputs, num_hiddens)
with torch.no_grad():
    # torch's gate order is input, forget, cell, output
    ref.weight_ih_l0.copy_(torch.cat([W_xi, W_xf, W_xc, W_xo], dim=1).T)
    ref.weight_hh_l0.copy_(torch.cat([W_hi, W_hf, W_hc, W_ho], dim=1).T)
    ref.bias_ih_l0.zero_()
    ref.bias_hh_l0.zero_()
ys_ref, (h_ref, c_ref) = ref(inputs)
print(torch.allclose(ys, ys_ref, atol=1e-6), torch.allclose(C, c_ref[0], atol=1e-6))
print(ys.shape, ys_ref.shape, h_ref.shape)
(ys.sum() + C.sum()).backward()
print(W_xi.grad.shape, b_c.grad)


class RNNModel(nn.Module):
    def __init__(self, rnn_layer, vocab_size):
        super().__init__()
        self.rnn = rnn_layer
        self.vocab_size = vocab_size
        self.num_hiddens = self.rnn.hidden_size
        self.num_directions = 2 if self.rnn.bidirectional else 1
        self.linear = nn.Linear(self.num_hiddens * self.num_directions, self.vocab_size)

    def forward(self, inputs, state):
        X = F.one_hot(inputs.T.long(), self.vocab_size).to(torch.float32)
        Y, state = self.rnn(X, state)
        output = self.linear(Y.reshape((-1, Y.shape[-1])))
        return output, state

    def begin_state(self, batch_size=1):
        if not isinstance(self.rnn, nn.LSTM):
            return torch.zeros(
                (self.num_directions * self.rnn.num_layers, batch_size, self.num_hiddens)
            )
        shape = (self.num_directions * self.rnn.num_layers, batch_size, self.num_hiddens)
        return (torch.zeros(shape), torch.zeros(shape))


for layer in [nn.GRU(7, 5), nn.LSTM(7, 5, num_layers=2), nn.RNN(7, 5, bidirectional=True)]:
    model = RNNModel(layer, 7)
    state = model.begin_state(batch_size=2)
    output, state = model(torch.tensor([[1, 2, 3], [4, 5, 6]]), state)
    loss = output.square().mean()
    loss.backward()
    norm = torch.sqrt(sum(torch.sum(p.grad**2) for p in model.parameters()))
    print(type(layer).__name__, output.shape, f"{loss.item():.5f}", f"{norm.item():.5f}")
out(ys, ys_ref, W_xi.grad, output)
