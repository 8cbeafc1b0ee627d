"""torch.utils.flop_counter and torch.utils.module_tracker against torch: counts per module
and op for products, convolutions (forward and backward), attention, einsum and the layers
built from them, the printed table, and the module hierarchy seen from hooks."""

from __future__ import annotations

import contextlib
import importlib
import io

import pytest

import numtorch

torch = pytest.importorskip("torch")


def _counter(lib):
    return importlib.import_module(f"{lib.__name__}.utils.flop_counter").FlopCounterMode


def _counts(counter):
    return {
        module: {str(op): n for op, n in ops.items()}
        for module, ops in counter.get_flop_counts().items()
    }


class _Programs:
    """Programs written against ``lib``; each returns nothing, the counter sees them."""

    @staticmethod
    def mlp(lib):
        nn = lib.nn

        class MLP(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc1 = nn.Linear(8, 16)
                self.act = nn.ReLU()
                self.seq = nn.Sequential(nn.Linear(16, 4), nn.Linear(4, 2, bias=False))

            def forward(self, x):
                return self.seq(self.act(self.fc1(x)))

        return MLP()


def _cases(lib):
    nn, F = lib.nn, lib.nn.functional

    def randn(*shape, grad=False):
        return lib.randn(*shape, requires_grad=grad)

    mlp = _Programs.mlp(lib)
    q, k, v = randn(2, 3, 5, 8, grad=True), randn(2, 3, 7, 8, grad=True), randn(2, 3, 7, 6)
    return {
        "mlp": lambda: mlp(randn(5, 8)).sum().backward(),
        "mlp_3d": lambda: mlp(randn(3, 5, 8)).sum().backward(),
        "mm": lambda: (randn(4, 6, grad=True) @ randn(6, 3, grad=True)).sum().backward(),
        "mm_one_grad": lambda: (randn(4, 6) @ randn(6, 3, grad=True)).sum().backward(),
        "matvec": lambda: (randn(4, 6) @ randn(6)).sum(),
        "bmm": lambda: lib.bmm(randn(2, 3, 4, grad=True), randn(2, 4, 5)).sum().backward(),
        "matmul_3d_2d": lambda: (
            (randn(2, 3, 4, grad=True) @ randn(4, 5, grad=True)).sum().backward()
        ),
        "matmul_4d": lambda: (randn(2, 2, 3, 4, grad=True) @ randn(2, 2, 4, 5)).sum().backward(),
        "baddbmm": lambda: (
            lib.baddbmm(randn(2, 3, 5), randn(2, 3, 4, grad=True), randn(2, 4, 5)).sum().backward()
        ),
        "addmm": lambda: (
            lib.addmm(randn(3, 5), randn(3, 4), randn(4, 5, grad=True)).sum().backward()
        ),
        "conv2d": lambda: (
            nn.Conv2d(3, 4, 3, padding=1)(randn(2, 3, 8, 8, grad=True)).sum().backward()
        ),
        "conv2d_weight_only": lambda: (
            nn.Conv2d(3, 4, 3, stride=2)(randn(2, 3, 8, 8)).sum().backward()
        ),
        "conv_transpose2d": lambda: (
            nn.ConvTranspose2d(3, 4, 3, stride=2)(randn(2, 3, 5, 5, grad=True)).sum().backward()
        ),
        "conv_transpose1d_groups": lambda: (
            nn.ConvTranspose1d(4, 6, 3, groups=2, stride=2, output_padding=1)(
                randn(2, 4, 5, grad=True)
            )
            .sum()
            .backward()
        ),
        "conv1d_groups": lambda: nn.Conv1d(4, 4, 3, groups=2)(randn(2, 4, 10)).sum().backward(),
        "conv3d": lambda: (
            nn.Conv3d(2, 3, 2, dilation=2)(randn(1, 2, 5, 5, 5, grad=True)).sum().backward()
        ),
        "sdpa": lambda: F.scaled_dot_product_attention(q, k, v).sum().backward(),
        "mha": lambda: (
            nn.MultiheadAttention(8, 2, batch_first=True)(
                randn(2, 5, 8), randn(2, 5, 8), randn(2, 5, 8)
            )[0]
            .sum()
            .backward()
        ),
        "gru": lambda: nn.GRU(4, 3)(randn(5, 2, 4))[0].sum().backward(),
        "transformer_layer": lambda: (
            nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True)(randn(2, 5, 8))
            .sum()
            .backward()
        ),
        "einsum_chain": lambda: (
            lib.einsum("ij,jk,kl->il", randn(3, 4, grad=True), randn(4, 5), randn(5, 6))
            .sum()
            .backward()
        ),
        "einsum_backward_sides": lambda: [
            lib.einsum(eq, *(randn(*shape, grad=g) for shape, g in zip(shapes, grads)))
            .sum()
            .backward()
            for eq, shapes, grads in (
                ("ij,jk->ik", [(3, 4), (4, 5)], [False, True]),
                ("ij,jk,kl->il", [(3, 4), (4, 5), (5, 6)], [False, False, True]),
                ("ij,jk,kl->il", [(3, 4), (4, 5), (5, 6)], [False, True, True]),
                ("bn,anm,bm->ba", [(2, 3), (4, 3, 5), (2, 5)], [True, True, True]),
                ("i,j->ij", [(4,), (3,)], [True, True]),
            )
        ],
        "einsum_forms": lambda: (
            lib.einsum("bhqd,bhkd->bhqk", randn(2, 3, 5, 8), randn(2, 3, 7, 8)),
            lib.einsum("i,j->ij", randn(4), randn(3)),
            lib.einsum("ijk,jl->il", randn(3, 4, 2), randn(4, 5)),
            lib.einsum("b...i,b...i->b...", randn(2, 3, 4), randn(2, 3, 4)),
            lib.einsum("ij,ij", randn(3, 4), randn(3, 4)),
        ),
    }


