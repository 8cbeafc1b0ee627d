# character-level names classifier: one-hot letters and a hand-written RNN cell
import string

all_letters = string.ascii_letters + " .,;'"
n_letters = len(all_letters)
category_lines = {
    "English": ["Smith", "Jones", "Brown"],
    "French": ["Dubois", "Lefevre", "Moreau"],
    "Italian": ["Rossi", "Russo", "Ferrari"],
}
all_categories = list(category_lines)
n_categories = len(all_categories)


def letterToIndex(letter):
    return all_letters.find(letter)


def lineToTensor(line):
    tensor = torch.zeros(len(line), 1, n_letters)
    for li, letter in enumerate(line):
        tensor[li][0][letterToIndex(letter)] = 1
    return tensor


out(lineToTensor("Jones").size(), lineToTensor("J").nonzero())


class RNN(nn.Module):
    def __init__(self, input_size, hidden_size, output_size):
        super().__init__()
        self.hidden_size = hidden_size
        self.i2h = nn.Linear(input_size + hidden_size, hidden_size)
        self.h2o = nn.Linear(hidden_size, output_size)
        self.softmax = nn.LogSoftmax(dim=1)

    def forward(self, input, hidden):
        combined = torch.cat((input, hidden), 1)
        hidden = torch.tanh(self.i2h(combined))
        output = self.softmax(self.h2o(hidden))
        return output, hidden

    def initHidden(self):
        return torch.zeros(1, self.hidden_size)


rnn = RNN(n_letters, 16, n_categories)
rng = np.random.default_rng(0)
with torch.no_grad():
    for p in rnn.parameters():
        p.copy_(torch.tensor(rng.uniform(-0.2, 0.2, tuple(p.shape))))


def categoryFromOutput(output):
    top_n, top_i = output.topk(1)
    category_i = top_i[0].item()
    return all_categories[category_i], category_i


criterion = nn.NLLLoss()
learning_rate = 0.05


def train(category_tensor, line_tensor):
    hidden = rnn.initHidden()
    rnn.zero_grad()
    for i in range(line_tensor.size()[0]):
        output, hidden = rnn(line_tensor[i], hidden)
    loss = criterion(output, category_tensor)
    loss.backward()
    for p in rnn.parameters():
        p.data.add_(p.grad.data, alpha=-learning_rate)
    return output, loss.item()


examples = [(c, line) for c in all_categories for line in category_lines[c]]
for epoch in range(6):
    current_loss = 0
    for k in range(len(examples)):
        category, line = examples[(k * 4 + epoch) % len(examples)]
        category_tensor = torch.tensor([all_categories.index(category)], dtype=torch.long)
        output, loss = train(category_tensor, lineToTensor(line))
        current_loss += loss
    guess, guess_i = categoryFromOutput(output)
    print(f"{epoch} {current_loss / len(examples):.4f} {line} / {guess}")
    out(epoch, current_loss)

confusion = torch.zeros(n_categories, n_categories)
with torch.no_grad():
    for category, line in examples:
        hidden = rnn.initHidden()
        line_tensor = lineToTensor(line)
        for i in range(line_tensor.size()[0]):
            output, hidden = rnn(line_tensor[i], hidden)
        confusion[all_categories.index(category)][categoryFromOutput(output)[1]] += 1
for i in range(n_categories):
    confusion[i] = confusion[i] / confusion[i].sum()
out(confusion, confusion.diag().mean())
