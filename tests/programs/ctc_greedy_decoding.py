# CTC: nn.CTCLoss on log_softmax outputs of a tiny BiGRU, greedy decode with unique_consecutive
torch.manual_seed(0)
blank, vocab = 0, "_abc"
T, N, C = 12, 3, len(vocab)


class SpeechModel(nn.Module):
    def __init__(self, n_feats=5, hidden=8):
        super().__init__()
        self.rnn = nn.GRU(n_feats, hidden, batch_first=False, bidirectional=True)
        self.fc = nn.Linear(2 * hidden, C)

    def forward(self, x):
        out, _ = self.rnn(x)
        return F.log_softmax(self.fc(out), dim=-1)


model = SpeechModel()
feats = torch.randn(T, N, 5)
targets = torch.tensor([1, 2, 3, 1, 1, 2, 3, 3, 2], dtype=torch.long)
target_lengths = torch.tensor([4, 2, 3])
input_lengths = torch.full((N,), T, dtype=torch.long)
input_lengths[2] = 9
ctc = nn.CTCLoss(blank=blank, zero_infinity=True)
opt = torch.optim.Adam(model.parameters(), lr=0.05)
for step in range(5):
    log_probs = model(feats)
    loss = ctc(log_probs, targets, input_lengths, target_lengths)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} ctc {loss.item():.4f}")


def greedy_decode(log_probs, lengths):
    best = log_probs.argmax(-1).t()
    texts = []
    for seq, n in zip(best, lengths):
        collapsed = torch.unique_consecutive(seq[:n])
        texts.append("".join(vocab[i] for i in collapsed.tolist() if i != blank))
    return texts


print(greedy_decode(log_probs.detach(), input_lengths))
per_sample = F.ctc_loss(log_probs, targets, input_lengths, target_lengths, reduction="none")
padded = torch.tensor([[1, 2, 3, 1], [1, 2, 0, 0], [3, 3, 2, 0]])
same = F.ctc_loss(log_probs, padded, input_lengths, target_lengths, reduction="sum")
print(per_sample, same, per_sample.sum())
out(loss, per_sample, same)
