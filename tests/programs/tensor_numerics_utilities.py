# numerics helpers: frexp/ldexp, nextafter, copysign, hypot, logaddexp, float_power, finfo
x = torch.tensor([0.0, 1.5, -3.25, 1e-40, 6e4])
m, e = torch.frexp(x)
print(m, e, e.dtype)
print(torch.ldexp(m, e), torch.equal(torch.ldexp(m, e), x))
print(
    torch.nextafter(torch.tensor([1.0, 0.0]), torch.tensor([2.0, -1.0])) - torch.tensor([1.0, 0.0])
)
print(torch.copysign(torch.tensor([1.0, 2.0, 0.0]), torch.tensor([-0.0, 1.0, -1.0])))
print(torch.hypot(torch.tensor([3.0, 1e20]), torch.tensor([4.0, 1e20])))
print(
    torch.logaddexp(torch.tensor([1000.0, -1000.0]), torch.tensor([1000.0, -999.0])),
    torch.logaddexp2(torch.tensor(3.0), torch.tensor(3.0)),
)
print(
    torch.float_power(torch.tensor([2, 3]), 0.5),
    torch.float_power(torch.tensor([2.0]), torch.tensor([3])).dtype,
)
print(
    torch.nan_to_num(
        torch.tensor([float("nan"), float("inf"), -float("inf"), 1.0]), nan=0.0, posinf=1e3
    )
)
fi = torch.finfo(torch.float32)
print(
    fi.eps,
    fi.tiny,
    fi.max,
    fi.resolution,
    fi.bits,
    torch.finfo(torch.bfloat16).eps,
    torch.iinfo(torch.int16).max,
)
print(torch.finfo().dtype, torch.finfo(torch.float16))
print(
    torch.isclose(
        torch.tensor([1.0, 1.0001, float("nan")]),
        torch.tensor([1.0, 1.0, float("nan")]),
        equal_nan=True,
    )
)
print(
    torch.signbit(torch.tensor([-0.0, 0.0, -1.0])),
    torch.isfinite(torch.tensor([1.0, float("inf")])),
    torch.isneginf(torch.tensor(-float("inf"))),
)
print(
    torch.fmod(torch.tensor([-3.0, 3.0]), 2),
    torch.remainder(torch.tensor([-3.0, 3.0]), 2),
    torch.fmod(torch.tensor([-7, 7]), 3),
)
print(
    torch.trunc(torch.tensor([-1.7, 1.7])),
    torch.frac(torch.tensor([-1.7, 1.7])),
    torch.round(torch.tensor([0.5, 1.5, 2.5, -0.5])),
)
print(
    torch.round(torch.tensor([1.2345, -9.8765]), decimals=2),
    torch.clamp(torch.tensor([1, 5, 9]), min=torch.tensor([2, 2, 2]), max=torch.tensor(6)),
)
err(lambda: torch.clamp(torch.tensor([1, 5, 9]), min=torch.tensor([2, 2, 2]), max=6))
print(
    torch.diff(torch.tensor([1, 4, 9, 16]), n=2),
    torch.diff(torch.tensor([1.0, 2.0]), prepend=torch.tensor([0.0]), append=torch.tensor([5.0])),
)
print(
    torch.kron(torch.eye(2), torch.tensor([[1, 2], [3, 4]])),
    torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4])),
)
print(
    torch.combinations(torch.tensor([1, 2, 3]), r=2),
    torch.combinations(torch.tensor([1, 2]), with_replacement=True),
)
print(torch.tensordot(torch.arange(6.0).reshape(2, 3), torch.arange(12.0).reshape(3, 4), dims=1))
print(torch.linalg.multi_dot([torch.ones(2, 3), torch.ones(3, 4), torch.ones(4, 1)]).squeeze())
print(
    torch.aminmax(torch.tensor([[3, 1], [0, 7]]), dim=0), torch.aminmax(torch.tensor([2.0, -1.0]))
)
print(
    torch.histogram(
        torch.tensor([1.0, 2.0, 1.0, 4.0]),
        bins=torch.tensor([0.0, 1.5, 3.0, 5.0]),
        weight=torch.tensor([1.0, 2.0, 0.5, 1.0]),
    )
)
print(
    torch.gcd(torch.tensor([12, 18]), torch.tensor([8, 27])),
    torch.lcm(torch.tensor([4, 6]), torch.tensor([6, 8])),
)
print(
    torch.count_nonzero(torch.tensor([[0, 1], [2, 0]]), dim=0),
    torch.heaviside(torch.tensor([-1.0, 0.0, 2.0]), torch.tensor(0.5)),
)
out(
    m,
    e,
    torch.nextafter(torch.tensor(1.0), torch.tensor(2.0)),
    torch.logaddexp(torch.tensor(1.0), torch.tensor(2.0)),
)
# ---
# tensorsolve/tensorinv, linalg.vander, linalg.cross, linalg.diagonal, einsum contractions
torch.manual_seed(2)
torch.set_default_dtype(torch.float64)
A = torch.randn(2, 3, 6)
B = torch.randn(2, 3)
X = torch.linalg.tensorsolve(A, B)
print(X.shape, torch.allclose(torch.tensordot(A, X, dims=X.ndim), B))
Ainv = torch.linalg.tensorinv(torch.randn(4, 6, 8, 3), ind=2)
print(Ainv.shape)
print(
    torch.linalg.vander(torch.tensor([1.0, 2.0, 3.0])),
    torch.linalg.vander(torch.tensor([1.0, 2.0]), N=4),
)
print(
    torch.linalg.cross(torch.tensor([1.0, 0.0, 0.0]), torch.tensor([0.0, 1.0, 0.0])),
    torch.cross(torch.eye(3), torch.ones(3, 3), dim=1),
)
M = torch.arange(24.0).reshape(2, 3, 4)
print(torch.linalg.diagonal(M), torch.linalg.diagonal(M, offset=1, dim1=-1, dim2=-2))
a, b, c = torch.randn(3, 4), torch.randn(4, 5), torch.randn(5)
print(torch.allclose(torch.einsum("ij,jk,k->i", a, b, c), a @ b @ c))
print(
    torch.einsum("ii->i", torch.arange(9.0).reshape(3, 3)),
    torch.einsum("i,j->ij", torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0, 5.0])),
)
print(torch.einsum("bij,bjk->bik", torch.ones(2, 2, 3), torch.ones(2, 3, 1)).squeeze(-1))
print(torch.einsum("...ij->...ji", M).shape, torch.einsum(a, [0, 1], b, [1, 2], [0, 2]).shape)
T = torch.randn(3, 3, 3)
sym = (
    T
    + T.permute(1, 0, 2)
    + T.permute(2, 1, 0)
    + T.permute(0, 2, 1)
    + T.permute(1, 2, 0)
    + T.permute(2, 0, 1)
) / 6
print(torch.allclose(sym, sym.transpose(0, 1)), torch.einsum("iii->", sym))
out(
    X,
    Ainv.sum(),
    torch.linalg.vander(torch.tensor([1.0, 2.0]), N=4),
    torch.einsum("ijk,k->ij", sym, torch.ones(3)),
)
torch.set_default_dtype(torch.float32)
