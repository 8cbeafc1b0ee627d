# Set Transformer: MAB/SAB/ISAB with inducing points, PMA pooling, permutation invariance
import math


class MAB(nn.Module):
    def __init__(self, dim_Q, dim_K, dim_V, num_heads, ln=False):
        super().__init__()
        self.dim_V, self.num_heads = dim_V, num_heads
        self.fc_q = nn.Linear(dim_Q, dim_V)
        self.fc_k = nn.Linear(dim_K, dim_V)
        self.fc_v = nn.Linear(dim_K, dim_V)
        if ln:
            self.ln0 = nn.LayerNorm(dim_V)
            self.ln1 = nn.LayerNorm(dim_V)
        self.fc_o = nn.Linear(dim_V, dim_V)

    def forward(self, Q, K):
        Q = self.fc_q(Q)
        K, V = self.fc_k(K), self.fc_v(K)
        dim_split = self.dim_V // self.num_heads
        Q_ = torch.cat(Q.split(dim_split, 2), 0)
        K_ = torch.cat(K.split(dim_split, 2), 0)
        V_ = torch.cat(V.split(dim_split, 2), 0)
        A = torch.softmax(Q_.bmm(K_.transpose(1, 2)) / math.sqrt(self.dim_V), 2)
        O = torch.cat((Q_ + A.bmm(V_)).split(Q.size(0), 0), 2)  # noqa: E741
        O = O if getattr(self, "ln0", None) is None else self.ln0(O)  # noqa: E741
        O = O + F.relu(self.fc_o(O))  # noqa: E741
        O = O if getattr(self, "ln1", None) is None else self.ln1(O)  # noqa: E741
        return O


class SAB(nn.Module):
    def __init__(self, dim_in, dim_out, num_heads, ln=False):
        super().__init__()
        self.mab = MAB(dim_in, dim_in, dim_out, num_heads, ln=ln)

    def forward(self, X):
        return self.mab(X, X)


class ISAB(nn.Module):
    def __init__(self, dim_in, dim_out, num_heads, num_inds, ln=False):
        super().__init__()
        self.I = nn.Parameter(torch.Tensor(1, num_inds, dim_out))
        nn.init.xavier_uniform_(self.I)
        self.mab0 = MAB(dim_out, dim_in, dim_out, num_heads, ln=ln)
        self.mab1 = MAB(dim_in, dim_out, dim_out, num_heads, ln=ln)

    def forward(self, X):
        H = self.mab0(self.I.repeat(X.size(0), 1, 1), X)
        return self.mab1(X, H)


class PMA(nn.Module):
    def __init__(self, dim, num_heads, num_seeds, ln=False):
        super().__init__()
        self.S = nn.Parameter(torch.Tensor(1, num_seeds, dim))
        nn.init.xavier_uniform_(self.S)
        self.mab = MAB(dim, dim, dim, num_heads, ln=ln)

    def forward(self, X):
        return self.mab(self.S.repeat(X.size(0), 1, 1), X)


torch.manual_seed(0)
model = nn.Sequential(
    ISAB(2, 16, 4, 4, ln=True),
    ISAB(16, 16, 4, 4, ln=True),
    PMA(16, 4, 1, ln=True),
    SAB(16, 16, 4),
    nn.Linear(16, 1),
)
print(model[0].I.shape, model[2].S.shape, hasattr(model[3].mab, "ln0"))
X = torch.randn(3, 10, 2)
y = X.max(dim=1).values.sum(-1, keepdim=True)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for step in range(3):
    pred = model(X).squeeze(-1)
    loss = F.l1_loss(pred, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} l1 {loss.item():.5f}")
perm = torch.randperm(10)
with torch.no_grad():
    a, b = model(X), model(X[:, perm])
print(torch.allclose(a, b, atol=1e-5), a.shape)
out(a, model[0].I.grad)
print(torch.Tensor(2, 3).shape, torch.Tensor([1, 2]).dtype, torch.LongTensor([1, 2]).dtype)
