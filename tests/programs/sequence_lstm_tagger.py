# LSTM part-of-speech tagger: word embeddings, nn.LSTM, log_softmax and NLLLoss
tokenize = str.split
training_data = [
    (tokenize("The dog ate the apple"), ["DET", "NN", "V", "DET", "NN"]),
    (tokenize("Everybody read that book"), ["NN", "V", "DET", "NN"]),
]
word_to_ix = {}
for sent, _tags in training_data:
    for word in sent:
        if word not in word_to_ix:
            word_to_ix[word] = len(word_to_ix)
tag_to_ix = {"DET": 0, "NN": 1, "V": 2}
out(word_to_ix)


def prepare_sequence(seq, to_ix):
    idxs = [to_ix[w] for w in seq]
    return torch.tensor(idxs, dtype=torch.long)


class LSTMTagger(nn.Module):
    def __init__(self, embedding_dim, hidden_dim, vocab_size, tagset_size):
        super().__init__()
        self.hidden_dim = hidden_dim
        self.word_embeddings = nn.Embedding(vocab_size, embedding_dim)
        self.lstm = nn.LSTM(embedding_dim, hidden_dim)
        self.hidden2tag = nn.Linear(hidden_dim, tagset_size)

    def forward(self, sentence):
        embeds = self.word_embeddings(sentence)
        lstm_out, _ = self.lstm(embeds.view(len(sentence), 1, -1))
        tag_space = self.hidden2tag(lstm_out.view(len(sentence), -1))
        tag_scores = F.log_softmax(tag_space, dim=1)
        return tag_scores


model = LSTMTagger(6, 6, len(word_to_ix), len(tag_to_ix))
rng = np.random.default_rng(11)
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.tensor(rng.uniform(-0.4, 0.4, tuple(p.shape))))
print(model)
loss_function = nn.NLLLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

with torch.no_grad():
    inputs = prepare_sequence(training_data[0][0], word_to_ix)
    tag_scores = model(inputs)
    out(tag_scores)

for epoch in range(30):
    for sentence, tags in training_data:
        model.zero_grad()
        sentence_in = prepare_sequence(sentence, word_to_ix)
        targets = prepare_sequence(tags, tag_to_ix)
        tag_scores = model(sentence_in)
        loss = loss_function(tag_scores, targets)
        loss.backward()
        optimizer.step()
    if epoch % 10 == 0:
        out(epoch, loss.item())

with torch.no_grad():
    inputs = prepare_sequence(training_data[0][0], word_to_ix)
    tag_scores = model(inputs)
    out(tag_scores, tag_scores.argmax(dim=1))
    out(model.lstm.weight_ih_l0.grad is None, model.lstm.weight_hh_l0.grad.shape)
# ---
# LSTM step by step: feeding one element at a time equals the whole sequence at once
lstm = nn.LSTM(3, 3)
rng = np.random.default_rng(5)
with torch.no_grad():
    for p in lstm.parameters():
        p.copy_(torch.tensor(rng.uniform(-0.5, 0.5, tuple(p.shape))))
inputs = [torch.tensor(rng.standard_normal((1, 3)), dtype=torch.float32) for _ in range(5)]
hidden = (
    torch.tensor(rng.standard_normal((1, 1, 3)), dtype=torch.float32),
    torch.tensor(rng.standard_normal((1, 1, 3)), dtype=torch.float32),
)
h = hidden
for i in inputs:
    step_out, h = lstm(i.view(1, 1, -1), h)
# torch's grad_fn here names its CPU kernel (MkldnnRnnLayerBackward0): compare values
out(step_out.detach(), [t.detach() for t in h])
whole = torch.cat(inputs).view(len(inputs), 1, -1)
seq_out, seq_hidden = lstm(whole, hidden)
out(seq_out.detach(), [t.detach() for t in seq_hidden])
out(torch.allclose(seq_out[-1], step_out[0], atol=1e-6))
