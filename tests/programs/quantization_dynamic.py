# dynamic quantization recipe: a text classifier's Linear layers to int8, sizes and outputs compared
import io
import time


class TextClassifier(nn.Module):
    def __init__(self, vocab=50, dim=32, hidden=64, classes=4):
        super().__init__()
        self.embedding = nn.EmbeddingBag(vocab, dim, mode="mean")
        self.encoder = nn.Sequential(nn.Linear(dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden))
        self.head = nn.Linear(hidden, classes)

    def forward(self, tokens, offsets):
        return self.head(torch.relu(self.encoder(self.embedding(tokens, offsets))))


def size_of(model):
    buffer = io.BytesIO()
    torch.save(model.state_dict(), buffer)
    return len(buffer.getvalue())


torch.manual_seed(0)
model = TextClassifier().eval()
quantized = torch.ao.quantization.quantize_dynamic(model, {nn.Linear}, dtype=torch.qint8)
print(quantized)
print("float model still float:", type(model.head).__name__)
print("quantized is smaller:", size_of(quantized) < size_of(model))

tokens = torch.randint(0, 50, (40,))
offsets = torch.arange(0, 40, 5)
start = time.perf_counter()
with torch.no_grad():
    reference = model(tokens, offsets)
    result = quantized(tokens, offsets)
elapsed = time.perf_counter() - start
out(result, reference)
print("max difference below 0.05:", (result - reference).abs().max().item() < 0.05)
print("same predictions:", torch.equal(result.argmax(1), reference.argmax(1)))
print("timed:", elapsed >= 0)

head = quantized.head
print(head.weight().dtype, head.weight().qscheme(), head.weight().q_zero_point())
print(f"{head.weight().q_scale():.10f}")
out(head.weight().int_repr(), head.weight().dequantize(), head.bias())
print(list(quantized.state_dict().keys()))
err(lambda: head(torch.randn(3, 7)))
err(lambda: head(torch.randn(3, 64, dtype=torch.float64)))
# ---
# quantized tensors: quantize, print, read back, and what they refuse
x = torch.tensor([[-1.0, 0.0, 0.05, 0.15], [0.25, 1.0, 2.0, 100.0]])
q = torch.quantize_per_tensor(x, 0.1, 10, torch.quint8)
print(q)
print(q.int_repr())
print(q.dequantize())
print(q.q_scale(), q.q_zero_point(), q.qscheme(), q.dtype, q.is_quantized)
print(q[1], q.t())
out(q.int_repr(), q.dequantize())
err(lambda: q + q)
err(lambda: q.sum())
err(lambda: q.float())
err(lambda: q.numpy())
err(lambda: torch.quantize_per_tensor(x.double(), 0.1, 10, torch.quint8))

qc = torch.quantize_per_channel(x, torch.tensor([0.1, 0.5]), torch.tensor([0, 3]), 0, torch.qint8)
print(qc)
out(qc.int_repr(), qc.q_per_channel_scales(), qc.q_per_channel_zero_points())

d = torch.quantize_per_tensor_dynamic(torch.randn(3, 5), torch.quint8, False)
print(d.q_scale(), d.q_zero_point())

w = torch.randn(6, requires_grad=True)
y = torch.fake_quantize_per_tensor_affine(w * 4, 0.25, 0, -8, 7)
y.sum().backward()
out(y, w.grad)

qx = torch.quantize_per_tensor(torch.rand(1, 2, 4, 4), 0.05, 2, torch.quint8)
print(torch.quantized_max_pool2d(qx, [2, 2]))
print(
    torch.quantized_batch_norm(
        qx, torch.ones(2), torch.zeros(2), torch.rand(2), torch.rand(2) + 0.5, 1e-5, 0.1, 5
    )
)
# ---
# word language model: an LSTM and its decoder quantized dynamically, evaluated against float
torch.manual_seed(0)


class WordLM(nn.Module):
    def __init__(self, vocab=30, dim=12, hidden=20, layers=2):
        super().__init__()
        self.encoder = nn.Embedding(vocab, dim)
        self.rnn = nn.LSTM(dim, hidden, layers)
        self.decoder = nn.Linear(hidden, vocab)

    def forward(self, tokens, hidden):
        output, hidden = self.rnn(self.encoder(tokens), hidden)
        return self.decoder(output), hidden


model = WordLM().eval()
quantized = torch.ao.quantization.quantize_dynamic(model, {nn.LSTM, nn.Linear}, dtype=torch.qint8)
print(quantized)
tokens = torch.randint(0, 30, (6, 2))
targets = torch.randint(0, 30, (6, 2))
hidden = (torch.zeros(2, 2, 20), torch.zeros(2, 2, 20))
with torch.no_grad():
    float_logits, _ = model(tokens, hidden)
    logits, (h, c) = quantized(tokens, hidden)
float_loss = F.cross_entropy(float_logits.reshape(-1, 30), targets.reshape(-1))
loss = F.cross_entropy(logits.reshape(-1, 30), targets.reshape(-1))
out(float_logits, logits, h, c, loss)
print("loss close to float:", abs(loss.item() - float_loss.item()) < 0.05)
