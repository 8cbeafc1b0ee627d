# d2l BERT pretraining data: next-sentence pairs, 15% masked-LM replacement, padding to max_len
import random

paragraphs = [
    ["the cat sat on the mat", "it was a sunny day", "the dog barked loudly"],
    ["we trained a small model", "the loss went down", "then we tested it"],
    ["a b c d", "e f g", "h i j k l"],
]
paragraphs = [[s.split() for s in p] for p in paragraphs]
tokens = [tk for p in paragraphs for s in p for tk in s]
idx_to_token = ["<unk>", "<pad>", "<mask>", "<cls>", "<sep>"] + sorted(set(tokens))
token_to_idx = {t: i for i, t in enumerate(idx_to_token)}
vocab = lambda ts: [token_to_idx.get(t, 0) for t in ts]


def get_tokens_and_segments(tokens_a, tokens_b=None):
    tokens = ["<cls>"] + tokens_a + ["<sep>"]
    segments = [0] * (len(tokens_a) + 2)
    if tokens_b is not None:
        tokens += tokens_b + ["<sep>"]
        segments += [1] * (len(tokens_b) + 1)
    return tokens, segments


def _get_next_sentence(sentence, next_sentence, paragraphs):
    if random.random() < 0.5:
        is_next = True
    else:
        next_sentence = random.choice(random.choice(paragraphs))
        is_next = False
    return sentence, next_sentence, is_next


def _replace_mlm_tokens(tokens, candidate_pred_positions, num_mlm_preds):
    mlm_input_tokens = [token for token in tokens]
    pred_positions_and_labels = []
    random.shuffle(candidate_pred_positions)
    for mlm_pred_position in candidate_pred_positions:
        if len(pred_positions_and_labels) >= num_mlm_preds:
            break
        masked_token = None
        if random.random() < 0.8:
            masked_token = "<mask>"
        else:
            if random.random() < 0.5:
                masked_token = tokens[mlm_pred_position]
            else:
                masked_token = random.choice(idx_to_token[5:])
        mlm_input_tokens[mlm_pred_position] = masked_token
        pred_positions_and_labels.append((mlm_pred_position, tokens[mlm_pred_position]))
    return mlm_input_tokens, pred_positions_and_labels


def _get_mlm_data_from_tokens(tokens):
    candidate_pred_positions = [i for i, t in enumerate(tokens) if t not in ["<cls>", "<sep>"]]
    num_mlm_preds = max(1, round(len(tokens) * 0.15))
    mlm_input_tokens, pred_positions_and_labels = _replace_mlm_tokens(
        tokens, candidate_pred_positions, num_mlm_preds
    )
    pred_positions_and_labels = sorted(pred_positions_and_labels, key=lambda x: x[0])
    pred_positions = [v[0] for v in pred_positions_and_labels]
    mlm_pred_labels = [v[1] for v in pred_positions_and_labels]
    return vocab(mlm_input_tokens), pred_positions, vocab(mlm_pred_labels)


def _pad_bert_inputs(examples, max_len):
    max_num_mlm_preds = round(max_len * 0.15)
    all_token_ids, all_segments, valid_lens = [], [], []
    all_pred_positions, all_mlm_weights, all_mlm_labels = [], [], []
    nsp_labels = []
    for token_ids, pred_positions, mlm_pred_label_ids, segments, is_next in examples:
        all_token_ids.append(
            torch.tensor(
                token_ids + [token_to_idx["<pad>"]] * (max_len - len(token_ids)), dtype=torch.long
            )
        )
        all_segments.append(
            torch.tensor(segments + [0] * (max_len - len(segments)), dtype=torch.long)
        )
        valid_lens.append(torch.tensor(len(token_ids), dtype=torch.float32))
        all_pred_positions.append(
            torch.tensor(
                pred_positions + [0] * (max_num_mlm_preds - len(pred_positions)), dtype=torch.long
            )
        )
        all_mlm_weights.append(
            torch.tensor(
                [1.0] * len(mlm_pred_label_ids) + [0.0] * (max_num_mlm_preds - len(pred_positions)),
                dtype=torch.float32,
            )
        )
        all_mlm_labels.append(
            torch.tensor(
                mlm_pred_label_ids + [0] * (max_num_mlm_preds - len(mlm_pred_label_ids)),
                dtype=torch.long,
            )
        )
        nsp_labels.append(torch.tensor(is_next, dtype=torch.long))
    return (
        all_token_ids,
        all_segments,
        valid_lens,
        all_pred_positions,
        all_mlm_weights,
        all_mlm_labels,
        nsp_labels,
    )


