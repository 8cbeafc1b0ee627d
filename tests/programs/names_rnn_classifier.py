# Char-level name classifier: unicode-to-ascii, one-hot line tensors, nn.RNN + Linear + LogSoftmax
import string
import unicodedata

all_letters = string.ascii_letters + " .,;'"
n_letters = len(all_letters)


def unicode_to_ascii(s):
    return "".join(
        c
        for c in unicodedata.normalize("NFD", s)
        if unicodedata.category(c) != "Mn" and c in all_letters
    )


def line_to_tensor(line):
    tensor = torch.zeros(len(line), 1, n_letters)
    for li, letter in enumerate(line):
        tensor[li][0][all_letters.find(letter)] = 1
    return tensor


print(unicode_to_ascii("Ślusàrski"), line_to_tensor("Jones").size())
data = {
    "English": ["Smith", "Jones", "Brown", "Taylor", "Walker"],
    "French": ["Dubois", "Lefèvre", "Moreau", "Girard", "Fournier"],
    "Japanese": ["Sato", "Suzuki", "Takahashi", "Tanaka", "Ito"],
}
all_categories = list(data)


class CharRNN(nn.Module):
    def __init__(self, input_size, hidden_size, output_size):
        super().__init__()
        self.rnn = nn.RNN(input_size, hidden_size)
        self.h2o = nn.Linear(hidden_size, output_size)
        self.softmax = nn.LogSoftmax(dim=1)

    def forward(self, line_tensor):
        rnn_out, hidden = self.rnn(line_tensor)
        output = self.h2o(hidden[0])
        return self.softmax(output)


def category_from_output(output):
    top_n, top_i = output.topk(1)
    category_i = top_i[0].item()
    return all_categories[category_i], category_i


rnn = CharRNN(n_letters, 24, len(all_categories))
print(rnn)
output = rnn(line_to_tensor("Albert"))
print(output.shape, category_from_output(output))
criterion = nn.NLLLoss()
optimizer = torch.optim.SGD(rnn.parameters(), lr=0.05)
pairs = [(unicode_to_ascii(n), c) for c, names in data.items() for n in names]
for epoch in range(6):
    total = 0.0
    for name, cat in pairs:
        label = torch.tensor([all_categories.index(cat)], dtype=torch.long)
        out_ = rnn(line_to_tensor(name))
        loss = criterion(out_, label)
        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(rnn.parameters(), 3)
        optimizer.step()
        total += loss.item()
    if epoch % 2 == 1:
        print(epoch, f"{total / len(pairs):.4f}")
confusion = torch.zeros(len(all_categories), len(all_categories))
rnn.eval()
with torch.no_grad():
    for name, cat in pairs:
        guess, guess_i = category_from_output(rnn(line_to_tensor(name)))
        confusion[all_categories.index(cat)][guess_i] += 1
for i in range(len(all_categories)):
    confusion[i] = confusion[i] / confusion[i].sum()
print(confusion)
out(confusion, *rnn.parameters())
# ---
# Hand-written RNN cell: torch.cat of input and hidden, i2h/i2o, initHidden, topk(3) predictions
n_letters, n_hidden, n_categories = 10, 16, 4


class RNNCell(nn.Module):
    def __init__(self, input_size, hidden_size, output_size):
        super().__init__()
        self.hidden_size = hidden_size
        self.i2h = nn.Linear(input_size + hidden_size, hidden_size)
        self.i2o = nn.Linear(input_size + hidden_size, output_size)
        self.softmax = nn.LogSoftmax(dim=1)

    def forward(self, input, hidden):
        combined = torch.cat((input, hidden), 1)
        hidden = self.i2h(combined)
        output = self.softmax(self.i2o(combined))
        return output, hidden

    def initHidden(self):
        return torch.zeros(1, self.hidden_size)


rnn = RNNCell(n_letters, n_hidden, n_categories)
lines = [torch.randint(0, n_letters, (int(k),)) for k in torch.randint(3, 7, (12,))]
labels = torch.randint(0, n_categories, (12,))
learning_rate = 0.01
for line, label in zip(lines, labels):
    line_tensor = F.one_hot(line, n_letters).float().unsqueeze(1)
    hidden = rnn.initHidden()
    rnn.zero_grad()
    for i in range(line_tensor.size()[0]):
        output, hidden = rnn(line_tensor[i], hidden)
    loss = F.nll_loss(output, label.view(1))
    loss.backward()
    for p in rnn.parameters():
        p.data.add_(p.grad.data, alpha=-learning_rate)
print(f"{loss.item():.5f}", output.grad_fn.name())
with torch.no_grad():
    hidden = rnn.initHidden()
    for i in range(3):
        output, hidden = rnn(F.one_hot(torch.tensor([i]), n_letters).float(), hidden)
    topv, topi = output.topk(3, 1, True)
    for i in range(3):
        value = topv[0][i].item()
        category_index = topi[0][i].item()
        print(f"({value:.2f}) {category_index}")
out(topv, topi, *rnn.parameters())
