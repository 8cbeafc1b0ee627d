# "Deep Learning with PyTorch" NLP tutorial: a bag-of-words logistic regression classifier
torch.manual_seed(1)
data = [
    (["me", "gusta", "comer", "en", "la", "cafeteria"], "SPANISH"),
    (["Give", "it", "to", "me"], "ENGLISH"),
    (["No", "creo", "que", "sea", "una", "buena", "idea"], "SPANISH"),
    (["No", "it", "is", "not", "a", "good", "idea", "to", "get", "lost", "at", "sea"], "ENGLISH"),
]
test_data = [
    (["Yo", "creo", "que", "si"], "SPANISH"),
    (["it", "is", "lost", "on", "me"], "ENGLISH"),
]
word_to_ix = {}
for sent, _ in data + test_data:
    for word in sent:
        if word not in word_to_ix:
            word_to_ix[word] = len(word_to_ix)
print(word_to_ix)
VOCAB_SIZE = len(word_to_ix)
NUM_LABELS = 2


class BoWClassifier(nn.Module):
    def __init__(self, num_labels, vocab_size):
        super().__init__()
        self.linear = nn.Linear(vocab_size, num_labels)

    def forward(self, bow_vec):
        return F.log_softmax(self.linear(bow_vec), dim=1)


def make_bow_vector(sentence, word_to_ix):
    vec = torch.zeros(len(word_to_ix))
    for word in sentence:
        vec[word_to_ix[word]] += 1
    return vec.view(1, -1)


def make_target(label, label_to_ix):
    return torch.LongTensor([label_to_ix[label]])


model = BoWClassifier(NUM_LABELS, VOCAB_SIZE)
for param in model.parameters():
    print(param)
with torch.no_grad():
    sample = data[0]
    bow_vector = make_bow_vector(sample[0], word_to_ix)
    log_probs = model(bow_vector)
    print(log_probs)
label_to_ix = {"SPANISH": 0, "ENGLISH": 1}
with torch.no_grad():
    for instance, _label in test_data:
        bow_vec = make_bow_vector(instance, word_to_ix)
        log_probs = model(bow_vec)
        print(log_probs)
print(next(model.parameters())[:, word_to_ix["creo"]])
loss_function = nn.NLLLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for _epoch in range(100):
    for instance, label in data:
        model.zero_grad()
        bow_vec = make_bow_vector(instance, word_to_ix)
        target = make_target(label, label_to_ix)
        log_probs = model(bow_vec)
        loss = loss_function(log_probs, target)
        loss.backward()
        optimizer.step()
with torch.no_grad():
    for instance, _label in test_data:
        bow_vec = make_bow_vector(instance, word_to_ix)
        log_probs = model(bow_vec)
        print(log_probs)
print(next(model.parameters())[:, word_to_ix["creo"]])
out(loss, model.linear.weight)
# ---
# "Deep Learning with PyTorch" NLP tutorial: the tensor and autograd warm-up it opens with
torch.manual_seed(1)
V_data = [1.0, 2.0, 3.0]
V = torch.tensor(V_data)
print(V)
M_data = [[1.0, 2.0, 3.0], [4.0, 5.0, 6]]
M = torch.tensor(M_data)
print(M)
T_data = [[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]]
T = torch.tensor(T_data)
print(T)
print(V[0])
print(V[0].item())
print(M[0])
print(T[0])
x = torch.randn((3, 4, 5))
print(x)
x_1 = torch.randn(2, 5)
y_1 = torch.randn(3, 5)
z_1 = torch.cat([x_1, y_1])
print(z_1)
x_2 = torch.randn(2, 3)
y_2 = torch.randn(2, 5)
z_2 = torch.cat([x_2, y_2], 1)
print(z_2)
err(lambda: torch.cat([x_1, x_2]))
x = torch.randn(2, 3, 4)
print(x)
print(x.view(2, 12))
print(x.view(2, -1))
x = torch.tensor([1.0, 2.0, 3], requires_grad=True)
y = torch.tensor([4.0, 5.0, 6], requires_grad=True)
z = x + y
print(z)
print(z.grad_fn.name())
s = z.sum()
print(s)
print(s.grad_fn.name())
s.backward()
print(x.grad)
x = torch.randn(2, 2)
y = torch.randn(2, 2)
print(x.requires_grad, y.requires_grad)
z = x + y
print(z.grad_fn)
x = x.requires_grad_()
y = y.requires_grad_()
z = x + y
print(z.grad_fn.name())
print(z.requires_grad)
new_z = z.detach()
print(new_z.grad_fn)
print(x.requires_grad)
print((x**2).requires_grad)
with torch.no_grad():
    print((x**2).requires_grad)
lin = nn.Linear(5, 3)
data = torch.randn(2, 5)
print(lin(data))
data = torch.randn(2, 2)
print(data)
print(F.relu(data))
data = torch.randn(5)
print(data)
print(F.softmax(data, dim=0))
print(F.softmax(data, dim=0).sum())
print(F.log_softmax(data, dim=0))