class WikiTextDataset(torch.utils.data.Dataset):
    def __init__(self, paragraphs, max_len):
        examples = []
        for paragraph in paragraphs:
            for i in range(len(paragraph) - 1):
                a, b, is_next = _get_next_sentence(paragraph[i], paragraph[i + 1], paragraphs)
                if len(a) + len(b) + 3 > max_len:
                    continue
                tks, segments = get_tokens_and_segments(a, b)
                examples.append(_get_mlm_data_from_tokens(tks) + (segments, is_next))
        (
            self.all_token_ids,
            self.all_segments,
            self.valid_lens,
            self.all_pred_positions,
            self.all_mlm_weights,
            self.all_mlm_labels,
            self.nsp_labels,
        ) = _pad_bert_inputs(examples, max_len)

    def __getitem__(self, idx):
        return (
            self.all_token_ids[idx],
            self.all_segments[idx],
            self.valid_lens[idx],
            self.all_pred_positions[idx],
            self.all_mlm_weights[idx],
            self.all_mlm_labels[idx],
            self.nsp_labels[idx],
        )

    def __len__(self):
        return len(self.all_token_ids)


random.seed(0)
train_set = WikiTextDataset(paragraphs, max_len=20)
print(len(train_set), get_tokens_and_segments(["a", "b"], ["c"]))
train_iter = torch.utils.data.DataLoader(train_set, batch_size=3, shuffle=True)
for tokens_X, segments_X, valid_lens_x, pred_positions_X, mlm_weights_X, mlm_Y, nsp_y in train_iter:
    print(
        tokens_X.shape, segments_X.shape, valid_lens_x.shape, pred_positions_X.shape,
        mlm_weights_X.shape, mlm_Y.shape, nsp_y.shape,
    )  # fmt: skip
    print(tokens_X[0], valid_lens_x, nsp_y)
    break

# a toy MLM head: gather the masked positions and weight the loss by mlm_weights
embed = nn.Embedding(len(idx_to_token), 8)
seg = nn.Embedding(2, 8)
mlm = nn.Sequential(
    nn.LazyLinear(16), nn.ReLU(), nn.LayerNorm(16), nn.LazyLinear(len(idx_to_token))
)
nsp = nn.LazyLinear(2)
loss = nn.CrossEntropyLoss(reduction="none")
encoded = embed(tokens_X) + seg(segments_X)
num_pred_positions = pred_positions_X.shape[1]
pred_positions = pred_positions_X.reshape(-1)
batch_idx = torch.repeat_interleave(torch.arange(tokens_X.shape[0]), num_pred_positions)
masked_X = encoded[batch_idx, pred_positions].reshape((tokens_X.shape[0], num_pred_positions, -1))
mlm_Y_hat = mlm(masked_X)
mlm_l = loss(mlm_Y_hat.reshape(-1, len(idx_to_token)), mlm_Y.reshape(-1)) * mlm_weights_X.reshape(
    -1, 1
)
mlm_l = mlm_l.sum() / (mlm_weights_X.sum() + 1e-8)
nsp_l = loss(nsp(encoded[:, 0, :]), nsp_y).mean()
total = mlm_l + nsp_l
total.backward()
print(
    f"mlm {mlm_l.item():.4f} nsp {nsp_l.item():.4f}",
    mlm_l.grad_fn.name(),
    embed.weight.grad.abs().sum() > 0,
)
out(mlm_Y_hat, total, seg.weight.grad)
