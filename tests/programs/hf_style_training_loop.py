# HuggingFace-style fine-tuning loop: dict batches, warmup LambdaLR, accumulation, early stopping
import io
import random

data = torch.utils.data
DataLoader, Dataset, random_split = data.DataLoader, data.Dataset, data.random_split
RandomSampler, SequentialSampler = data.RandomSampler, data.SequentialSampler


def set_seed(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.cuda.manual_seed_all(seed)


def get_linear_schedule_with_warmup(optimizer, num_warmup_steps, num_training_steps, last_epoch=-1):
    def lr_lambda(current_step):
        if current_step < num_warmup_steps:
            return float(current_step) / float(max(1, num_warmup_steps))
        return max(
            0.0,
            float(num_training_steps - current_step)
            / float(max(1, num_training_steps - num_warmup_steps)),
        )

    return torch.optim.lr_scheduler.LambdaLR(optimizer, lr_lambda, last_epoch)


class ToyTextDataset(Dataset):
    def __init__(self, n, seq_len, vocab):
        g = torch.Generator().manual_seed(7)
        self.input_ids = torch.randint(1, vocab, (n, seq_len), generator=g)
        lengths = torch.randint(3, seq_len + 1, (n,), generator=g)
        self.attention_mask = (torch.arange(seq_len)[None, :] < lengths[:, None]).long()
        self.input_ids = self.input_ids * self.attention_mask
        self.labels = (self.input_ids[:, 0] % 2).long()

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return {
            "input_ids": self.input_ids[i],
            "attention_mask": self.attention_mask[i],
            "labels": self.labels[i],
        }


class TinyClassifier(nn.Module):
    def __init__(self, vocab, dim, num_labels):
        super().__init__()
        self.embeddings = nn.Embedding(vocab, dim, padding_idx=0)
        self.LayerNorm = nn.LayerNorm(dim)
        self.dense = nn.Linear(dim, dim)
        self.classifier = nn.Linear(dim, num_labels)

    def forward(self, input_ids, attention_mask, labels=None):
        h = self.LayerNorm(self.embeddings(input_ids))
        mask = attention_mask.unsqueeze(-1).type_as(h)
        pooled = (h * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
        logits = self.classifier(torch.tanh(self.dense(pooled)))
        loss = F.cross_entropy(logits, labels) if labels is not None else None
        return {"loss": loss, "logits": logits}


set_seed(42)
dataset = ToyTextDataset(40, 6, 20)
train_ds, eval_ds = random_split(dataset, [0.75, 0.25], generator=torch.Generator().manual_seed(42))
print(len(train_ds), len(eval_ds), eval_ds.indices[:5])
train_dl = DataLoader(train_ds, sampler=RandomSampler(train_ds), batch_size=8)
eval_dl = DataLoader(eval_ds, sampler=SequentialSampler(eval_ds), batch_size=8)
batch = next(iter(eval_dl))
print({k: (tuple(v.shape), str(v.dtype)) for k, v in batch.items()})

model = TinyClassifier(20, 8, 2)
no_decay = ["bias", "LayerNorm.weight"]
grouped = [
    {
        "params": [p for n, p in model.named_parameters() if not any(nd in n for nd in no_decay)],
        "weight_decay": 0.01,
    },
    {
        "params": [p for n, p in model.named_parameters() if any(nd in n for nd in no_decay)],
        "weight_decay": 0.0,
    },
]
print([len(g["params"]) for g in grouped])
optimizer = torch.optim.AdamW(grouped, lr=5e-3, eps=1e-8)
accumulation, epochs = 2, 4
total_steps = len(train_dl) // accumulation * epochs
scheduler = get_linear_schedule_with_warmup(
    optimizer, num_warmup_steps=2, num_training_steps=total_steps
)


def evaluate():
    model.eval()
    losses, correct, seen = [], 0, 0
    with torch.no_grad():
        for batch in eval_dl:
            outputs = model(**batch)
            losses.append(outputs["loss"].item())
            preds = outputs["logits"].argmax(dim=-1)
            correct += (preds == batch["labels"]).sum().item()
            seen += batch["labels"].numel()
    return sum(losses) / len(losses), correct / seen


best, patience, bad_epochs, global_step = float("inf"), 1, 0, 0
checkpoint = io.BytesIO()
for epoch in range(epochs):
    model.train()
    for step, batch in enumerate(train_dl):
        loss = model(**batch)["loss"] / accumulation
        loss.backward()
        if (step + 1) % accumulation == 0:
            norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad()
            global_step += 1
    eval_loss, acc = evaluate()
    print(
        f"epoch {epoch} step {global_step} lr {scheduler.get_last_lr()[0]:.6f} norm {norm:.4f}",
        f"eval_loss {eval_loss:.4f} acc {acc:.3f}",
    )
    if eval_loss < best:
        best, bad_epochs = eval_loss, 0
        checkpoint.seek(0)
        checkpoint.truncate()
        torch.save(
            {"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch},
            checkpoint,
        )
    else:
        bad_epochs += 1
        if bad_epochs > patience:
            print("early stopping")
            break

checkpoint.seek(0)
state = torch.load(checkpoint, map_location="cpu", weights_only=True)
print(
    sorted(state),
    state["epoch"],
    list(state["optimizer"]["state"])[:3],
    state["optimizer"]["param_groups"][0]["lr"],
)
restored = TinyClassifier(20, 8, 2)
print(restored.load_state_dict(state["model"]))
opt2 = torch.optim.AdamW(restored.parameters(), lr=5e-3)
err(lambda: opt2.load_state_dict(state["optimizer"]))
opt2 = torch.optim.AdamW(
    [
        {
            "params": [
                p for n, p in restored.named_parameters() if not any(nd in n for nd in no_decay)
            ]
        },
        {"params": [p for n, p in restored.named_parameters() if any(nd in n for nd in no_decay)]},
    ],
    lr=5e-3,
)
opt2.load_state_dict(state["optimizer"])
print(opt2.param_groups[0]["weight_decay"], opt2.state_dict()["state"][0]["step"])
model, eval_dl2 = restored, eval_dl
final_loss, final_acc = evaluate()
print(f"{final_loss:.4f} {final_acc:.4f}")
out(restored.classifier.weight, opt2.state_dict()["state"][0]["exp_avg"])
