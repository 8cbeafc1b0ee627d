# Text generation: repetition penalty, top-k/top-p warpers, a processor chain, sampled decoding
torch.manual_seed(0)


class RepetitionPenaltyLogitsProcessor:
    def __init__(self, penalty):
        self.penalty = penalty

    def __call__(self, input_ids, scores):
        score = torch.gather(scores, 1, input_ids)
        score = torch.where(score < 0, score * self.penalty, score / self.penalty)
        return scores.scatter(1, input_ids, score)


class TemperatureLogitsWarper:
    def __init__(self, temperature):
        self.temperature = temperature

    def __call__(self, input_ids, scores):
        return scores / self.temperature


class TopKLogitsWarper:
    def __init__(self, top_k, filter_value=-float("inf"), min_tokens_to_keep=1):
        self.top_k = max(top_k, min_tokens_to_keep)
        self.filter_value = filter_value

    def __call__(self, input_ids, scores):
        top_k = min(self.top_k, scores.size(-1))
        indices_to_remove = scores < torch.topk(scores, top_k)[0][..., -1, None]
        return scores.masked_fill(indices_to_remove, self.filter_value)


class TopPLogitsWarper:
    def __init__(self, top_p, filter_value=-float("inf"), min_tokens_to_keep=1):
        self.top_p, self.filter_value, self.min_tokens_to_keep = (
            top_p,
            filter_value,
            min_tokens_to_keep,
        )

    def __call__(self, input_ids, scores):
        sorted_logits, sorted_indices = torch.sort(scores, descending=False)
        cumulative_probs = sorted_logits.softmax(dim=-1).cumsum(dim=-1)
        sorted_indices_to_remove = cumulative_probs <= (1 - self.top_p)
        sorted_indices_to_remove[..., -self.min_tokens_to_keep :] = 0
        indices_to_remove = sorted_indices_to_remove.scatter(
            1, sorted_indices, sorted_indices_to_remove
        )
        return scores.masked_fill(indices_to_remove, self.filter_value)


class NoBadWordsLogitsProcessor:
    def __init__(self, bad_ids):
        self.bad_ids = torch.tensor(bad_ids)

    def __call__(self, input_ids, scores):
        mask = torch.zeros(scores.shape[-1], dtype=torch.bool)
        mask[self.bad_ids] = True
        return scores.masked_fill(mask, -float("inf"))


class MinLengthLogitsProcessor:
    def __init__(self, min_length, eos_token_id):
        self.min_length, self.eos_token_id = min_length, eos_token_id

    def __call__(self, input_ids, scores):
        vocab = torch.arange(scores.shape[-1])
        mask = torch.isin(vocab, torch.tensor([self.eos_token_id]))
        if input_ids.shape[-1] < self.min_length:
            scores = torch.where(mask, -math_inf, scores)
        return scores


math_inf = float("inf")


class LogitsProcessorList(list):
    def __call__(self, input_ids, scores):
        for processor in self:
            scores = processor(input_ids, scores)
        return scores


vocab, eos = 12, 11
lm = nn.Sequential(nn.Embedding(vocab, 8), nn.Flatten(), nn.LazyLinear(vocab))
input_ids = torch.tensor([[3, 5, 3], [1, 2, 4]])
with torch.no_grad():
    lm(input_ids)
print(lm[2])
scores = torch.randn(2, vocab)
rp = RepetitionPenaltyLogitsProcessor(1.3)(input_ids, scores)
print((rp - scores)[0])
print(TopKLogitsWarper(4)(input_ids, scores)[1])
print(TopPLogitsWarper(0.7)(input_ids, scores)[0])
chain = LogitsProcessorList(
    [
        MinLengthLogitsProcessor(6, eos),
        NoBadWordsLogitsProcessor([0, 7]),
        RepetitionPenaltyLogitsProcessor(1.2),
        TemperatureLogitsWarper(0.7),
        TopKLogitsWarper(5),
        TopPLogitsWarper(0.9),
    ]
)
unfinished = torch.ones(2, dtype=torch.long)
ids = input_ids.clone()
gen = torch.Generator().manual_seed(1234)
while ids.shape[-1] < 8:
    with torch.no_grad():
        next_logits = lm(ids[:, -3:])
    next_scores = chain(ids, next_logits)
    probs = F.softmax(next_scores, dim=-1)
    next_tokens = torch.multinomial(probs, num_samples=1, generator=gen).squeeze(1)
    next_tokens = next_tokens * unfinished + 0 * (1 - unfinished)
    ids = torch.cat([ids, next_tokens[:, None]], dim=-1)
    unfinished = unfinished & (next_tokens != eos).long()
    print(ids.shape[-1], next_tokens.tolist(), (probs > 0).sum(-1).tolist(), unfinished.tolist())
