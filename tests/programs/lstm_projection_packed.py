# LSTM with proj_size, pack_sequence(enforce_sorted=False), PackedSequence fields and unsorting
torch.manual_seed(0)
pack_sequence = nn.utils.rnn.pack_sequence
pad_packed_sequence = nn.utils.rnn.pad_packed_sequence
seqs = [torch.randn(n, 3) for n in (2, 5, 3)]
packed = pack_sequence(seqs, enforce_sorted=False)
print(packed.batch_sizes, packed.sorted_indices, packed.unsorted_indices, packed.data.shape)
lstm = nn.LSTM(3, 6, num_layers=2, proj_size=4, batch_first=True)
print(lstm)
print([(n, tuple(p.shape)) for n, p in lstm.named_parameters()][:5])
out_packed, (h, c) = lstm(packed)
padded, lengths = pad_packed_sequence(out_packed, batch_first=True)
print(padded.shape, lengths, h.shape, c.shape)
# the last valid output of each sequence is its top-layer hidden state, in the original order
last = padded[torch.arange(3), lengths - 1]
print(torch.allclose(last, h[-1], atol=1e-6))
for b, (s, n) in enumerate(zip(seqs, lengths)):
    solo, _ = lstm(s.unsqueeze(0))
    print(n.item(), torch.allclose(solo[0], padded[b, :n], atol=1e-6))
h[-1].sum().backward()
print(lstm.weight_hr_l0.grad.shape, lstm.weight_hr_l1.grad.abs().sum() > 0)
out(padded, h, c, lstm.weight_ih_l0.grad)
# ---
# GRU over a padded batch with pack_padded_sequence, total_length, and a masked mean over time
torch.manual_seed(0)
x = torch.randn(4, 6, 2)
lengths = torch.tensor([6, 3, 4, 1])
gru = nn.GRU(2, 3, batch_first=True, bidirectional=True)
packed = nn.utils.rnn.pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
out_p, h_n = gru(packed)
y, out_len = nn.utils.rnn.pad_packed_sequence(
    out_p, batch_first=True, total_length=7, padding_value=-1.0
)
print(y.shape, out_len, y[3, 1:3, 0])
mask = (torch.arange(7)[None, :] < out_len[:, None]).unsqueeze(-1)
mean = (y * mask).sum(1) / out_len[:, None]
fwd_last, bwd_first = h_n[0], h_n[1]
print(
    torch.allclose(fwd_last, y[torch.arange(4), out_len - 1, :3], atol=1e-6),
    torch.allclose(bwd_first, y[:, 0, 3:], atol=1e-6),
)
print(type(out_p).__name__, out_p._fields if hasattr(out_p, "_fields") else None)
out(y, mean, h_n)