@pytest.mark.parametrize("case", sorted(_cases(numtorch)))
def test_counts_per_module_and_op_match_torch(case):
    results = []
    for lib in (numtorch, torch):
        lib.manual_seed(0)
        fn = _cases(lib)[case]
        with _counter(lib)(display=False) as counter:
            fn()
        results.append((_counts(counter), counter.get_total_flops()))
    assert results[0] == results[1]


def test_table_matches_torch():
    def printed(lib):
        lib.manual_seed(0)
        mlp, FlopCounterMode = _Programs.mlp(lib), _counter(lib)
        big = lib.nn.Sequential(lib.nn.Linear(256, 512), lib.nn.ReLU(), lib.nn.Linear(512, 10))
        x = lib.randn(5, 8)
        text = io.StringIO()
        with contextlib.redirect_stdout(text):
            with FlopCounterMode():
                pass
            with FlopCounterMode(depth=1):
                mlp(x).sum().backward()
            with FlopCounterMode() as counter:  # flops outside every module: Global shown
                mlp(x).sum().backward()
                lib.ones(4, 6) @ lib.ones(6, 3)
            with FlopCounterMode(depth=None) as counter:  # suffixes: M
                big(lib.randn(64, 256)).sum().backward()
            print(counter.get_table(1))
        return text.getvalue()

    ours = printed(numtorch)
    assert ours == printed(torch)
    assert "Global          4864    100.00%" in ours


def test_keys_print_as_torch_packets_and_mods_warns():
    FlopCounterMode = _counter(numtorch)
    with pytest.warns(UserWarning, match="mods argument is not needed"):
        counter = FlopCounterMode(numtorch.nn.Linear(2, 2), display=False)
    with counter:
        numtorch.ones(2, 3) @ numtorch.ones(3, 4)
    ((op, flops),) = counter.get_flop_counts()["Global"].items()
    assert (str(op), repr(op), flops) == ("aten.mm", "<OpOverloadPacket(op='aten.mm')>", 48)
    with counter:  # entering again starts from zero
        pass
    assert counter.get_flop_counts() == {} and counter.get_total_flops() == 0


def test_custom_mapping_replaces_a_formula():
    FlopCounterMode = _counter(numtorch)
    with FlopCounterMode(display=False, custom_mapping={"aten::mm": lambda *a, **k: 7}) as c:
        numtorch.ones(2, 3) @ numtorch.ones(3, 4)
    assert c.get_total_flops() == 7


def test_module_tracker_matches_torch():
    def trace(lib):
        nn = lib.nn
        tracker_cls = importlib.import_module(f"{lib.__name__}.utils.module_tracker").ModuleTracker
        lib.manual_seed(0)

        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.a = nn.Linear(3, 4)
                self.b = nn.Sequential(nn.ReLU(), nn.Linear(4, 2))

            def forward(self, x):
                return self.b(self.a(x))

        log, net = [], Net()

        def note(name):
            return lambda *args: log.append((name, sorted(tracker.parents), tracker.is_bw))

        with tracker_cls() as tracker:
            note("start")()
            x = lib.randn(2, 3, requires_grad=True)

            def after_a(module, args, output):
                note("a")()
                output.register_hook(note("a out"))

            def before_b1(module, args):
                note("b.1")()
                args[0].register_hook(note("b.1 in"))

            net.a.register_forward_hook(after_a)
            net.b[1].register_forward_pre_hook(before_b1)
            y = net(x)
            note("after forward")()
            y.register_hook(note("y"))
            x.register_hook(note("x"))
            y.sum().backward()
            note("after backward")()
        return log

    ours = trace(numtorch)
    assert ours == trace(torch)
    assert ("y", ["Global", "Net", "Net.b", "Net.b.1"], True) in ours
