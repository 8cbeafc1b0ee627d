# time-sequence prediction: two LSTMCells in double precision fitted with LBFGS and a closure
T, L, N = 20, 30, 6
x = np.empty((N, L), np.int64)
x[:] = np.array(range(L)) + np.arange(N).reshape(N, 1) * 4
data = np.sin(x / 1.0 / T).astype("float64")
input = torch.from_numpy(data[2:, :-1])
target = torch.from_numpy(data[2:, 1:])
test_input = torch.from_numpy(data[:2, :-1])
test_target = torch.from_numpy(data[:2, 1:])


class Sequence(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm1 = nn.LSTMCell(1, 8)
        self.lstm2 = nn.LSTMCell(8, 8)
        self.linear = nn.Linear(8, 1)

    def forward(self, input, future=0):
        outputs = []
        h_t = torch.zeros(input.size(0), 8, dtype=torch.double)
        c_t = torch.zeros(input.size(0), 8, dtype=torch.double)
        h_t2 = torch.zeros(input.size(0), 8, dtype=torch.double)
        c_t2 = torch.zeros(input.size(0), 8, dtype=torch.double)
        for input_t in input.split(1, dim=1):
            h_t, c_t = self.lstm1(input_t, (h_t, c_t))
            h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
            output = self.linear(h_t2)
            outputs += [output]
        for _ in range(future):
            h_t, c_t = self.lstm1(output, (h_t, c_t))
            h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
            output = self.linear(h_t2)
            outputs += [output]
        return torch.cat(outputs, dim=1)


seq = Sequence()
seq.double()
rng = np.random.default_rng(4)
with torch.no_grad():
    for p in seq.parameters():
        p.copy_(torch.from_numpy(rng.uniform(-0.35, 0.35, tuple(p.shape))))
criterion = nn.MSELoss()
optimizer = torch.optim.LBFGS(seq.parameters(), lr=0.8)
losses = []
for i in range(3):

    def closure():
        optimizer.zero_grad()
        out = seq(input)
        loss = criterion(out, target)
        losses.append(loss.item())
        loss.backward()
        return loss

    returned = optimizer.step(closure)
    out(i, returned)
    with torch.no_grad():
        future = 5
        pred = seq(test_input, future=future)
        loss = criterion(pred[:, :-future], test_target)
        out(loss, pred[:, -future:])
out(len(losses), losses)
# LBFGS keeps its whole state under the first parameter
state = optimizer.state[seq.lstm1.weight_ih]
out(sorted(state.keys()), state["n_iter"], state["func_evals"], len(state["old_dirs"]))
out(list(optimizer.state_dict()["state"].keys()), state["d"], state["t"])
