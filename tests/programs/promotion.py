# binary ops: every dtype against Python numbers (incl. out-of-range ints and bools), both sides
import operator

dtypes = [
    torch.bool,
    torch.uint8,
    torch.int8,
    torch.int16,
    torch.int32,
    torch.int64,
    torch.float16,
    torch.float32,
    torch.float64,
]


def make(dtype, zero_dim=False):
    values = {torch.bool: [True, False, True], torch.uint8: [200, 3, 0]}.get(
        dtype, [-2.5, 3.0, 0.5] if dtype.is_floating_point else [-3, 5, 0]
    )
    t = torch.tensor(values, dtype=dtype)
    return t[1] if zero_dim else t


ops = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "/": operator.truediv,
    "//": operator.floordiv,
    "%": operator.mod,
    "**": operator.pow,
    "<": operator.lt,
    "==": operator.eq,
    "&": operator.and_,
    "|": operator.or_,
}
functions = {
    "maximum": torch.maximum,
    "fmod": torch.fmod,
    "remainder": torch.remainder,
    "add_alpha": lambda a, b: torch.add(a, b, alpha=2),
    "sub_alpha": lambda a, b: torch.sub(a, b, alpha=2),
    "div_floor": lambda a, b: torch.div(a, b, rounding_mode="floor"),
    "div_trunc": lambda a, b: torch.div(a, b, rounding_mode="trunc"),
    "where": lambda a, b: torch.where(torch.tensor([True, False, True]), a, b),
}
for name, op in {**ops, **functions}.items():
    for dtype in dtypes:
        a = make(dtype)
        for number in [2, -3, 2.5, True, False, 300, 2**40, -0.5, 0]:
            err(lambda: op(a, number))
            if name in ops or name == "remainder":
                err(lambda: op(number, a))
# ---
# binary ops: every pair of dtypes, n-d with 0-d (0-d tensors do not lead promotion) and n-d
import operator

dtypes = [
    torch.bool,
    torch.uint8,
    torch.int8,
    torch.int16,
    torch.int32,
    torch.int64,
    torch.float16,
    torch.float32,
    torch.float64,
]


def make(dtype, zero_dim=False):
    values = {torch.bool: [True, False, True], torch.uint8: [200, 3, 0]}.get(
        dtype, [-2.5, 3.0, 0.5] if dtype.is_floating_point else [-3, 5, 0]
    )
    t = torch.tensor(values, dtype=dtype)
    return t[1] if zero_dim else t


ops = [
    operator.add,
    operator.sub,
    operator.mul,
    operator.truediv,
    operator.floordiv,
    operator.mod,
    operator.pow,
    operator.lt,
    operator.and_,
    torch.maximum,
    torch.atan2,
    torch.fmod,
    lambda a, b: torch.add(a, b, alpha=2),
    lambda a, b: torch.where(torch.tensor([True, False, True]), a, b),
]
for op in ops:
    for first in dtypes:
        for second in dtypes:
            a, b = make(first), make(second)
            err(lambda: op(a, make(second, True)))
            err(lambda: op(make(second, True), a))
            err(lambda: op(a, b))
# ---
# in-place arithmetic: wrapped ints, casts into self, bool subtraction
x = torch.tensor([200, 3, 0], dtype=torch.uint8)
x += 300
out(x)
x -= -3
out(x)
y = torch.tensor([1, 2], dtype=torch.int8)
y *= 2**40 + 3
out(y)
err(lambda: y.sub_(True))
err(lambda: torch.tensor([True]).sub_(torch.tensor([True])))
err(lambda: y.pow_(300))
out(y.add_(True), y.mul_(False))
print(torch.tensor([1, 2]) % torch.tensor(-3.0), -7 % torch.tensor([2, -3]))
print(torch.tensor([-3.0, 3.0, 0.0]) % 3.0, torch.tensor([-3.0, 3.0, -0.0]) % -3.0)
print(torch.tensor([1, -1, 2, 0]) ** torch.tensor([-2, -3, -1, -1]), 2 ** torch.tensor([-1, 2]))
# ---
# tensor-tensor type promotion: dims vs 0-d categories
dts = [
    torch.bool,
    torch.uint8,
    torch.int8,
    torch.int32,
    torch.int64,
    torch.float16,
    torch.float32,
    torch.float64,
]
res = []
for a in dts:
    for b in dts:
        ta = torch.ones(2, dtype=a)
        tb = torch.ones((), dtype=b)
        res.append(
            (
                str(a),
                str(b),
                str((ta + tb).dtype),
                str((ta * tb).dtype),
                str(torch.result_type(ta, tb)),
                str(torch.promote_types(a, b)),
            )
        )
out(res)
out(
    str(torch.cat([torch.ones(1, dtype=torch.int8), torch.ones(1, dtype=torch.float16)]).dtype),
    str(torch.stack([torch.ones(1, dtype=torch.uint8), torch.ones(1, dtype=torch.int8)]).dtype),
)
out(
    str(
        torch.where(
            torch.tensor([True]),
            torch.ones(1, dtype=torch.int32),
            torch.ones(1, dtype=torch.float16),
        ).dtype
    )
)
out(
    str(
        torch.where(
            torch.tensor([True]),
            torch.ones(1, dtype=torch.float16),
            torch.tensor(1.0, dtype=torch.float64),
        ).dtype
    )
)
out(str(torch.maximum(torch.ones(1, dtype=torch.int64), torch.ones(1, dtype=torch.float16)).dtype))
out(
    str((torch.ones(1, dtype=torch.int32) / torch.ones(1, dtype=torch.int32)).dtype),
    str((torch.ones(1, dtype=torch.float16) / torch.ones((), dtype=torch.float64)).dtype),
)
out(str((torch.ones(1, dtype=torch.uint8) - torch.ones(1, dtype=torch.int8)).dtype))
err(lambda: torch.ones(1, dtype=torch.bool) - torch.ones(1, dtype=torch.bool))
out(str((torch.ones(2, dtype=torch.int16) ** torch.ones((), dtype=torch.float32)).dtype))
