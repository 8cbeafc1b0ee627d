# d2l Transformer: PositionWiseFFN, AddNorm, encoder/decoder blocks with a state cache, predict
import math


class PositionWiseFFN(nn.Module):
    def __init__(self, ffn_num_hiddens, ffn_num_outputs):
        super().__init__()
        self.dense1 = nn.LazyLinear(ffn_num_hiddens)
        self.relu = nn.ReLU()
        self.dense2 = nn.LazyLinear(ffn_num_outputs)

    def forward(self, X):
        return self.dense2(self.relu(self.dense1(X)))


class AddNorm(nn.Module):
    def __init__(self, norm_shape, dropout):
        super().__init__()
        self.dropout = nn.Dropout(dropout)
        self.ln = nn.LayerNorm(norm_shape)

    def forward(self, X, Y):
        return self.ln(self.dropout(Y) + X)


ffn = PositionWiseFFN(4, 8)
ffn.eval()
print(ffn(torch.ones((2, 3, 4)))[0])
ln = nn.LayerNorm(2)
bn = nn.LazyBatchNorm1d()
X = torch.tensor([[1, 2], [2, 3]], dtype=torch.float32)
print("layer norm:", ln(X), "\nbatch norm:", bn(X))
add_norm = AddNorm(4, 0.5)
print(add_norm(torch.ones((2, 3, 4)), torch.ones((2, 3, 4))).shape)


class TransformerEncoderBlock(nn.Module):
    def __init__(self, num_hiddens, ffn_num_hiddens, num_heads, dropout, use_bias=False):
        super().__init__()
        self.attention = nn.MultiheadAttention(
            num_hiddens, num_heads, dropout, bias=use_bias, batch_first=True
        )
        self.addnorm1 = AddNorm(num_hiddens, dropout)
        self.ffn = PositionWiseFFN(ffn_num_hiddens, num_hiddens)
        self.addnorm2 = AddNorm(num_hiddens, dropout)

    def forward(self, X, key_padding_mask):
        attn, _ = self.attention(X, X, X, key_padding_mask=key_padding_mask, need_weights=False)
        Y = self.addnorm1(X, attn)
        return self.addnorm2(Y, self.ffn(Y))


class TransformerDecoderBlock(nn.Module):
    def __init__(self, num_hiddens, ffn_num_hiddens, num_heads, dropout, i):
        super().__init__()
        self.i = i
        self.attention1 = nn.MultiheadAttention(num_hiddens, num_heads, dropout, batch_first=True)
        self.addnorm1 = AddNorm(num_hiddens, dropout)
        self.attention2 = nn.MultiheadAttention(num_hiddens, num_heads, dropout, batch_first=True)
        self.addnorm2 = AddNorm(num_hiddens, dropout)
        self.ffn = PositionWiseFFN(ffn_num_hiddens, num_hiddens)
        self.addnorm3 = AddNorm(num_hiddens, dropout)

    def forward(self, X, state):
        enc_outputs, enc_padding = state[0], state[1]
        if state[2][self.i] is None:
            key_values = X
        else:
            key_values = torch.cat((state[2][self.i], X), dim=1)
        state[2][self.i] = key_values
        if self.training:
            num_steps = X.shape[1]
            causal = torch.triu(torch.ones(num_steps, num_steps, dtype=torch.bool), diagonal=1)
        else:
            causal = None
        X2, _ = self.attention1(X, key_values, key_values, attn_mask=causal)
        Y = self.addnorm1(X, X2)
        Y2, w = self.attention2(Y, enc_outputs, enc_outputs, key_padding_mask=enc_padding)
        Z = self.addnorm2(Y, Y2)
        return self.addnorm3(Z, self.ffn(Z)), state, w


class PositionalEncoding(nn.Module):
    def __init__(self, num_hiddens, dropout, max_len=100):
        super().__init__()
        self.dropout = nn.Dropout(dropout)
        position = torch.arange(max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, num_hiddens, 2) * (-math.log(10000.0) / num_hiddens))
        P = torch.zeros(1, max_len, num_hiddens)
        P[0, :, 0::2] = torch.sin(position * div_term)
        P[0, :, 1::2] = torch.cos(position * div_term)
        self.register_buffer("P", P, persistent=False)

    def forward(self, X):
        return self.dropout(X + self.P[:, : X.shape[1]])


num_hiddens, vocab, num_heads, num_steps = 16, 12, 4, 6
embedding = nn.Embedding(vocab, num_hiddens)
pos = PositionalEncoding(num_hiddens, 0.1)
encoder = TransformerEncoderBlock(num_hiddens, 32, num_heads, 0.1)
decoders = nn.ModuleList(
    [TransformerDecoderBlock(num_hiddens, 32, num_heads, 0.1, i) for i in range(2)]
)
dense = nn.Linear(num_hiddens, vocab)
modules = nn.ModuleList([embedding, encoder, decoders, dense])
print(list(pos.state_dict().keys()), pos.P.shape)

src = torch.tensor([[3, 4, 5, 1, 0, 0], [6, 7, 8, 9, 5, 1]])
src_valid_lens = torch.tensor([4, 6])
src_padding = torch.arange(num_steps)[None, :] >= src_valid_lens[:, None]
tgt_in = torch.tensor([[2, 5, 4, 3, 1, 0], [2, 5, 9, 8, 7, 6]])
tgt_out = torch.tensor([[5, 4, 3, 1, 0, 0], [5, 9, 8, 7, 6, 1]])


def encode(src):
    return encoder(pos(embedding(src) * math.sqrt(num_hiddens)), src_padding)


def decode(tgt, state):
    X = pos(embedding(tgt) * math.sqrt(num_hiddens))
    for blk in decoders:
        X, state, w = blk(X, state)
    return dense(X), state, w


opt = torch.optim.Adam(modules.parameters(), lr=0.01)
for epoch in range(5):
    modules.train()
    enc = encode(src)
    state = [enc, src_padding, [None] * len(decoders)]
    logits, state, _ = decode(tgt_in, state)
    loss = F.cross_entropy(logits.reshape(-1, vocab), tgt_out.reshape(-1), ignore_index=0)
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(modules.parameters(), 1.0)
    opt.step()
    print(f"epoch {epoch}: loss {loss.item():.4f}")

modules.eval()
with torch.no_grad():
    enc = encode(src)
    state = [enc, src_padding, [None] * len(decoders)]
    dec_X = torch.full((2, 1), 2)
    outputs, weights = [], []
    for _ in range(num_steps):
        Y, state, w = decode(dec_X, state)
        dec_X = Y.argmax(dim=2)
        outputs.append(dec_X)
        weights.append(w)
    pred = torch.cat(outputs, dim=1)
print(pred, [s.shape for s in state[2]])
print(weights[0][0])
out(pred, torch.stack(weights), state[2][1])
