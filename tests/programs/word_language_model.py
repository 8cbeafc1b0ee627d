# word language model: LSTM with tied weights, truncated BPTT, repackaged hidden state
import math

corpus_rng = np.random.default_rng(21)
ntokens = 12
train_data_flat = torch.tensor(corpus_rng.integers(0, ntokens, size=90))


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    data = data.narrow(0, 0, nbatch * bsz)
    return data.view(bsz, -1).t().contiguous()


def get_batch(source, i, bptt=5):
    seq_len = min(bptt, len(source) - 1 - i)
    data = source[i : i + seq_len]
    target = source[i + 1 : i + 1 + seq_len].view(-1)
    return data, target


def repackage_hidden(h):
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage_hidden(v) for v in h)


class RNNModel(nn.Module):
    def __init__(self, rnn_type, ntoken, ninp, nhid, nlayers, tie_weights=False):
        super().__init__()
        self.drop = nn.Dropout(0.0)
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = getattr(nn, rnn_type)(ninp, nhid, nlayers, dropout=0.0)
        self.decoder = nn.Linear(nhid, ntoken)
        if tie_weights:
            self.decoder.weight = self.encoder.weight
        self.rnn_type, self.nhid, self.nlayers = rnn_type, nhid, nlayers
        rng = np.random.default_rng(8)
        with torch.no_grad():
            for p in self.parameters():
                p.copy_(torch.tensor(rng.uniform(-0.3, 0.3, tuple(p.shape))))

    def forward(self, input, hidden):
        emb = self.drop(self.encoder(input))
        output, hidden = self.rnn(emb, hidden)
        output = self.drop(output)
        decoded = self.decoder(output).view(-1, self.decoder.out_features)
        return F.log_softmax(decoded, dim=1), hidden

    def init_hidden(self, bsz):
        weight = next(self.parameters())
        if self.rnn_type == "LSTM":
            return (
                weight.new_zeros(self.nlayers, bsz, self.nhid),
                weight.new_zeros(self.nlayers, bsz, self.nhid),
            )
        return weight.new_zeros(self.nlayers, bsz, self.nhid)


train_data = batchify(train_data_flat, 4)
out(train_data.shape)
criterion = nn.NLLLoss()
for rnn_type in ("LSTM", "GRU"):
    model = RNNModel(rnn_type, ntokens, 6, 6, 2, tie_weights=True)
    lr = 5.0
    for epoch in range(2):
        model.train()
        total_loss = 0.0
        hidden = model.init_hidden(4)
        starts = range(0, train_data.size(0) - 1, 5)
        for i in starts:
            data, targets = get_batch(train_data, i)
            model.zero_grad()
            hidden = repackage_hidden(hidden)
            output, hidden = model(data, hidden)
            loss = criterion(output, targets)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 0.25)
            for p in model.parameters():
                p.data.add_(p.grad, alpha=-lr)
            total_loss += loss.item()
        out(rnn_type, epoch, total_loss / len(starts), math.exp(total_loss / len(starts)))
        lr /= 4.0
    hidden_state = hidden[0] if rnn_type == "LSTM" else hidden
    out(hidden_state.requires_grad, hidden_state.grad_fn is None, model.decoder.weight.grad)
    model.eval()
    with torch.no_grad():
        hidden = model.init_hidden(1)
        input = torch.tensor([[3]])
        words = []
        for _ in range(8):
            output, hidden = model(input, hidden)
            word_idx = output.argmax()
            input.fill_(word_idx)
            words.append(word_idx.item())
        out(words)
# ---
# word language model: Transformer encoder with a causal mask and sinusoidal positions
import math


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, max_len=64):
        super().__init__()
        pe = torch.zeros(max_len, d_model)
        position = torch.arange(0, max_len, dtype=torch.float).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe.unsqueeze(0).transpose(0, 1))

    def forward(self, x):
        return x + self.pe[: x.size(0), :]


class TransformerModel(nn.Module):
    def __init__(self, ntoken, ninp, nhead, nhid, nlayers):
        super().__init__()
        self.pos_encoder = PositionalEncoding(ninp)
        layer = nn.TransformerEncoderLayer(ninp, nhead, nhid, dropout=0.0)
        self.transformer_encoder = nn.TransformerEncoder(layer, nlayers, enable_nested_tensor=False)
        self.encoder = nn.Embedding(ntoken, ninp)
        self.decoder = nn.Linear(ninp, ntoken)
        self.ninp = ninp
        rng = np.random.default_rng(9)
        with torch.no_grad():
            for p in self.parameters():
                p.copy_(torch.tensor(rng.uniform(-0.3, 0.3, tuple(p.shape))))

    def forward(self, src):
        mask = nn.Transformer.generate_square_subsequent_mask(len(src))
        src = self.encoder(src) * math.sqrt(self.ninp)
        src = self.pos_encoder(src)
        output = self.transformer_encoder(src, mask=mask, is_causal=True)
        return F.log_softmax(self.decoder(output), dim=-1)


out(nn.Transformer.generate_square_subsequent_mask(4))
source = torch.tensor(np.random.default_rng(22).integers(0, 10, size=(12, 3)))
model = TransformerModel(10, 8, 2, 16, 2)
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
for step, i in enumerate(range(0, source.size(0) - 1, 4)):
    seq_len = min(4, len(source) - 1 - i)
    data, targets = source[i : i + seq_len], source[i + 1 : i + 1 + seq_len].reshape(-1)
    optimizer.zero_grad()
    output = model(data)
    loss = F.nll_loss(output.view(-1, 10), targets)
    loss.backward()
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5)
    optimizer.step()
    out(step, loss, norm)
model.eval()
with torch.no_grad():
    out(model(source[:5]).argmax(-1))
    # a causal model's prediction at position t does not depend on later tokens
    full = model(source[:6])
    prefix = model(source[:3])
    out(torch.allclose(full[:3], prefix, atol=1e-5))
