# Speculative sampling: a draft model proposes k tokens, the target verifies with rejection sampling
class TinyLM(nn.Module):
    def __init__(self, vocab=12, d=16, seed=0):
        super().__init__()
        g = torch.Generator().manual_seed(seed)
        self.emb = nn.Parameter(torch.randn(vocab, d, generator=g) * 0.5)
        self.proj = nn.Parameter(torch.randn(d, vocab, generator=g) * 0.5)

    def forward(self, ids):
        h = self.emb[ids].cumsum(1) / torch.arange(1, ids.shape[1] + 1).view(1, -1, 1)
        return torch.tanh(h) @ self.proj


def norm_logits(logits, temperature, top_k=0, top_p=0.0):
    logits = logits / temperature
    if top_k > 0:
        v, _ = torch.topk(logits, min(top_k, logits.size(-1)))
        logits[logits < v[..., [-1]]] = float("-inf")
    if top_p > 0.0:
        sorted_logits, sorted_indices = torch.sort(logits, descending=True)
        cumulative_probs = torch.cumsum(F.softmax(sorted_logits, dim=-1), dim=-1)
        filter_ = cumulative_probs > top_p
        filter_[..., 1:] = filter_[..., :-1].clone()
        filter_[..., 0] = 0
        indices_to_remove = filter_.scatter(1, sorted_indices, filter_)
        logits[indices_to_remove] = float("-inf")
    return F.softmax(logits, dim=-1)


def max_fn(x):
    x_max = torch.where(x > 0, x, torch.zeros_like(x))
    x_max_sum = torch.sum(x_max, dim=1, keepdim=True)
    return x_max / x_max_sum


@torch.no_grad()
def speculative_sampling(
    prefix,
    approx_model,
    target_model,
    max_len,
    gamma=3,
    temperature=1.0,
    top_k=0,
    top_p=0.0,
    generator=None,
):
    seq_len = prefix.shape[1]
    T = seq_len + max_len
    accepted_total, drafted_total = 0, 0
    while prefix.shape[1] < T:
        x = prefix
        prefix_len = prefix.shape[1]
        for _ in range(gamma):
            q = approx_model(x)
            next_tok = torch.multinomial(
                norm_logits(q[:, -1, :], temperature, top_k, top_p),
                num_samples=1,
                generator=generator,
            )
            x = torch.cat((x, next_tok), dim=1)
        q = approx_model(x)
        for i in range(q.shape[1]):
            q[:, i, :] = norm_logits(q[:, i, :], temperature, top_k, top_p)
        p = target_model(x)
        for i in range(p.shape[1]):
            p[:, i, :] = norm_logits(p[:, i, :], temperature, top_k, top_p)
        is_all_accept = True
        n = prefix_len - 1
        for i in range(gamma):
            r = torch.rand(1, generator=generator)
            j = x[:, prefix_len + i]
            if r < torch.min(
                torch.tensor([1.0]), p[:, prefix_len + i - 1, j] / q[:, prefix_len + i - 1, j]
            ):
                n += 1
            else:
                t = torch.multinomial(
                    max_fn(p[:, n, :] - q[:, n, :]), num_samples=1, generator=generator
                )
                is_all_accept = False
                break
        accepted_total += n - prefix_len + 1
        drafted_total += gamma
        prefix = x[:, : n + 1]
        if is_all_accept:
            t = torch.multinomial(p[:, -1, :], num_samples=1, generator=generator)
        prefix = torch.cat((prefix, t), dim=1)
    return prefix, accepted_total / drafted_total


target = TinyLM(seed=0)
draft = TinyLM(seed=1)
with torch.no_grad():
    draft.emb.copy_(
        target.emb + 0.1 * torch.randn(target.emb.shape, generator=torch.Generator().manual_seed(5))
    )
    draft.proj.copy_(target.proj)
prefix = torch.tensor([[1, 4, 2]])
gen = torch.Generator().manual_seed(0)
for top_k, top_p in [(0, 0.0), (5, 0.0), (0, 0.9)]:
    tokens, rate = speculative_sampling(
        prefix, draft, target, max_len=8, top_k=top_k, top_p=top_p, generator=gen
    )
    print(top_k, top_p, tokens.tolist(), f"acceptance {rate:.3f}")
probs = norm_logits(target(prefix)[:, -1, :], 0.7, top_k=4)
print((probs > 0).sum().item(), f"{probs.max().item():.5f}")
out(
    probs,
    max_fn(torch.tensor([[0.2, -0.1, 0.3]])),
    norm_logits(torch.tensor([[2.0, 1.0, 0.5, -1.0]]), 1.0, top_p=0.8),
)
samples = torch.multinomial(
    torch.tensor([0.1, 0.0, 0.9]), 5, replacement=True, generator=torch.Generator().manual_seed(3)
)
print(
    samples,
    torch.multinomial(
        torch.tensor([[1.0, 2.0, 3.0]]), 2, generator=torch.Generator().manual_seed(3)
    ),
)
