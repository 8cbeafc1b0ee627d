# CS224n transition-based dependency parser: PartialParse, minibatch_parse, a ParserModel
class PartialParse:
    def __init__(self, sentence):
        self.sentence = sentence
        self.stack = ["ROOT"]
        self.buffer = list(sentence)
        self.dependencies = []

    def parse_step(self, transition):
        if transition == "S":
            self.stack.append(self.buffer.pop(0))
        elif transition == "LA":
            dependent = self.stack.pop(-2)
            self.dependencies.append((self.stack[-1], dependent))
        elif transition == "RA":
            dependent = self.stack.pop()
            self.dependencies.append((self.stack[-1], dependent))

    def parse(self, transitions):
        for transition in transitions:
            self.parse_step(transition)
        return self.dependencies


def minibatch_parse(sentences, model, batch_size):
    partial_parses = [PartialParse(s) for s in sentences]
    unfinished = partial_parses[:]
    while unfinished:
        batch = unfinished[:batch_size]
        transitions = model.predict(batch)
        for pp, transition in zip(batch, transitions):
            pp.parse_step(transition)
        unfinished = [pp for pp in unfinished if len(pp.buffer) > 0 or len(pp.stack) > 1]
    return [pp.dependencies for pp in partial_parses]


pp = PartialParse(["parse", "this", "sentence"])
print(pp.parse(["S", "S", "S", "LA", "RA", "RA"]))


class ParserModel(nn.Module):
    def __init__(self, embeddings, n_features=6, hidden_size=20, n_classes=3, dropout_prob=0.5):
        super().__init__()
        self.n_features = n_features
        self.embed_size = embeddings.shape[1]
        self.embeddings = nn.Parameter(torch.tensor(embeddings))
        self.embed_to_hidden_weight = nn.Parameter(
            torch.empty(self.n_features * self.embed_size, hidden_size)
        )
        nn.init.xavier_uniform_(self.embed_to_hidden_weight)
        self.embed_to_hidden_bias = nn.Parameter(torch.empty(hidden_size))
        nn.init.uniform_(self.embed_to_hidden_bias)
        self.dropout = nn.Dropout(dropout_prob)
        self.hidden_to_logits_weight = nn.Parameter(torch.empty(hidden_size, n_classes))
        nn.init.xavier_uniform_(self.hidden_to_logits_weight)
        self.hidden_to_logits_bias = nn.Parameter(torch.empty(n_classes))
        nn.init.uniform_(self.hidden_to_logits_bias)

    def embedding_lookup(self, w):
        x = torch.index_select(self.embeddings, 0, w.view(-1)).view(w.shape[0], -1)
        return x

    def forward(self, w):
        x = self.embedding_lookup(w)
        h = F.relu(x @ self.embed_to_hidden_weight + self.embed_to_hidden_bias)
        return self.dropout(h) @ self.hidden_to_logits_weight + self.hidden_to_logits_bias


vocab = {"<ROOT>": 0, "<NULL>": 1, "parse": 2, "this": 3, "sentence": 4, "a": 5, "long": 6}
embeddings = np.random.default_rng(1).normal(0, 0.9, (len(vocab), 5)).astype("float32")
model = ParserModel(embeddings)
print(model.embeddings.dtype, model.embed_to_hidden_weight.shape)


def extract_features(pp):
    stack = [vocab.get(w, 1) if w != "ROOT" else 0 for w in pp.stack[-3:]]
    buf = [vocab.get(w, 1) for w in pp.buffer[:3]]
    return [1] * (3 - len(stack)) + stack + buf + [1] * (3 - len(buf))


class Oracle:
    """Predicts the legal transition the trained model scores highest."""

    def __init__(self, model):
        self.model = model

    def predict(self, partial_parses):
        feats = torch.tensor([extract_features(pp) for pp in partial_parses], dtype=torch.long)
        with torch.no_grad():
            logits = self.model(feats)
        legal = torch.tensor(
            [[len(pp.stack) > 2, len(pp.stack) > 1, len(pp.buffer) > 0] for pp in partial_parses]
        )
        logits = logits.masked_fill(~legal, float("-inf"))
        return [["LA", "RA", "S"][i] for i in logits.argmax(dim=1).tolist()]


# train on gold transitions of one sentence, as the assignment's train loop does
sentence = ["parse", "this", "sentence"]
gold = ["S", "S", "S", "LA", "RA", "RA"]
states, labels = [], []
pp = PartialParse(sentence)
for t in gold:
    states.append(extract_features(pp))
    labels.append(["LA", "RA", "S"].index(t))
    pp.parse_step(t)
train_x = torch.tensor(states)
train_y = torch.tensor(labels)
optimizer = torch.optim.Adam(model.parameters(), lr=0.05)
loss_func = nn.CrossEntropyLoss()
for epoch in range(15):
    model.train()
    optimizer.zero_grad()
    logits = model(train_x)
    loss = loss_func(logits, train_y)
    loss.backward()
    optimizer.step()
    if epoch % 5 == 0:
        print(f"epoch {epoch}: loss {loss.item():.4f}")
model.eval()
deps = minibatch_parse([sentence, ["a", "long", "sentence"], ["this"]], Oracle(model), batch_size=2)
print(deps)
gold_deps = set(PartialParse(sentence).parse(gold))
uas = len(gold_deps & set(deps[0])) / len(gold_deps)
print(f"UAS: {uas * 100.0:.2f}")
out(model(train_x), model.embeddings.grad)
