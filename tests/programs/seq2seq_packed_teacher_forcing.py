# seq2seq GRU encoder-decoder with packed padded batches and teacher forcing
import random

random.seed(0)
torch.manual_seed(0)
SRC_V, TGT_V, PAD, SOS, EOS = 12, 10, 0, 1, 2


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(SRC_V, 6, padding_idx=PAD)
        self.rnn = nn.GRU(6, 8, bidirectional=True)
        self.fc = nn.Linear(16, 8)

    def forward(self, src, lens):
        packed = nn.utils.rnn.pack_padded_sequence(self.emb(src), lens, enforce_sorted=False)
        outs, h = self.rnn(packed)
        outs, out_lens = nn.utils.rnn.pad_packed_sequence(outs, padding_value=0.0)
        h = torch.tanh(self.fc(torch.cat((h[-2], h[-1]), dim=1)))
        return outs, h, out_lens


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(TGT_V, 6)
        self.attn = nn.Linear(16 + 8, 1)
        self.rnn = nn.GRU(6 + 16, 8)
        self.out = nn.Linear(8, TGT_V)

    def forward(self, tok, h, enc, mask):
        e = self.emb(tok).unsqueeze(0)
        L = enc.shape[0]
        hh = h.unsqueeze(0).repeat(L, 1, 1)
        score = self.attn(torch.cat((hh, enc), dim=2)).squeeze(2).t()
        score = score.masked_fill(mask == 0, -1e10)
        a = F.softmax(score, dim=1)
        ctx = torch.bmm(a.unsqueeze(1), enc.permute(1, 0, 2)).permute(1, 0, 2)
        o, h = self.rnn(torch.cat((e, ctx), dim=2), h.unsqueeze(0))
        return self.out(o.squeeze(0)), h.squeeze(0), a


enc, dec = Encoder(), Decoder()
seqs = [torch.randint(3, SRC_V, (n,)) for n in (5, 3, 4)]
lens = torch.tensor([len(s) for s in seqs])
src = nn.utils.rnn.pad_sequence(seqs, padding_value=PAD)
tgt = torch.randint(3, TGT_V, (4, 3))
tgt[0] = SOS
params = list(enc.parameters()) + list(dec.parameters())
opt = torch.optim.SGD(params, lr=0.5)
crit = nn.CrossEntropyLoss(ignore_index=PAD)
for it in range(3):
    opt.zero_grad()
    outs, h, out_lens = enc(src, lens)
    mask = (src != PAD).permute(1, 0)
    tok = tgt[0]
    logits = []
    for t in range(1, tgt.shape[0]):
        o, h, a = dec(tok, h, outs, mask)
        logits.append(o)
        teacher = random.random() < 0.5
        tok = tgt[t] if teacher else o.argmax(1)
    logits = torch.stack(logits)
    loss = crit(logits.view(-1, TGT_V), tgt[1:].reshape(-1))
    loss.backward()
    nn.utils.clip_grad_norm_(params, 1)
    opt.step()
    print(f"iter {it} loss={loss.item():.4f}", out_lens.tolist(), a.shape)
out(outs, a, enc.rnn.weight_hh_l0_reverse.grad)
packed = nn.utils.rnn.pack_sequence(sorted(seqs, key=len, reverse=True))
print(packed.batch_sizes, packed.sorted_indices, packed.data.shape)
print(nn.utils.rnn.pack_sequence(seqs, enforce_sorted=False).unsorted_indices)
print(
    nn.utils.rnn.unpad_sequence(src, lens)[1],
    nn.utils.rnn.unpack_sequence(nn.utils.rnn.pack_sequence(seqs, enforce_sorted=False))[2],
)
