# CS231n RNN captioning: rnn/lstm steps by hand, word embedding, temporal softmax loss with a mask
def rnn_step_forward(x, prev_h, Wx, Wh, b):
    return torch.tanh(x @ Wx + prev_h @ Wh + b)


def lstm_step_forward(x, prev_h, prev_c, Wx, Wh, b):
    H = prev_h.shape[1]
    a = x @ Wx + prev_h @ Wh + b
    i = torch.sigmoid(a[:, :H])
    f = torch.sigmoid(a[:, H : 2 * H])
    o = torch.sigmoid(a[:, 2 * H : 3 * H])
    g = torch.tanh(a[:, 3 * H :])
    next_c = f * prev_c + i * g
    next_h = o * torch.tanh(next_c)
    return next_h, next_c


N, D, H = 3, 10, 4
x = torch.linspace(-0.4, 0.7, steps=N * D).reshape(N, D)
prev_h = torch.linspace(-0.2, 0.5, steps=N * H).reshape(N, H)
Wx = torch.linspace(-0.1, 0.9, steps=D * H).reshape(D, H)
Wh = torch.linspace(-0.3, 0.7, steps=H * H).reshape(H, H)
b = torch.linspace(-0.2, 0.4, steps=H)
next_h = rnn_step_forward(x, prev_h, Wx, Wh, b)
print("next_h:", next_h)
cell = nn.RNNCell(D, H)
with torch.no_grad():
    cell.weight_ih.copy_(Wx.T)
    cell.weight_hh.copy_(Wh.T)
    cell.bias_ih.copy_(b)
    cell.bias_hh.zero_()
print(torch.allclose(cell(x, prev_h), next_h, atol=1e-6))

Wx4 = torch.linspace(-2.1, 1.3, steps=4 * D * H).reshape(D, 4 * H)
Wh4 = torch.linspace(-0.7, 2.2, steps=4 * H * H).reshape(H, 4 * H)
b4 = torch.linspace(0.3, 0.7, steps=4 * H)
prev_c = torch.linspace(-0.4, 4.3, steps=N * H).reshape(N, H)
h, c = lstm_step_forward(x, prev_h, prev_c, Wx4, Wh4, b4)
lstm = nn.LSTMCell(D, H)
with torch.no_grad():
    # torch orders the gates i, f, g, o
    order = torch.cat(
        [torch.arange(0, 2 * H), torch.arange(3 * H, 4 * H), torch.arange(2 * H, 3 * H)]
    )
    lstm.weight_ih.copy_(Wx4[:, order].T)
    lstm.weight_hh.copy_(Wh4[:, order].T)
    lstm.bias_ih.copy_(b4[order])
    lstm.bias_hh.zero_()
h2, c2 = lstm(x, (prev_h, prev_c))
print(torch.allclose(h, h2, atol=1e-6), torch.allclose(c, c2, atol=1e-5))
out(h, c, h2, c2)


def temporal_softmax_loss(x, y, mask):
    N, T, V = x.shape
    x_flat = x.reshape(N * T, V)
    y_flat = y.reshape(N * T)
    mask_flat = mask.reshape(N * T)
    log_probs = x_flat.log_softmax(dim=1)
    loss = -(log_probs[torch.arange(N * T), y_flat] * mask_flat).sum() / N
    return loss


torch.manual_seed(231)
N, T, V = 4, 5, 7
scores = (0.01 * torch.randn(N, T, V)).requires_grad_()
y = torch.randint(V, size=(N, T))
mask = torch.rand(N, T) <= 0.8
loss = temporal_softmax_loss(scores, y, mask)
print(f"{loss.item():.6f}", mask.sum().item())
loss.backward()
ref = (
    F.cross_entropy(
        scores.detach().reshape(-1, V), y.masked_fill(~mask, -100).reshape(-1), reduction="sum"
    )
    / N
)
print(f"{ref.item():.6f}", torch.allclose(loss, ref))
out(loss, scores.grad)

# a tiny captioning model: image features into h0, embedded words, an RNN, greedy sampling
null, start, end = 0, 1, 2
vocab_size, wordvec_dim, hidden_dim, feat_dim = 9, 6, 8, 5
features = torch.randn(2, feat_dim)
captions = torch.tensor([[1, 4, 5, 6, 2, 0], [1, 7, 3, 2, 0, 0]])
proj = nn.Linear(feat_dim, hidden_dim)
embed = nn.Embedding(vocab_size, wordvec_dim)
rnn = nn.RNN(wordvec_dim, hidden_dim, batch_first=True)
head = nn.Linear(hidden_dim, vocab_size)
params = [*proj.parameters(), *embed.parameters(), *rnn.parameters(), *head.parameters()]
opt = torch.optim.Adam(params, lr=5e-2)
captions_in, captions_out = captions[:, :-1], captions[:, 1:]
for it in range(8):
    h0 = proj(features).unsqueeze(0)
    hs, _ = rnn(embed(captions_in), h0)
    loss = temporal_softmax_loss(head(hs), captions_out, captions_out != null)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if it % 3 == 0:
        print(f"iter {it}: loss {loss.item():.4f}")
with torch.no_grad():
    h = proj(features).unsqueeze(0)
    word = torch.full((2, 1), start)
    sampled = []
    for _ in range(5):
        hs, h = rnn(embed(word), h)
        word = head(hs).argmax(-1)
        sampled.append(word)
    sampled = torch.cat(sampled, 1)
print(sampled)
out(sampled, head.weight)
