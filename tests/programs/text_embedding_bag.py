# text classification: nn.EmbeddingBag with offsets, a collate function and SGD with StepLR
tokenize = str.split
vocab = {
    w: i
    for i, w in enumerate(
        tokenize("<unk> the a match goal team won stock market price fell rose election vote")
    )
}
train_iter = [
    (1, "the team won the match"),
    (2, "stock price fell"),
    (3, "the election vote"),
    (1, "a goal won the match"),
    (2, "the market rose"),
    (3, "a vote the election"),
]


def text_pipeline(x):
    return [vocab.get(token, 0) for token in x.split()]


def label_pipeline(x):
    return int(x) - 1


def collate_batch(batch):
    label_list, text_list, offsets = [], [], [0]
    for _label, _text in batch:
        label_list.append(label_pipeline(_label))
        processed_text = torch.tensor(text_pipeline(_text), dtype=torch.int64)
        text_list.append(processed_text)
        offsets.append(processed_text.size(0))
    label_list = torch.tensor(label_list, dtype=torch.int64)
    offsets = torch.tensor(offsets[:-1]).cumsum(dim=0)
    text_list = torch.cat(text_list)
    return label_list, text_list, offsets


class TextClassificationModel(nn.Module):
    def __init__(self, vocab_size, embed_dim, num_class):
        super().__init__()
        self.embedding = nn.EmbeddingBag(vocab_size, embed_dim, sparse=False)
        self.fc = nn.Linear(embed_dim, num_class)
        self.init_weights()

    def init_weights(self):
        rng = np.random.default_rng(3)
        with torch.no_grad():
            self.embedding.weight.copy_(torch.tensor(rng.uniform(-0.5, 0.5, (len(vocab), 6))))
            self.fc.weight.copy_(torch.tensor(rng.uniform(-0.5, 0.5, (3, 6))))
        self.fc.bias.data.zero_()

    def forward(self, text, offsets):
        embedded = self.embedding(text, offsets)
        return self.fc(embedded)


model = TextClassificationModel(len(vocab), 6, 3)
print(model)
dataloader = torch.utils.data.DataLoader(
    train_iter, batch_size=3, shuffle=False, collate_fn=collate_batch
)
criterion = torch.nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=2.0)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, 1.0, gamma=0.5)

for epoch in range(3):
    model.train()
    total_acc, total_count = 0, 0
    for idx, (label, text, offsets) in enumerate(dataloader):
        optimizer.zero_grad()
        predicted_label = model(text, offsets)
        loss = criterion(predicted_label, label)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 0.1)
        optimizer.step()
        total_acc += (predicted_label.argmax(1) == label).sum().item()
        total_count += label.size(0)
        out(epoch, idx, loss, text, offsets)
    scheduler.step()
    out(total_acc / total_count, scheduler.get_last_lr())

model.eval()
with torch.no_grad():
    _, text, offsets = collate_batch([(1, "the goal won"), (2, "price rose unknown")])
    out(model(text, offsets).argmax(1) + 1)
# ---
# EmbeddingBag: modes, per_sample_weights, padding_idx, 2-D input and from_pretrained
weight = torch.tensor(np.arange(15.0).reshape(5, 3) / 10, dtype=torch.float32)
text = torch.tensor([1, 2, 4, 4, 3, 0, 2])
offsets = torch.tensor([0, 3, 3, 5])
for mode in ("sum", "mean", "max"):
    bag = nn.EmbeddingBag.from_pretrained(weight, mode=mode, freeze=False)
    y = bag(text, offsets)
    (y * torch.arange(12.0).view(4, 3)).sum().backward()
    out(mode, y, bag.weight.grad)
bag = nn.EmbeddingBag.from_pretrained(weight, mode="sum", freeze=False)
psw = torch.tensor([1.0, 0.5, 2.0, -1.0, 1.0, 0.0, 3.0], requires_grad=True)
y = bag(text, offsets, per_sample_weights=psw)
y.sum().backward()
out(y, psw.grad, bag.weight.grad)
bag = nn.EmbeddingBag.from_pretrained(weight, mode="mean", padding_idx=4)
out(bag(text, offsets), bag(torch.tensor([[1, 4], [4, 4], [0, 2]])))
bag = nn.EmbeddingBag.from_pretrained(weight, mode="sum", include_last_offset=True)
out(bag(text, torch.tensor([0, 3, 7])))
out(F.embedding_bag(text, weight, offsets, mode="mean"))
