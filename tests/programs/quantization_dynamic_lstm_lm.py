# dynamic quantization tutorial: an LSTM word language model quantized to int8, sizes and outputs
import io

torch.manual_seed(0)


class LSTMModel(nn.Module):
    def __init__(self, ntoken, ninp, nhid, nlayers, dropout=0.5):
        super().__init__()
        self.drop = nn.Dropout(dropout)
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = nn.LSTM(ninp, nhid, nlayers, dropout=dropout)
        self.decoder = nn.Linear(nhid, ntoken)
        self.init_weights()
        self.nhid = nhid
        self.nlayers = nlayers

    def init_weights(self):
        initrange = 0.1
        self.encoder.weight.data.uniform_(-initrange, initrange)
        self.decoder.bias.data.zero_()
        self.decoder.weight.data.uniform_(-initrange, initrange)

    def forward(self, input, hidden):
        emb = self.drop(self.encoder(input))
        output, hidden = self.rnn(emb, hidden)
        output = self.drop(output)
        decoded = self.decoder(output)
        return decoded, hidden

    def init_hidden(self, bsz):
        weight = next(self.parameters())
        return (
            weight.new_zeros(self.nlayers, bsz, self.nhid),
            weight.new_zeros(self.nlayers, bsz, self.nhid),
        )


model = LSTMModel(ntoken=50, ninp=16, nhid=32, nlayers=2)
model.eval()
print(model)
quantized_model = torch.ao.quantization.quantize_dynamic(
    model, {nn.LSTM, nn.Linear}, dtype=torch.qint8
)
print(quantized_model)


def print_size_of_model(model):
    buffer = io.BytesIO()
    torch.save(model.state_dict(), buffer)
    return buffer.getbuffer().nbytes


print(f"Size (MB): {print_size_of_model(model) / 1e6:.2f}")
linear_only = torch.ao.quantization.quantize_dynamic(model, {nn.Linear}, dtype=torch.qint8)
print(print_size_of_model(model) > print_size_of_model(linear_only))
data = torch.randint(0, 50, (7, 3))
hidden = model.init_hidden(3)
with torch.no_grad():
    out_fp, (h_fp, c_fp) = model(data, hidden)
    out_q, (h_q, c_q) = quantized_model(data, hidden)
print(out_fp.shape, out_q.shape, h_q.shape)
print((out_fp - out_q).abs().max().item() < 0.05)
print(type(quantized_model.decoder).__name__, type(quantized_model.rnn).__name__)
print(quantized_model.decoder.weight().dtype, quantized_model.decoder.weight().qscheme())
out(out_fp[0, 0, :5])
