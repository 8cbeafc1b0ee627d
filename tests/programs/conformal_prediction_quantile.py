# Split conformal prediction: torch.quantile with interpolation modes, APS sets, CQR
torch.manual_seed(0)
n_cal, n_test, K = 50, 6, 4
cal_logits = torch.randn(n_cal, K) * 2
cal_labels = torch.randint(0, K, (n_cal,))
test_logits = torch.randn(n_test, K) * 2
alpha = 0.1

cal_probs = cal_logits.softmax(dim=1)
cal_scores = 1 - cal_probs[torch.arange(n_cal), cal_labels]
q_level = torch.ceil(torch.tensor((n_cal + 1) * (1 - alpha))) / n_cal
print(f"q_level {q_level.item():.4f}")
for method in ["linear", "lower", "higher", "midpoint", "nearest"]:
    qhat = torch.quantile(cal_scores, q_level, interpolation=method)
    print(f"{method:9s} qhat {qhat.item():.6f}")
    out(qhat)
qhat = torch.quantile(cal_scores, q_level.item(), interpolation="higher")
test_probs = test_logits.softmax(1)
prediction_sets = test_probs >= (1 - qhat)
print(prediction_sets.int(), prediction_sets.sum(1).float().mean())

# adaptive prediction sets: sorted cumulative probabilities, randomised
cal_pi = cal_probs.argsort(1, descending=True)
cal_srt = cal_probs.gather(1, cal_pi).cumsum(dim=1)
cal_scores_aps = cal_srt.gather(1, cal_pi.argsort(1))[torch.arange(n_cal), cal_labels]
qhat_aps = torch.quantile(cal_scores_aps, q_level, interpolation="higher")
test_pi = test_probs.argsort(1, descending=True)
test_srt = test_probs.gather(1, test_pi).cumsum(dim=1)
sets_aps = (test_srt <= qhat_aps).gather(1, test_pi.argsort(1))
print(f"aps qhat {qhat_aps.item():.5f}", sets_aps.sum(1).tolist())
out(cal_scores_aps, sets_aps)

# batched quantiles, dims, keepdim, nanquantile and the errors
scores = torch.rand(3, 7)
qs = torch.tensor([0.1, 0.5, 0.9])
out(
    torch.quantile(scores, qs, dim=1),
    torch.quantile(scores, 0.25, dim=0, keepdim=True),
    torch.quantile(scores, qs),
)
scores[0, 2] = float("nan")
out(torch.nanquantile(scores, 0.5, dim=1), torch.quantile(scores, 0.5, dim=1))
err(lambda: torch.quantile(scores, 1.5))
err(lambda: torch.quantile(scores, 0.5, interpolation="cubic"))
err(lambda: torch.quantile(scores.long(), 0.5))
print(
    torch.median(torch.tensor([1.0, 4.0, 2.0, 3.0])),
    torch.quantile(torch.tensor([1.0, 4.0, 2.0, 3.0]), 0.5),
)

# conformalized quantile regression with the pinball loss
x = torch.rand(80, 1) * 4
y = torch.sin(x).squeeze(1) + 0.3 * torch.randn(80)
net = nn.Linear(1, 2)
opt = torch.optim.Adam(net.parameters(), lr=0.05)
quantiles = torch.tensor([alpha / 2, 1 - alpha / 2])
for _ in range(30):
    pred = net(x[:60])
    errs = y[:60, None] - pred
    loss = torch.max((quantiles - 1) * errs, quantiles * errs).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"pinball {loss.item():.5f}")
with torch.no_grad():
    cal = net(x[60:])
    s = torch.maximum(cal[:, 0] - y[60:], y[60:] - cal[:, 1])
    q = torch.quantile(s, min(1.0, (20 + 1) * (1 - alpha) / 20))
print(f"cqr correction {q.item():.5f}")
out(cal, s)
