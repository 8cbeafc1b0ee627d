# a chatbot-style seq2seq: a bidirectional GRU encoder over packed padded batches, Luong
# attention (dot, general, concat), a masked NLL loss from gather and masked_select, teacher
# forcing, gradient clipping and a greedy search decoder
import random

random.seed(0)
PAD, SOS, EOS = 0, 1, 2
VOCAB, HIDDEN = 12, 8


def zero_padding(seqs):
    longest = max(len(s) for s in seqs)
    return [s + [PAD] * (longest - len(s)) for s in seqs]


pairs = [([3, 4, 5, 2], [6, 7, 2]), ([8, 9, 2], [10, 11, 4, 2]), ([5, 2], [3, 2])]
pairs.sort(key=lambda p: len(p[0]), reverse=True)
inputs = [p[0] for p in pairs]
targets = [p[1] for p in pairs]
lengths = torch.tensor([len(s) for s in inputs])
input_var = torch.LongTensor(zero_padding(inputs)).t()
target_padded = zero_padding(targets)
mask = torch.BoolTensor([[tok != PAD for tok in row] for row in target_padded]).t()
target_var = torch.LongTensor(target_padded).t()
max_target_len = max(len(t) for t in targets)
print(input_var.shape, lengths, mask.dtype, max_target_len)
print(input_var)


class EncoderRNN(nn.Module):
    def __init__(self, hidden_size, embedding, n_layers=1):
        super().__init__()
        self.embedding = embedding
        self.gru = nn.GRU(hidden_size, hidden_size, n_layers, bidirectional=True)

    def forward(self, input_seq, input_lengths, hidden=None):
        embedded = self.embedding(input_seq)
        packed = nn.utils.rnn.pack_padded_sequence(embedded, input_lengths)
        outputs, hidden = self.gru(packed, hidden)
        outputs, _ = nn.utils.rnn.pad_packed_sequence(outputs)
        outputs = outputs[:, :, :HIDDEN] + outputs[:, :, HIDDEN:]
        return outputs, hidden


class Attn(nn.Module):
    def __init__(self, method, hidden_size):
        super().__init__()
        self.method = method
        if method == "general":
            self.attn = nn.Linear(hidden_size, hidden_size)
        elif method == "concat":
            self.attn = nn.Linear(hidden_size * 2, hidden_size)
            self.v = nn.Parameter(torch.FloatTensor(hidden_size).normal_())

    def forward(self, hidden, encoder_outputs):
        if self.method == "dot":
            energies = torch.sum(hidden * encoder_outputs, dim=2)
        elif self.method == "general":
            energies = torch.sum(hidden * self.attn(encoder_outputs), dim=2)
        else:
            expanded = hidden.expand(encoder_outputs.size(0), -1, -1)
            energy = self.attn(torch.cat((expanded, encoder_outputs), 2)).tanh()
            energies = torch.sum(self.v * energy, dim=2)
        return F.softmax(energies.t(), dim=1).unsqueeze(1)


class LuongAttnDecoderRNN(nn.Module):
    def __init__(self, method, embedding, hidden_size, output_size):
        super().__init__()
        self.embedding = embedding
        self.embedding_dropout = nn.Dropout(0.1)
        self.gru = nn.GRU(hidden_size, hidden_size, 1)
        self.concat = nn.Linear(hidden_size * 2, hidden_size)
        self.out = nn.Linear(hidden_size, output_size)
        self.attn = Attn(method, hidden_size)

    def forward(self, input_step, last_hidden, encoder_outputs):
        embedded = self.embedding_dropout(self.embedding(input_step))
        rnn_output, hidden = self.gru(embedded, last_hidden)
        attn_weights = self.attn(rnn_output, encoder_outputs)
        context = attn_weights.bmm(encoder_outputs.transpose(0, 1))
        rnn_output, context = rnn_output.squeeze(0), context.squeeze(1)
        concat_output = torch.tanh(self.concat(torch.cat((rnn_output, context), 1)))
        return F.softmax(self.out(concat_output), dim=1), hidden


def mask_nll_loss(inp, target, mask):
    n_total = mask.sum()
    cross_entropy = -torch.log(torch.gather(inp, 1, target.view(-1, 1)).squeeze(1))
    loss = cross_entropy.masked_select(mask).mean()
    return loss, n_total.item()


def train_step(method, teacher_forcing_ratio):
    embedding = nn.Embedding(VOCAB, HIDDEN)
    encoder = EncoderRNN(HIDDEN, embedding)
    decoder = LuongAttnDecoderRNN(method, embedding, HIDDEN, VOCAB)
    enc_opt = torch.optim.Adam(encoder.parameters(), lr=1e-2)
    dec_opt = torch.optim.Adam(decoder.parameters(), lr=5e-2)
    history = []
    for _ in range(3):
        enc_opt.zero_grad()
        dec_opt.zero_grad()
        encoder_outputs, encoder_hidden = encoder(input_var, lengths)
        decoder_input = torch.LongTensor([[SOS for _ in range(len(pairs))]])
        decoder_hidden = encoder_hidden[:1]
        loss, print_losses, n_totals = 0, [], 0
        use_tf = random.random() < teacher_forcing_ratio
        for t in range(max_target_len):
            decoder_output, decoder_hidden = decoder(decoder_input, decoder_hidden, encoder_outputs)
            if use_tf:
                decoder_input = target_var[t].view(1, -1)
            else:
                _, topi = decoder_output.topk(1)
                decoder_input = torch.LongTensor([[topi[i][0] for i in range(len(pairs))]])
            mask_loss, n_total = mask_nll_loss(decoder_output, target_var[t], mask[t])
            loss += mask_loss
            print_losses.append(mask_loss.item() * n_total)
            n_totals += n_total
        loss.backward()
        nn.utils.clip_grad_norm_(encoder.parameters(), 50.0)
        nn.utils.clip_grad_norm_(decoder.parameters(), 50.0)
        enc_opt.step()
        dec_opt.step()
        history.append(round(sum(print_losses) / n_totals, 4))
    return encoder, decoder, history, use_tf


for method in ("dot", "general", "concat"):
    encoder, decoder, history, use_tf = train_step(method, 0.5)
    print(method, history, use_tf)


class GreedySearchDecoder(nn.Module):
    def __init__(self, encoder, decoder):
        super().__init__()
        self.encoder = encoder
        self.decoder = decoder

    def forward(self, input_seq, input_length, max_length):
        encoder_outputs, encoder_hidden = self.encoder(input_seq, input_length)
        decoder_hidden = encoder_hidden[:1]
        decoder_input = torch.ones(1, 1, dtype=torch.long) * SOS
        all_tokens = torch.zeros([0], dtype=torch.long)
        all_scores = torch.zeros([0])
        for _ in range(max_length):
            decoder_output, decoder_hidden = self.decoder(
                decoder_input, decoder_hidden, encoder_outputs
            )
            decoder_scores, decoder_input = torch.max(decoder_output, dim=1)
            all_tokens = torch.cat((all_tokens, decoder_input), dim=0)
            all_scores = torch.cat((all_scores, decoder_scores), dim=0)
            decoder_input = torch.unsqueeze(decoder_input, 0)
        return all_tokens, all_scores


encoder.eval()
decoder.eval()
searcher = GreedySearchDecoder(encoder, decoder)
with torch.no_grad():
    seq = torch.LongTensor([[3, 4, 5, 2]]).transpose(0, 1)
    tokens, scores = searcher(seq, torch.tensor([4]), 5)
print(tokens.tolist(), [f"{s:.4f}" for s in scores.tolist()])
out(tokens, scores)
