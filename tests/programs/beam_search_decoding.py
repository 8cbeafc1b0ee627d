# beam search over a GRU decoder: topk on flattened scores, index_select of hidden states
rng = np.random.default_rng(0)
vocab, hidden_size, beam = 7, 5, 3
EOS = 1
embedding = nn.Embedding(vocab, hidden_size)
cell = nn.GRUCell(hidden_size, hidden_size)
proj = nn.Linear(hidden_size, vocab)
for m in (embedding, cell, proj):
    with torch.no_grad():
        for p in m.parameters():
            p.copy_(torch.tensor(rng.uniform(-0.8, 0.8, tuple(p.shape))))


@torch.no_grad()
def beam_search(h0, max_len=5):
    tokens = torch.zeros(1, 1, dtype=torch.long)
    scores = torch.zeros(1)
    hidden = h0
    finished = []
    for _ in range(max_len):
        hidden = cell(embedding(tokens[:, -1]), hidden)
        log_probs = F.log_softmax(proj(hidden), dim=-1)
        candidates = (scores.unsqueeze(1) + log_probs).view(-1)
        top_scores, top_idx = candidates.topk(beam)
        beam_idx = torch.div(top_idx, vocab, rounding_mode="floor")
        token_idx = top_idx % vocab
        tokens = torch.cat([tokens.index_select(0, beam_idx), token_idx.unsqueeze(1)], dim=1)
        hidden = hidden.index_select(0, beam_idx)
        scores = top_scores
        done = token_idx == EOS
        for i in done.nonzero().flatten().tolist():
            finished.append((scores[i].item(), tokens[i].tolist()))
        keep = ~done
        if not keep.any():
            break
        tokens, hidden, scores = tokens[keep], hidden[keep], scores[keep]
    finished.extend((s.item(), t.tolist()) for s, t in zip(scores, tokens))
    return sorted(finished, key=lambda x: -x[0])


h0 = torch.tensor(rng.standard_normal((1, hidden_size)), dtype=torch.float32)
results = beam_search(h0)
out(len(results), results[:3])
# greedy decoding agrees with a beam of one
best = beam_search(h0, max_len=3)[0]
tokens, hidden, total = [0], h0, 0.0
with torch.no_grad():
    for _ in range(3):
        hidden = cell(embedding(torch.tensor([tokens[-1]])), hidden)
        lp = F.log_softmax(proj(hidden), dim=-1)[0]
        tokens.append(lp.argmax().item())
        total += lp.max().item()
out(tokens, total, best)
# a batched top-k with gather, as sampling code does
logits = torch.tensor(rng.standard_normal((2, vocab)), dtype=torch.float32)
v, ix = torch.topk(logits, 3)
logits_filtered = logits.clone()
logits_filtered[logits_filtered < v[:, [-1]]] = -float("Inf")
probs = F.softmax(logits_filtered, dim=-1)
out(v, ix, probs, probs.gather(1, ix), torch.sort(logits, descending=True, stable=True))
