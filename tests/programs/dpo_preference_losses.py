# LLM preference optimisation: masked per-token log-probs, DPO/IPO/hinge losses, GRPO advantages
def get_batch_logps(logits, labels, label_pad_token_id=-100, average_log_prob=False):
    labels = labels[:, 1:].clone()
    logits = logits[:, :-1, :]
    loss_mask = labels != label_pad_token_id
    labels[labels == label_pad_token_id] = 0
    per_token_logps = torch.gather(
        logits.log_softmax(-1), dim=2, index=labels.unsqueeze(2)
    ).squeeze(2)
    if average_log_prob:
        return (per_token_logps * loss_mask).sum(-1) / loss_mask.sum(-1)
    return (per_token_logps * loss_mask).sum(-1)


def preference_loss(
    policy_chosen,
    policy_rejected,
    ref_chosen,
    ref_rejected,
    beta,
    label_smoothing=0.0,
    loss_type="sigmoid",
):
    pi_logratios = policy_chosen - policy_rejected
    ref_logratios = ref_chosen - ref_rejected
    logits = pi_logratios - ref_logratios
    if loss_type == "sigmoid":
        losses = (
            -F.logsigmoid(beta * logits) * (1 - label_smoothing)
            - F.logsigmoid(-beta * logits) * label_smoothing
        )
    elif loss_type == "ipo":
        losses = (logits - 1 / (2 * beta)) ** 2
    elif loss_type == "hinge":
        losses = torch.relu(1 - beta * logits)
    else:
        raise ValueError(f"Unknown loss type: {loss_type}")
    chosen_rewards = beta * (policy_chosen - ref_chosen).detach()
    rejected_rewards = beta * (policy_rejected - ref_rejected).detach()
    return losses, chosen_rewards, rejected_rewards


class TinyLM(nn.Module):
    def __init__(self, vocab=11, d=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.rnn = nn.GRU(d, d, batch_first=True)
        self.head = nn.Linear(d, vocab, bias=False)

    def forward(self, ids):
        return self.head(self.rnn(self.emb(ids))[0])


torch.manual_seed(0)
policy = TinyLM()
reference = TinyLM()
reference.load_state_dict(policy.state_dict())
reference.eval().requires_grad_(False)
prompt = torch.randint(1, 11, (4, 3))
chosen = torch.cat([prompt, torch.randint(1, 11, (4, 4))], 1)
rejected = torch.cat([prompt, torch.randint(1, 11, (4, 4))], 1)
labels_c, labels_r = chosen.clone(), rejected.clone()
labels_c[:, :3] = -100
labels_r[:, :3] = -100
labels_r[0, -1] = -100
opt = torch.optim.AdamW(policy.parameters(), lr=5e-3)
for loss_type in ("sigmoid", "ipo", "hinge"):
    concat = torch.cat([chosen, rejected])
    all_logits = policy(concat).to(torch.float32)
    all_logps = get_batch_logps(
        all_logits, torch.cat([labels_c, labels_r]), average_log_prob=loss_type == "ipo"
    )
    pc, pr = all_logps.split(4)
    with torch.no_grad():
        ref_logps = get_batch_logps(
            reference(concat), torch.cat([labels_c, labels_r]), average_log_prob=loss_type == "ipo"
        )
    rc, rr = ref_logps.chunk(2)
    losses, cr, rj = preference_loss(
        pc,
        pr,
        rc,
        rr,
        beta=0.1,
        label_smoothing=0.1 if loss_type == "sigmoid" else 0.0,
        loss_type=loss_type,
    )
    loss = losses.mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    acc = (cr > rj).float().mean()
    print(
        f"{loss_type}: loss {loss.item():.6f} reward acc {acc.item():.2f} "
        f"margin {(cr - rj).mean().item():.6f}"
    )
out(losses, cr, rj, policy.head.weight.grad)
err(lambda: preference_loss(pc, pr, rc, rr, 0.1, loss_type="kto"))

# GRPO: group-normalised advantages and a clipped token-level objective with a KL penalty
group = 4
rewards = torch.tensor([1.0, 0.0, 0.5, 0.0, 1.0, 1.0, 0.0, 0.2])
mean_grouped = rewards.view(-1, group).mean(dim=1).repeat_interleave(group, dim=0)
std_grouped = rewards.view(-1, group).std(dim=1).repeat_interleave(group, dim=0)
advantages = (rewards - mean_grouped) / (std_grouped + 1e-4)
print(advantages)
logits = policy(torch.randint(1, 11, (8, 5)))
completion = torch.randint(1, 11, (8, 5))
per_token_logps = torch.gather(logits.log_softmax(-1), 2, completion.unsqueeze(-1)).squeeze(-1)
old_logps = per_token_logps.detach() + 0.05 * torch.randn(8, 5)
ref_logps = per_token_logps.detach() - 0.1
coef_1 = torch.exp(per_token_logps - old_logps)
coef_2 = torch.clamp(coef_1, 1 - 0.2, 1 + 0.2)
per_token_loss = -torch.min(coef_1 * advantages.unsqueeze(1), coef_2 * advantages.unsqueeze(1))
per_token_kl = torch.exp(ref_logps - per_token_logps) - (ref_logps - per_token_logps) - 1
mask = torch.ones(8, 5)
mask[::3, -2:] = 0
loss = ((per_token_loss + 0.04 * per_token_kl) * mask).sum() / mask.sum()
loss.backward()
clipped = ((coef_1 < 0.8) | (coef_1 > 1.2)).float().mean()
print(f"grpo loss {loss.item():.6f} clip frac {clipped.item():.3f}")
out(loss, per_token_kl, policy.emb.weight.grad)
