# padded sequences: mean pooling and attention weights over the real tokens only
lengths = torch.tensor([4, 2, 3])
tokens = torch.linspace(-1.5, 2.0, 3 * 5 * 2).reshape(3, 5, 2)
pad_mask = torch.arange(5)[None, :] < lengths[:, None]  # (batch, time)
encoder = nn.Linear(2, 4)
with torch.no_grad():
    encoder.weight.copy_(torch.linspace(-0.5, 0.5, 8).reshape(4, 2))
    encoder.bias.fill_(0.1)
hidden = torch.tanh(encoder(tokens))
pooled = torch.masked.mean(hidden, 1, mask=pad_mask[..., None])
scores = hidden.sum(-1)
weights = torch.masked.softmax(scores, 1, mask=pad_mask)
attended = (weights[..., None] * hidden).sum(1)
loss = (pooled - attended).pow(2).sum() + torch.masked.logsumexp(scores, 1, mask=pad_mask).sum()
loss.backward()
out(pooled, weights, attended, loss, encoder.weight.grad, weights.sum(1))
# ---
# masked statistics of a batch with missing values, the way data-cleaning code computes them
readings = torch.tensor([[1.0, float("nan"), 3.0, 4.0], [2.0, 2.5, float("nan"), float("nan")]])
valid = ~torch.isnan(readings)
clean = torch.where(valid, readings, torch.zeros(()))
mean = torch.masked.mean(clean, 1, mask=valid)
std = torch.masked.std(clean, 1, mask=valid)
low = torch.masked.amin(clean, 1, mask=valid)
high = torch.masked.amax(clean, 1, mask=valid, keepdim=True)
count = torch.masked.sum(valid.long(), 1, mask=valid)
running = torch.masked.cumsum(clean, 1, mask=valid)
normed = torch.masked.normalize(clean, 2.0, 1, mask=valid)
out(mean, std, low, high, count, running, normed)
out(torch.masked.argmax(clean, 1, mask=valid), torch.masked.median(clean, 1, mask=valid))
print(torch.masked.var(clean, 1, mask=valid, correction=0))
# ---
# a MaskedTensor: printing, arithmetic, reductions and its gradient
import warnings

warnings.simplefilter("ignore")  # the prototype warning
masked_tensor = torch.masked.masked_tensor
data = torch.tensor([[0.5, 1.0, -2.0], [3.0, -1.0, 4.0]])
mask = torch.tensor([[True, False, True], [False, True, True]])
mt = masked_tensor(data, mask, requires_grad=True)
print(mt)
scaled = (mt * 3).exp().log()
print(scaled.sum(1), scaled.amax(), mt.mean(0))
total = (mt * mt).sum()
print(type(total.grad_fn).__name__)
total.backward()
print(mt.grad)
print(torch.masked.is_masked_tensor(mt), mt.to_tensor(0.0))
