# Text generation tricks: temperature, top-k, nucleus (top-p) filtering, repetition penalty, greedy
torch.manual_seed(0)
vocab, block = 12, 6


class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(vocab, 8)
        self.rnn = nn.GRU(8, 16, batch_first=True)
        self.head = nn.Linear(16, vocab)

    def forward(self, idx):
        h, _ = self.rnn(self.emb(idx))
        return self.head(h)


def top_k_top_p_filtering(logits, top_k=0, top_p=1.0, filter_value=-float("Inf")):
    if top_k > 0:
        top_k = min(top_k, logits.size(-1))
        indices_to_remove = logits < torch.topk(logits, top_k)[0][..., -1, None]
        logits[indices_to_remove] = filter_value
    if top_p < 1.0:
        sorted_logits, sorted_indices = torch.sort(logits, descending=True)
        cumulative_probs = torch.cumsum(F.softmax(sorted_logits, dim=-1), dim=-1)
        sorted_indices_to_remove = cumulative_probs > top_p
        sorted_indices_to_remove[..., 1:] = sorted_indices_to_remove[..., :-1].clone()
        sorted_indices_to_remove[..., 0] = 0
        indices_to_remove = sorted_indices_to_remove.scatter(
            1, sorted_indices, sorted_indices_to_remove
        )
        logits[indices_to_remove] = filter_value
    return logits


@torch.no_grad()
def generate(
    model,
    idx,
    max_new_tokens,
    temperature=1.0,
    top_k=None,
    top_p=1.0,
    repetition_penalty=1.0,
    do_sample=True,
):
    for _ in range(max_new_tokens):
        idx_cond = idx if idx.size(1) <= block else idx[:, -block:]
        logits = model(idx_cond)[:, -1, :] / temperature
        if repetition_penalty != 1.0:
            score = torch.gather(logits, 1, idx)
            score = torch.where(score < 0, score * repetition_penalty, score / repetition_penalty)
            logits.scatter_(1, idx, score)
        logits = top_k_top_p_filtering(logits, top_k=top_k or 0, top_p=top_p)
        probs = F.softmax(logits, dim=-1)
        if do_sample:
            idx_next = torch.multinomial(probs, num_samples=1)
        else:
            _, idx_next = torch.topk(probs, k=1, dim=-1)
        idx = torch.cat((idx, idx_next), dim=1)
    return idx


model = TinyLM().eval()
start = torch.zeros((2, 1), dtype=torch.long)
print(generate(model, start, 8, do_sample=False))
print(generate(model, start, 8, temperature=0.8, top_k=3))
print(generate(model, start, 8, top_p=0.6, repetition_penalty=1.3))
logits = torch.tensor([[1.0, 3.0, 2.0, 0.5, -1.0]])
print(top_k_top_p_filtering(logits.clone(), top_k=2))
print(top_k_top_p_filtering(logits.clone(), top_p=0.7))
probs = F.softmax(top_k_top_p_filtering(logits.clone(), top_p=0.9), -1)
print(probs, torch.isinf(top_k_top_p_filtering(logits.clone(), top_p=0.9)).sum())
out(probs)
# ---
# Beam-free batched decoding with finished masks, eos handling and per-sequence log-likelihoods
torch.manual_seed(0)
V, EOS, PAD = 7, 1, 0
proj = nn.Linear(4, V)
state = torch.randn(3, 4)
tokens = torch.full((3, 1), 2, dtype=torch.long)
finished = torch.zeros(3, dtype=torch.bool)
logp_total = torch.zeros(3)
for t in range(6):
    logits = proj(state + 0.1 * t)
    logp = F.log_softmax(logits, -1)
    nxt = logp.argmax(-1) if t % 2 else torch.multinomial(logp.exp(), 1).squeeze(1)
    nxt = torch.where(finished, torch.full_like(nxt, PAD), nxt)
    logp_total += torch.where(finished, torch.zeros(()), logp.gather(1, nxt[:, None]).squeeze(1))
    tokens = torch.cat([tokens, nxt[:, None]], 1)
    finished |= nxt == EOS
    if t == 2:
        finished[0] = True
    if finished.all():
        break
lengths = (tokens != PAD).sum(1)
print(tokens, finished, lengths)
print(logp_total / lengths, logp_total.detach().requires_grad)
out(tokens, logp_total)
