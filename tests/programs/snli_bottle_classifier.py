# SNLI-style classifier: a Bottle mixin over Linear, a bidirectional LSTM encoder, two sentences
class Bottle(nn.Module):
    def forward(self, input):
        if len(input.size()) <= 2:
            return super().forward(input)
        size = input.size()[:2]
        out = super().forward(input.view(size[0] * size[1], -1))
        return out.view(size[0], size[1], -1)


class Linear(Bottle, nn.Linear):
    pass


class Encoder(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        input_size = config["d_proj"]
        dropout = 0 if config["n_layers"] == 1 else config["dp_ratio"]
        self.rnn = nn.LSTM(
            input_size=input_size,
            hidden_size=config["d_hidden"],
            num_layers=config["n_layers"],
            dropout=dropout,
            bidirectional=config["birnn"],
        )

    def forward(self, inputs):
        batch_size = inputs.size()[1]
        state_shape = self.config["n_cells"], batch_size, self.config["d_hidden"]
        h0 = c0 = inputs.new_zeros(state_shape)
        outputs, (ht, ct) = self.rnn(inputs, (h0, c0))
        return (
            ht[-1]
            if not self.config["birnn"]
            else ht[-2:].transpose(0, 1).contiguous().view(batch_size, -1)
        )


class SNLIClassifier(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.embed = nn.Embedding(config["n_embed"], config["d_embed"])
        self.projection = Linear(config["d_embed"], config["d_proj"])
        self.encoder = Encoder(config)
        self.dropout = nn.Dropout(p=config["dp_ratio"])
        self.relu = nn.ReLU()
        seq_in_size = 2 * config["d_hidden"]
        if config["birnn"]:
            seq_in_size *= 2
        lin_config = [seq_in_size] * 2
        self.out = nn.Sequential(
            Linear(*lin_config),
            self.relu,
            self.dropout,
            Linear(*lin_config),
            self.relu,
            self.dropout,
            Linear(seq_in_size, config["d_out"]),
        )

    def forward(self, premise, hypothesis):
        prem_embed = self.embed(premise)
        hypo_embed = self.embed(hypothesis)
        if self.config["fix_emb"]:
            prem_embed = prem_embed.detach()
            hypo_embed = hypo_embed.detach()
        if self.config["projection"]:
            prem_embed = self.relu(self.projection(prem_embed))
            hypo_embed = self.relu(self.projection(hypo_embed))
        premise = self.encoder(prem_embed)
        hypothesis = self.encoder(hypo_embed)
        scores = self.out(torch.cat([premise, hypothesis], 1))
        return scores


config = dict(
    n_embed=30,
    d_embed=8,
    d_proj=6,
    d_hidden=5,
    n_layers=1,
    dp_ratio=0.2,
    birnn=True,
    n_cells=2,
    d_out=3,
    fix_emb=False,
    projection=True,
)
model = SNLIClassifier(config)
print(model)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
criterion = nn.CrossEntropyLoss()
premise = torch.randint(0, 30, (7, 4))
hypothesis = torch.randint(0, 30, (5, 4))
label = torch.tensor([0, 2, 1, 1])
for it in range(4):
    model.train()
    opt.zero_grad()
    answer = model(premise, hypothesis)
    n_correct = (torch.max(answer, 1)[1].view(label.size()) == label).sum().item()
    loss = criterion(answer, label)
    loss.backward()
    opt.step()
    print(f"it {it} loss {loss.item():.4f} correct {n_correct} acc {100.0 * n_correct / 4:.1f}")
model.eval()
with torch.no_grad():
    out(model(premise, hypothesis))
print(Linear(3, 2)(torch.ones(2, 5, 3)).shape, isinstance(model.projection, nn.Linear))