print(ids)
greedy = torch.argmax(chain(ids, lm(ids[:, -3:])), dim=-1)
print(greedy, greedy.dtype)
out(rp, ids, greedy)
# ---
# Beam search scorer with length penalty, finished hypotheses and best-sequence selection
torch.manual_seed(0)


class BeamHypotheses:
    def __init__(self, num_beams, length_penalty):
        self.num_beams, self.length_penalty = num_beams, length_penalty
        self.beams, self.worst_score = [], 1e9

    def __len__(self):
        return len(self.beams)

    def add(self, hyp, sum_logprobs):
        score = sum_logprobs / (hyp.shape[-1] ** self.length_penalty)
        if len(self) < self.num_beams or score > self.worst_score:
            self.beams.append((score, hyp))
            if len(self) > self.num_beams:
                sorted_scores = sorted([(s, idx) for idx, (s, _) in enumerate(self.beams)])
                del self.beams[sorted_scores[0][1]]
                self.worst_score = sorted_scores[1][0]
            else:
                self.worst_score = min(score, self.worst_score)

    def is_done(self, best_sum_logprobs, cur_len):
        if len(self) < self.num_beams:
            return False
        return self.worst_score >= best_sum_logprobs / cur_len**self.length_penalty


V, num_beams, batch, eos = 9, 3, 2, 8
W = torch.randn(V, V)
W[:, eos] += 0.5
input_ids = torch.tensor([[1], [4]]).repeat_interleave(num_beams, dim=0)
beam_scores = torch.zeros(batch, num_beams)
beam_scores[:, 1:] = -1e9
beam_scores = beam_scores.view(-1)
hyps = [BeamHypotheses(num_beams, length_penalty=0.8) for _ in range(batch)]
done = [False] * batch
for step in range(5):
    logits = W[input_ids[:, -1]]
    next_token_scores = F.log_softmax(logits, dim=-1) + beam_scores[:, None].expand_as(logits)
    next_token_scores = next_token_scores.view(batch, num_beams * V)
    next_token_scores, next_tokens = torch.topk(
        next_token_scores, 2 * num_beams, dim=1, largest=True, sorted=True
    )
    next_indices = torch.div(next_tokens, V, rounding_mode="floor")
    next_tokens = next_tokens % V
    new_scores = torch.zeros(batch, num_beams)
    new_tokens = torch.zeros(batch, num_beams, dtype=torch.long)
    new_indices = torch.zeros(batch, num_beams, dtype=torch.long)
    for b in range(batch):
        beam_idx = 0
        for rank, (tok, score, idx) in enumerate(
            zip(next_tokens[b], next_token_scores[b], next_indices[b])
        ):
            batch_beam_idx = b * num_beams + idx
            if tok.item() == eos:
                if rank >= num_beams:
                    continue
                hyps[b].add(input_ids[batch_beam_idx].clone(), score.item())
            else:
                new_scores[b, beam_idx], new_tokens[b, beam_idx], new_indices[b, beam_idx] = (
                    score,
                    tok,
                    batch_beam_idx,
                )
                beam_idx += 1
            if beam_idx == num_beams:
                break
        done[b] = done[b] or hyps[b].is_done(next_token_scores[b].max().item(), input_ids.shape[-1])
    beam_scores = new_scores.view(-1)
    input_ids = torch.cat([input_ids[new_indices.view(-1), :], new_tokens.view(-1, 1)], dim=-1)
    print(
        step,
        next_indices[0].tolist(),
        next_tokens[0].tolist(),
        [f"{s:.3f}" for s in beam_scores[:3].tolist()],
        done,
    )
for b in range(batch):
    for i in range(num_beams):
        if len(hyps[b]) < num_beams:
            hyps[b].add(input_ids[b * num_beams + i], beam_scores[b * num_beams + i].item())
best = [max(h.beams, key=lambda x: x[0]) for h in hyps]
for score, seq in best:
    print(f"{score:.4f}", seq)
padded = torch.nn.utils.rnn.pad_sequence([s for _, s in best], batch_first=True, padding_value=eos)
print(padded, padded.dtype)
out(beam_scores, input_ids, padded)
