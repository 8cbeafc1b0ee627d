# padded batches of variable-length sequences: pack_padded_sequence through a GRU classifier
rng = np.random.default_rng(0)
sequences = [torch.tensor(rng.integers(1, 9, size=n)) for n in (5, 2, 4, 3)]
labels = torch.tensor([1, 0, 1, 0])
lengths = torch.tensor([len(s) for s in sequences])
padded = nn.utils.rnn.pad_sequence(sequences, batch_first=True)
out(padded, lengths)


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(10, 4, padding_idx=0)
        self.rnn = nn.GRU(4, 5, batch_first=True, bidirectional=True)
        self.fc = nn.Linear(10, 2)

    def forward(self, x, lengths):
        packed = nn.utils.rnn.pack_padded_sequence(
            self.embedding(x), lengths, batch_first=True, enforce_sorted=False
        )
        packed_out, hidden = self.rnn(packed)
        unpacked, out_lengths = nn.utils.rnn.pad_packed_sequence(packed_out, batch_first=True)
        feature = torch.cat([hidden[-2], hidden[-1]], dim=1)
        return self.fc(feature), unpacked, out_lengths, packed


model = Classifier()
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.tensor(rng.uniform(-0.5, 0.5, tuple(p.shape))))
logits, unpacked, out_lengths, packed = model(padded, lengths)
out(packed.batch_sizes, packed.sorted_indices, packed.unsorted_indices)
out(unpacked.detach(), out_lengths, logits.detach())
out((unpacked[1, 2:] == 0).all())
optimizer = torch.optim.Adam(model.parameters(), lr=0.05)
for step in range(4):
    optimizer.zero_grad()
    logits = model(padded, lengths)[0]
    loss = F.cross_entropy(logits, labels)
    loss.backward()
    optimizer.step()
    out(step, loss)
out(model.embedding.weight.grad[0], model.rnn.weight_hh_l0_reverse.grad)
# the packed result equals running each sequence alone
with torch.no_grad():
    for s, h in zip(sequences, model(padded, lengths)[1]):
        alone, _ = model.rnn(model.embedding(s).unsqueeze(0))
        out(torch.allclose(alone[0], h[: len(s)], atol=1e-6))
packed_seq = nn.utils.rnn.pack_sequence(sequences, enforce_sorted=False)
out(packed_seq.data, nn.utils.rnn.unpad_sequence(padded, lengths, batch_first=True))
err(lambda: nn.utils.rnn.pack_padded_sequence(padded, lengths, batch_first=True))
