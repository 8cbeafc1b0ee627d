# Calibration: temperature scaling fitted with LBFGS (closure), ECE with bins, reliability stats
class ModelWithTemperature(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model
        self.temperature = nn.Parameter(torch.ones(1) * 1.5)

    def forward(self, input):
        return self.temperature_scale(self.model(input))

    def temperature_scale(self, logits):
        temperature = self.temperature.unsqueeze(1).expand(logits.size(0), logits.size(1))
        return logits / temperature

    def set_temperature(self, logits, labels):
        nll_criterion = nn.CrossEntropyLoss()
        ece_criterion = ECELoss()
        before_temperature_nll = nll_criterion(logits, labels).item()
        before_temperature_ece = ece_criterion(logits, labels).item()
        print(
            "Before temperature - NLL: %.3f, ECE: %.3f"  # noqa: UP031
            % (before_temperature_nll, before_temperature_ece)
        )
        optimizer = torch.optim.LBFGS([self.temperature], lr=0.01, max_iter=50)

        def eval():
            optimizer.zero_grad()
            loss = nll_criterion(self.temperature_scale(logits), labels)
            loss.backward()
            return loss

        optimizer.step(eval)
        after_temperature_nll = nll_criterion(self.temperature_scale(logits), labels).item()
        after_temperature_ece = ece_criterion(self.temperature_scale(logits), labels).item()
        print(f"Optimal temperature: {self.temperature.item():.3f}")
        print(
            "After temperature - NLL: %.3f, ECE: %.3f"  # noqa: UP031
            % (after_temperature_nll, after_temperature_ece)
        )
        return self


class ECELoss(nn.Module):
    def __init__(self, n_bins=10):
        super().__init__()
        bin_boundaries = torch.linspace(0, 1, n_bins + 1)
        self.bin_lowers = bin_boundaries[:-1]
        self.bin_uppers = bin_boundaries[1:]

    def forward(self, logits, labels):
        softmaxes = F.softmax(logits, dim=1)
        confidences, predictions = torch.max(softmaxes, 1)
        accuracies = predictions.eq(labels)
        ece = torch.zeros(1, device=logits.device)
        for bin_lower, bin_upper in zip(self.bin_lowers, self.bin_uppers):
            in_bin = confidences.gt(bin_lower.item()) * confidences.le(bin_upper.item())
            prop_in_bin = in_bin.float().mean()
            if prop_in_bin.item() > 0:
                accuracy_in_bin = accuracies[in_bin].float().mean()
                avg_confidence_in_bin = confidences[in_bin].mean()
                ece += torch.abs(avg_confidence_in_bin - accuracy_in_bin) * prop_in_bin
        return ece


torch.manual_seed(0)
net = nn.Linear(6, 4)
with torch.no_grad():
    net.weight.mul_(4.0)
x = torch.randn(200, 6)
labels = (x[:, :4] + 0.8 * torch.randn(200, 4)).argmax(1)
scaled = ModelWithTemperature(net)
with torch.no_grad():
    logits = net(x)
scaled.set_temperature(logits, labels)
out(scaled.temperature, scaled(x[:3]))
conf = F.softmax(scaled(x), 1).max(1).values
counts = torch.histc(conf.detach(), bins=5, min=0, max=1)
print(counts, torch.bucketize(torch.tensor([0.05, 0.5, 0.95]), torch.linspace(0, 1, 11)))

# the same fit with LBFGS's strong Wolfe line search
t = nn.Parameter(torch.ones(1))
opt = torch.optim.LBFGS(
    [t],
    lr=1,
    max_iter=20,
    line_search_fn="strong_wolfe",
    tolerance_grad=1e-9,
    tolerance_change=1e-12,
)


def closure():
    opt.zero_grad()
    loss = F.cross_entropy(logits / t, labels)
    loss.backward()
    return loss


first = opt.step(closure)
state = opt.state[t]
print(
    f"first loss {first.item():.5f} T {t.item():.4f} "
    f"func_evals {state['func_evals']} n_iter {state['n_iter']}"
)
out(t)
