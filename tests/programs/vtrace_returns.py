# IMPALA V-trace: clipped importance weights, reverse-time scan for vs, policy-gradient advantages
import collections

VTraceReturns = collections.namedtuple("VTraceReturns", "vs pg_advantages")


def action_log_probs(policy_logits, actions):
    return -F.nll_loss(
        F.log_softmax(torch.flatten(policy_logits, 0, -2), dim=-1),
        torch.flatten(actions),
        reduction="none",
    ).view_as(actions)


def from_importance_weights(
    log_rhos,
    discounts,
    rewards,
    values,
    bootstrap_value,
    clip_rho_threshold=1.0,
    clip_pg_rho_threshold=1.0,
):
    with torch.no_grad():
        rhos = torch.exp(log_rhos)
        if clip_rho_threshold is not None:
            clipped_rhos = torch.clamp(rhos, max=clip_rho_threshold)
        else:
            clipped_rhos = rhos
        cs = torch.clamp(rhos, max=1.0)
        values_t_plus_1 = torch.cat([values[1:], torch.unsqueeze(bootstrap_value, 0)], dim=0)
        deltas = clipped_rhos * (rewards + discounts * values_t_plus_1 - values)
        acc = torch.zeros_like(bootstrap_value)
        result = []
        for t in range(discounts.shape[0] - 1, -1, -1):
            acc = deltas[t] + discounts[t] * cs[t] * acc
            result.append(acc)
        result.reverse()
        vs_minus_v_xs = torch.stack(result)
        vs = torch.add(vs_minus_v_xs, values)
        broadcasted_bootstrap_values = torch.ones_like(vs[0]) * bootstrap_value
        vs_t_plus_1 = torch.cat([vs[1:], broadcasted_bootstrap_values.unsqueeze(0)])
        if clip_pg_rho_threshold is not None:
            clipped_pg_rhos = torch.clamp(rhos, max=clip_pg_rho_threshold)
        else:
            clipped_pg_rhos = rhos
        pg_advantages = clipped_pg_rhos * (rewards + discounts * vs_t_plus_1 - values)
        return VTraceReturns(vs=vs, pg_advantages=pg_advantages)


T, B, A = 5, 3, 4
torch.manual_seed(0)
behavior_logits = torch.randn(T, B, A)
target_logits = torch.randn(T, B, A, requires_grad=True)
actions = torch.randint(0, A, (T, B))
rewards = torch.randn(T, B)
done = torch.zeros(T, B, dtype=torch.bool)
done[2, 1] = True
discounts = (~done).float() * 0.99
values = torch.randn(T, B, requires_grad=True)
bootstrap_value = torch.randn(B)
target_lp = action_log_probs(target_logits, actions)
behavior_lp = action_log_probs(behavior_logits, actions)
log_rhos = target_lp - behavior_lp
vt = from_importance_weights(log_rhos, discounts, rewards, values, bootstrap_value)
print(vt.vs.requires_grad, vt.pg_advantages.shape, type(vt).__name__)
print(torch.exp(log_rhos).clamp(max=1.0))
pg_loss = torch.sum(-target_lp * vt.pg_advantages.detach())
baseline_loss = 0.5 * torch.sum((vt.vs - values) ** 2)
policy = F.softmax(target_logits, dim=-1)
entropy_loss = torch.sum(policy * F.log_softmax(target_logits, dim=-1))
total = pg_loss + 0.5 * baseline_loss + 0.01 * entropy_loss
total.backward()
print(
    f"pg {pg_loss.item():.5f} baseline {baseline_loss.item():.5f} entropy {entropy_loss.item():.5f}"
)
out(vt.vs, vt.pg_advantages, target_logits.grad, values.grad, log_rhos)
vt_unclipped = from_importance_weights(
    log_rhos, discounts, rewards, values, bootstrap_value, None, None
)
print(torch.allclose(vt_unclipped.vs, vt.vs), vt_unclipped._fields)
out(vt_unclipped.vs)
