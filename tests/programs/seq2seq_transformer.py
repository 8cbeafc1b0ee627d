# translation with nn.Transformer (the seq2seq tutorial's shape): token embeddings scaled by
# sqrt(d), a sinusoidal positional encoding buffer, causal and padding masks, greedy decoding
import math

rng = np.random.default_rng(5)
PAD_IDX, BOS_IDX, EOS_IDX = 1, 2, 3
SRC_VOCAB, TGT_VOCAB, EMB = 11, 12, 8


class PositionalEncoding(nn.Module):
    def __init__(self, emb_size, dropout, maxlen=50):
        super().__init__()
        den = torch.exp(-torch.arange(0, emb_size, 2) * math.log(10000) / emb_size)
        pos = torch.arange(0, maxlen).reshape(maxlen, 1)
        pos_embedding = torch.zeros((maxlen, emb_size))
        pos_embedding[:, 0::2] = torch.sin(pos * den)
        pos_embedding[:, 1::2] = torch.cos(pos * den)
        pos_embedding = pos_embedding.unsqueeze(-2)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("pos_embedding", pos_embedding)

    def forward(self, token_embedding):
        return self.dropout(token_embedding + self.pos_embedding[: token_embedding.size(0), :])


class TokenEmbedding(nn.Module):
    def __init__(self, vocab_size, emb_size):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb_size)
        self.emb_size = emb_size

    def forward(self, tokens):
        return self.embedding(tokens.long()) * math.sqrt(self.emb_size)


class Seq2SeqTransformer(nn.Module):
    def __init__(self):
        super().__init__()
        self.transformer = nn.Transformer(
            d_model=EMB, nhead=2, num_encoder_layers=2, num_decoder_layers=1,
            dim_feedforward=16, dropout=0.1,
        )  # fmt: skip
        self.generator = nn.Linear(EMB, TGT_VOCAB)
        self.src_tok_emb = TokenEmbedding(SRC_VOCAB, EMB)
        self.tgt_tok_emb = TokenEmbedding(TGT_VOCAB, EMB)
        self.positional_encoding = PositionalEncoding(EMB, dropout=0.1)

    def forward(self, src, trg, src_mask, tgt_mask, src_padding_mask, tgt_padding_mask,
                memory_key_padding_mask):  # fmt: skip
        src_emb = self.positional_encoding(self.src_tok_emb(src))
        tgt_emb = self.positional_encoding(self.tgt_tok_emb(trg))
        outs = self.transformer(src_emb, tgt_emb, src_mask, tgt_mask, None, src_padding_mask,
                                tgt_padding_mask, memory_key_padding_mask)  # fmt: skip
        return self.generator(outs)

    def encode(self, src, src_mask):
        return self.transformer.encoder(self.positional_encoding(self.src_tok_emb(src)), src_mask)

    def decode(self, tgt, memory, tgt_mask):
        return self.transformer.decoder(
            self.positional_encoding(self.tgt_tok_emb(tgt)), memory, tgt_mask
        )


def generate_square_subsequent_mask(sz):
    mask = (torch.triu(torch.ones((sz, sz))) == 1).transpose(0, 1)
    return mask.float().masked_fill(mask == 0, float("-inf")).masked_fill(mask == 1, 0.0)


def create_mask(src, tgt):
    src_seq_len, tgt_seq_len = src.shape[0], tgt.shape[0]
    tgt_mask = generate_square_subsequent_mask(tgt_seq_len)
    src_mask = torch.zeros((src_seq_len, src_seq_len)).type(torch.bool)
    src_padding_mask = (src == PAD_IDX).transpose(0, 1)
    tgt_padding_mask = (tgt == PAD_IDX).transpose(0, 1)
    return src_mask, tgt_mask, src_padding_mask, tgt_padding_mask


def collate_fn(batch):
    src_batch = [torch.cat([torch.tensor([BOS_IDX]), s, torch.tensor([EOS_IDX])]) for s, _ in batch]
    tgt_batch = [torch.cat([torch.tensor([BOS_IDX]), t, torch.tensor([EOS_IDX])]) for _, t in batch]
    return (
        nn.utils.rnn.pad_sequence(src_batch, padding_value=PAD_IDX),
        nn.utils.rnn.pad_sequence(tgt_batch, padding_value=PAD_IDX),
    )


pairs = [
    (torch.tensor([4, 5, 6, 7]), torch.tensor([5, 6, 7, 8, 9])),
    (torch.tensor([8, 9]), torch.tensor([10, 11, 4])),
    (torch.tensor([4, 10, 5]), torch.tensor([4, 5])),
]
out(generate_square_subsequent_mask(3), nn.Transformer.generate_square_subsequent_mask(3))
model = Seq2SeqTransformer()
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.tensor(rng.uniform(-0.3, 0.3, tuple(p.shape))))
model.eval()  # dropout off: both libraries take the same path
loss_fn = nn.CrossEntropyLoss(ignore_index=PAD_IDX)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01, betas=(0.9, 0.98), eps=1e-9)
loader = torch.utils.data.DataLoader(pairs, batch_size=3, collate_fn=collate_fn)
for _ in range(3):
    for src, tgt in loader:
        tgt_input = tgt[:-1, :]
        src_mask, tgt_mask, src_padding_mask, tgt_padding_mask = create_mask(src, tgt_input)
        logits = model(src, tgt_input, src_mask, tgt_mask, src_padding_mask, tgt_padding_mask,
                       src_padding_mask)  # fmt: skip
        optimizer.zero_grad()
        tgt_out = tgt[1:, :]
        loss = loss_fn(logits.reshape(-1, logits.shape[-1]), tgt_out.reshape(-1))
        loss.backward()
        optimizer.step()
        out(loss, src.shape, tgt.shape, src_padding_mask)


def greedy_decode(model, src, src_mask, max_len, start_symbol):
    memory = model.encode(src, src_mask)
    ys = torch.ones(1, 1).fill_(start_symbol).type(torch.long)
    for _ in range(max_len - 1):
        tgt_mask = generate_square_subsequent_mask(ys.size(0)).type(torch.bool)
        out_ = model.decode(ys, memory, tgt_mask)
        out_ = out_.transpose(0, 1)
        prob = model.generator(out_[:, -1])
        _, next_word = torch.max(prob, dim=1)
        next_word = next_word.item()
        ys = torch.cat([ys, torch.ones(1, 1).type_as(src.data).fill_(next_word)], dim=0)
        if next_word == EOS_IDX:
            break
    return ys


src = torch.tensor([BOS_IDX, 4, 5, 6, 7, EOS_IDX]).view(-1, 1)
with torch.no_grad():
    ys = greedy_decode(model, src, torch.zeros(6, 6).type(torch.bool), 6, BOS_IDX)
out(ys.flatten(), ys.dtype)
