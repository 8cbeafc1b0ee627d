# scripts probe the build before they start: version, compiler, flags
print(torch.version.cuda, torch.version.hip, torch.version.debug)
out(
    torch.compiler.is_compiling(),
    torch.compiler.is_dynamo_compiling(),
    torch.compiler.is_exporting(),
)
out(
    torch.has_lapack,
    torch.has_spectral,
    torch.compiled_with_cxx11_abi(),
    torch.is_vulkan_available(),
)
out(torch.is_distributed(torch.ones(1)), torch.init_num_threads())


@torch.compiler.disable
def eager(x):
    return x * 2


@torch.compiler.disable(recursive=False)
def eager_too(x):
    return x + 1


out(eager(torch.ones(2)), eager_too(torch.ones(2)), torch.compiler.allow_in_graph(eager) is eager)
torch.compiler.reset()
x = torch.arange(6.0).reshape(2, 3)
out(x[:, torch.newaxis].shape, torch.newaxis is None)
# ---
# the error classes programs name in except clauses
out(
    issubclass(torch.OutOfMemoryError, RuntimeError),
    torch.cuda.OutOfMemoryError is torch.OutOfMemoryError,
)
out(issubclass(torch.AcceleratorError, RuntimeError))
try:
    raise torch.cuda.OutOfMemoryError("out of memory")
except RuntimeError as e:
    print(type(e).__name__, e)
out(
    torch.GradScaler is torch.amp.GradScaler,
    torch.random.default_generator is torch.default_generator,
)
# ---
# eager meanings of the symbolic-size helpers
out(torch.sym_int(3.7), torch.sym_int(-3.7), torch.sym_int(True), torch.sym_float(3))
out(
    torch.sym_max(2, 3),
    torch.sym_max(2, 3.0),
    torch.sym_max(2.0, 1),
    torch.sym_min(2, 3),
    torch.sym_min(1.5, 3),
)
out(torch.sym_not(True), torch.sym_sqrt(4), torch.sym_ite(False, 1, 2), torch.sym_sum([1, 2, 3]))
out(isinstance(3, torch.SymInt), isinstance(3.0, torch.SymFloat), isinstance(True, torch.SymBool))
out(type(torch.sym_max(2, 3)).__name__, type(torch.sym_min(2, 3.0)).__name__)
# ---
# functions removed in favour of torch.linalg raise, naming the replacement
A = torch.eye(2)
err(lambda: torch.solve(A, A))
err(lambda: torch.lstsq(A, A))
err(lambda: torch.eig(A))
err(lambda: torch.symeig(A, eigenvectors=True))
err(lambda: torch.matrix_rank(A))
err(lambda: A.solve(A))
err(lambda: A.eig())
err(lambda: torch.solve())
try:
    torch.symeig(A)
except RuntimeError as e:
    print(e)
# ---
# frombuffer shares a writable buffer's memory
data = bytearray(b"\x01\x02\x03\x04\x05\x06\x07\x08")
t = torch.frombuffer(data, dtype=torch.int16)
data[0] = 9
out(t, torch.frombuffer(data, dtype=torch.uint8, count=3, offset=2))
out(torch.frombuffer(data, dtype=torch.float32, requires_grad=True))
out(torch.frombuffer(b"abcd", dtype=torch.uint8))
for bad in (
    lambda: torch.frombuffer(b"", dtype=torch.uint8),
    lambda: torch.frombuffer(data, dtype=torch.int32, offset=3),
    lambda: torch.frombuffer(data, dtype=torch.int32, count=3),
    lambda: torch.frombuffer(b"abc", dtype=torch.int16),
    lambda: torch.frombuffer([1, 2], dtype=torch.uint8),
    lambda: torch.frombuffer(data, dtype=torch.uint8, offset=9),
    lambda: torch.frombuffer(data, dtype=torch.uint8, count=0),
    lambda: torch.frombuffer(data),
):
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
# ---
# DLPack: tensors from NumPy arrays and capsules, sharing memory
a = np.arange(3.0)
t = torch.from_dlpack(a)
a[0] = 5
out(t)
out(torch.from_dlpack(torch.to_dlpack(torch.ones(2))))
out(torch.from_dlpack(torch.arange(4).reshape(2, 2)))
b = np.from_dlpack(torch.arange(3.0))
print(b, b.dtype)
err(lambda: torch.from_dlpack([1, 2]))
err(lambda: np.from_dlpack(torch.ones(2, requires_grad=True)))
# ---
# the annotation aliases of torch.types and torch.nn.common_types
import importlib

common = importlib.import_module(torch.__name__ + ".nn.common_types")
types = importlib.import_module(torch.__name__ + ".types")
print(common._size_2_t, common._ratio_any_t == float | tuple[float, ...])
out(torch.nn.common_types is common, types.Number == int | float | bool)


class Blur(nn.Module):
    def __init__(self, kernel_size: common._size_2_t = 3, device: types.Device = None):
        super().__init__()
        self.pool = nn.AvgPool2d(kernel_size, stride=1)

    def forward(self, x):
        return self.pool(x)


out(Blur((3, 3))(torch.arange(16.0).reshape(1, 1, 4, 4)))
