# sentiment classifier: vocab building, dict samples with a collate_fn, unsorted packing, BiGRU
import collections

torch.manual_seed(0)
corpus = [
    ("a great movie with great acting", 1),
    ("terrible plot and bad acting", 0),
    ("i loved it", 1),
    ("boring", 0),
    ("not bad at all , quite great", 1),
    ("the worst film i have seen", 0),
    ("great fun", 1),
    ("bad bad bad", 0),
]
counter = collections.Counter(w for text, _ in corpus for w in text.split())
itos = ["<pad>", "<unk>"] + [w for w, c in sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))]
stoi = {w: i for i, w in enumerate(itos)}
print(len(itos), itos[:8])


class Reviews(torch.utils.data.Dataset):
    def __init__(self, rows):
        self.rows = rows

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        text, label = self.rows[i]
        ids = torch.tensor([stoi.get(w, 1) for w in text.split()], dtype=torch.long)
        return {"ids": ids, "label": label, "text": text}


def collate(batch):
    ids = [b["ids"] for b in batch]
    lengths = torch.tensor([len(x) for x in ids])
    padded = nn.utils.rnn.pad_sequence(ids, batch_first=True, padding_value=0)
    labels = torch.tensor([b["label"] for b in batch], dtype=torch.float32)
    return {
        "ids": padded,
        "lengths": lengths,
        "labels": labels,
        "texts": [b["text"] for b in batch],
    }


train = torch.utils.data.ConcatDataset([Reviews(corpus[:4]), Reviews(corpus[4:])])
print(len(train), train.cumulative_sizes)
loader = torch.utils.data.DataLoader(train, batch_size=3, shuffle=True, collate_fn=collate)
first = next(iter(loader))
print(first["ids"], first["lengths"], first["labels"], first["texts"])


class Classifier(nn.Module):
    def __init__(self, vocab, emb=8, hidden=6):
        super().__init__()
        self.embedding = nn.Embedding(vocab, emb, padding_idx=0)
        self.rnn = nn.GRU(emb, hidden, batch_first=True, bidirectional=True)
        self.fc = nn.Linear(2 * hidden, 1)

    def forward(self, ids, lengths):
        packed = nn.utils.rnn.pack_padded_sequence(
            self.embedding(ids), lengths, batch_first=True, enforce_sorted=False
        )
        packed_out, hidden = self.rnn(packed)
        out, out_lengths = nn.utils.rnn.pad_packed_sequence(packed_out, batch_first=True)
        final = torch.cat([hidden[-2], hidden[-1]], dim=1)
        return self.fc(final).squeeze(1), out, out_lengths


model = Classifier(len(itos))
opt = torch.optim.Adam(model.parameters(), lr=0.02)
crit = nn.BCEWithLogitsLoss()
for epoch in range(4):
    epoch_loss, correct = 0.0, 0
    for batch in loader:
        logits, _, _ = model(batch["ids"], batch["lengths"])
        loss = crit(logits, batch["labels"])
        opt.zero_grad()
        loss.backward()
        opt.step()
        epoch_loss += loss.item() * len(batch["labels"])
        correct += ((torch.sigmoid(logits) > 0.5).float() == batch["labels"]).sum().item()
    print(f"epoch {epoch}: loss {epoch_loss / len(train):.4f} acc {correct / len(train):.3f}")
model.eval()
with torch.no_grad():
    batch = collate([train[i] for i in range(len(train))])
    logits, padded_out, out_lengths = model(batch["ids"], batch["lengths"])
    probs = torch.sigmoid(logits)
print(padded_out.shape, out_lengths)
for text, p in zip(batch["texts"], probs.tolist()):
    print(f"{p:.3f} {text}")
packed = nn.utils.rnn.pack_padded_sequence(
    batch["ids"], batch["lengths"], batch_first=True, enforce_sorted=False
)
print(packed.batch_sizes, packed.sorted_indices, packed.unsorted_indices)
print(packed.data[:10])
out(logits, padded_out, model.embedding.weight.grad, model.rnn.weight_hh_l0_reverse.grad)
