# word embeddings tutorial: an N-gram language model and CBOW with sums of embeddings
CONTEXT_SIZE = 2
EMBEDDING_DIM = 10
test_sentence = [
    "When",
    "forty",
    "winters",
    "shall",
    "besiege",
    "thy",
    "brow,",
    "And",
    "dig",
    "deep",
    "trenches",
    "in",
    "thy",
    "beauty's",
    "field,",
    "Thy",
    "youth's",
    "proud",
    "livery",
    "so",
    "gazed",
    "on",
    "now,",
    "Will",
    "be",
    "a",
    "totter'd",
    "weed",
    "of",
    "small",
    "worth",
    "held",
]
ngrams = [
    ([test_sentence[i - j - 1] for j in range(CONTEXT_SIZE)], test_sentence[i])
    for i in range(CONTEXT_SIZE, len(test_sentence))
]
print(ngrams[:3])
vocab = sorted(set(test_sentence))
word_to_ix = {word: i for i, word in enumerate(vocab)}


class NGramLanguageModeler(nn.Module):
    def __init__(self, vocab_size, embedding_dim, context_size):
        super().__init__()
        self.embeddings = nn.Embedding(vocab_size, embedding_dim)
        self.linear1 = nn.Linear(context_size * embedding_dim, 128)
        self.linear2 = nn.Linear(128, vocab_size)

    def forward(self, inputs):
        embeds = self.embeddings(inputs).view((1, -1))
        out = F.relu(self.linear1(embeds))
        out = self.linear2(out)
        log_probs = F.log_softmax(out, dim=1)
        return log_probs


losses = []
loss_function = nn.NLLLoss()
model = NGramLanguageModeler(len(vocab), EMBEDDING_DIM, CONTEXT_SIZE)
optimizer = torch.optim.SGD(model.parameters(), lr=0.001)
for _ in range(3):
    total_loss = 0
    for context, target in ngrams:
        context_idxs = torch.tensor([word_to_ix[w] for w in context], dtype=torch.long)
        model.zero_grad()
        log_probs = model(context_idxs)
        loss = loss_function(log_probs, torch.tensor([word_to_ix[target]], dtype=torch.long))
        loss.backward()
        optimizer.step()
        total_loss += loss.item()
    losses.append(total_loss)
print([round(x, 3) for x in losses])
print(model.embeddings.weight[word_to_ix["beauty's"]])

# ---
# CBOW: context of two words either side, embeddings summed, a make_context_vector helper
raw_text = [
    "We",
    "are",
    "about",
    "to",
    "study",
    "the",
    "idea",
    "of",
    "a",
    "computational",
    "process.",
    "Computational",
    "processes",
    "are",
    "abstract",
    "beings",
    "that",
    "inhabit",
    "computers.",
]
vocab = set(raw_text)
vocab_size = len(vocab)
word_to_ix = {word: i for i, word in enumerate(sorted(vocab))}
data = []
for i in range(2, len(raw_text) - 2):
    context = [raw_text[i - 2], raw_text[i - 1], raw_text[i + 1], raw_text[i + 2]]
    data.append((context, raw_text[i]))
print(data[:2])


class CBOW(nn.Module):
    def __init__(self, vocab_size, embedding_dim):
        super().__init__()
        self.embeddings = nn.Embedding(vocab_size, embedding_dim)
        self.proj = nn.Linear(embedding_dim, vocab_size)

    def forward(self, inputs):
        embeds = sum(self.embeddings(inputs)).view((1, -1))
        return F.log_softmax(self.proj(embeds), dim=-1)


def make_context_vector(context, word_to_ix):
    idxs = [word_to_ix[w] for w in context]
    return torch.tensor(idxs, dtype=torch.long)


model = CBOW(vocab_size, 8)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
for epoch in range(3):
    total = 0.0
    for context, target in data:
        opt.zero_grad()
        lp = model(make_context_vector(context, word_to_ix))
        loss = F.nll_loss(lp, torch.tensor([word_to_ix[target]]))
        loss.backward()
        opt.step()
        total += loss.item()
    print(f"epoch {epoch}: {total:.4f}")
print(make_context_vector(data[0][0], word_to_ix))
lp = model(make_context_vector(data[0][0], word_to_ix))
print(lp.argmax().item(), lp.exp().sum().round(decimals=4))
print(torch.nn.Embedding.from_pretrained(model.embeddings.weight[:3], freeze=True))
