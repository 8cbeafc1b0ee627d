# a text-classification pipeline: Dataset, DataLoader(collate_fn=...) building EmbeddingBag
# offsets, and a few epochs of SGD with a StepLR schedule
DataLoader, Dataset = torch.utils.data.DataLoader, torch.utils.data.Dataset


def fill_(module, scale=0.3):
    with torch.no_grad():
        for i, p in enumerate(module.parameters()):
            grid = torch.arange(p.numel(), dtype=torch.float32).reshape(p.shape)
            p.copy_(torch.cos(grid * 0.53 + i) * scale)


texts = ["good great fine", "bad awful", "great good good", "awful bad terrible bad", "fine"]
labels = [1, 0, 1, 0, 1]
vocab = {w: i for i, w in enumerate(sorted({w for t in texts for w in t.split()}))}


class Reviews(Dataset):
    def __len__(self):
        return len(texts)

    def __getitem__(self, i):
        return labels[i], texts[i]


def collate(batch):
    label_list, token_list, offsets = [], [], [0]
    for label, text in batch:
        label_list.append(label)
        ids = torch.tensor([vocab[w] for w in text.split()], dtype=torch.int64)
        token_list.append(ids)
        offsets.append(ids.size(0))
    return (
        torch.tensor(label_list),
        torch.cat(token_list),
        torch.tensor(offsets[:-1]).cumsum(dim=0),
    )


class BagModel(nn.Module):
    def __init__(self, n, dim, classes):
        super().__init__()
        self.embedding = nn.EmbeddingBag(n, dim, mode="mean")
        self.fc = nn.Linear(dim, classes)

    def forward(self, text, offsets):
        return self.fc(self.embedding(text, offsets))


loader = DataLoader(Reviews(), batch_size=2, shuffle=False, collate_fn=collate)
model = BagModel(len(vocab), 4, 2)
fill_(model)
opt = torch.optim.SGD(model.parameters(), lr=2.0)
sched = torch.optim.lr_scheduler.StepLR(opt, 1, gamma=0.5)
for epoch in range(3):
    total, correct = 0.0, 0
    for label, text, offsets in loader:
        opt.zero_grad()
        pred = model(text, offsets)
        loss = F.cross_entropy(pred, label)
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 0.1)
        opt.step()
        total += loss.item()
        correct += (pred.argmax(1) == label).sum().item()
    sched.step()
    print(epoch, round(total, 5), correct, sched.get_last_lr())
out(next(iter(loader)), model.embedding.weight)
# ---
# variable-length sequences: pad_sequence, pack_padded_sequence(enforce_sorted=False), a
# bidirectional GRU, and the last valid hidden state per sequence
rnn_utils = nn.utils.rnn
pack_padded_sequence = rnn_utils.pack_padded_sequence
pad_packed_sequence, pad_sequence = rnn_utils.pad_packed_sequence, rnn_utils.pad_sequence


def fill_(module, scale=0.3):
    with torch.no_grad():
        for i, p in enumerate(module.parameters()):
            grid = torch.arange(p.numel(), dtype=torch.float32).reshape(p.shape)
            p.copy_(torch.cos(grid * 0.53 + i) * scale)


seqs = [torch.tensor([1, 4, 2]), torch.tensor([3, 1, 1, 4, 2]), torch.tensor([2])]
lengths = torch.tensor([len(s) for s in seqs])
padded = pad_sequence(seqs, batch_first=True, padding_value=0)
emb = nn.Embedding(5, 3, padding_idx=0)
gru = nn.GRU(3, 4, batch_first=True, bidirectional=True)
fill_(emb)
fill_(gru)
packed = pack_padded_sequence(emb(padded), lengths, batch_first=True, enforce_sorted=False)
output, h_n = gru(packed)
unpacked, out_lengths = pad_packed_sequence(output, batch_first=True)
last = unpacked[torch.arange(3), lengths - 1, :4]
features = torch.cat([h_n[0], h_n[1]], dim=1)
features.sum().backward()
out(padded, packed.batch_sizes, packed.sorted_indices, unpacked, out_lengths)
out(torch.allclose(last, h_n[0]), features, gru.weight_hh_l0_reverse.grad.abs().sum())


# ---
# a character-level RNN generating text greedily from a prompt (argmax, no sampling)
def fill_(module, scale=0.4):
    with torch.no_grad():
        for i, p in enumerate(module.parameters()):
            grid = torch.arange(p.numel(), dtype=torch.float32).reshape(p.shape)
            p.copy_(torch.cos(grid * 0.71 + i) * scale)


chars = sorted(set("hello world"))
stoi = {c: i for i, c in enumerate(chars)}


class CharRNN(nn.Module):
    def __init__(self, n, hidden):
        super().__init__()
        self.embed = nn.Embedding(n, hidden)
        self.lstm = nn.LSTM(hidden, hidden, num_layers=2, batch_first=True)
        self.head = nn.Linear(hidden, n)

    def forward(self, x, state=None):
        h, state = self.lstm(self.embed(x), state)
        return self.head(h), state


model = CharRNN(len(chars), 6)
fill_(model)
data = torch.tensor([[stoi[c] for c in "hello world"]])
opt = torch.optim.RMSprop(model.parameters(), lr=0.01)
for step in range(4):
    logits, _ = model(data[:, :-1])
    loss = F.cross_entropy(logits.reshape(-1, len(chars)), data[:, 1:].reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 5))
with torch.no_grad():
    x, state, text = data[:, :1], None, "h"
    for _ in range(8):
        logits, state = model(x, state)
        nxt = logits[:, -1].argmax(-1, keepdim=True)
        text += chars[nxt.item()]
        x = nxt
print(repr(text))
out(state[0].shape, state[1][1])
