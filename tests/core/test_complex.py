"""Complex tensors and complex autograd: parity with torch for the complex API
(``real``/``imag``/``conj``/``angle``/``abs``, ``view_as_real``/``view_as_complex``,
``complex``, ``polar``) and the conjugate Wirtinger gradients of real losses."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import numtorch

Z = np.array([1 + 2j, -0.5 + 0.25j, 3 - 1j, 0.0 + 0.0j])
A = np.array([0.5, -1.5, 2.0, 0.25])
B = np.array([1.0, 0.5, -2.0, 3.0])

# each program maps (lib, z, a, b) -> a real scalar loss; z is complex, a and b real leaves
PROGRAMS = {
    "abs_squared": lambda lib, z, a, b: (z.abs() ** 2).sum(),
    "abs": lambda lib, z, a, b: z[:3].abs().sum(),
    "angle": lambda lib, z, a, b: (z[:3].angle() * a[:3]).sum(),
    "real_imag": lambda lib, z, a, b: (z.real * a + z.imag * b).sum(),
    "conj_product": lambda lib, z, a, b: (z * z.conj()).real.mean(),
    "mul_complex": lambda lib, z, a, b: ((z * (2 - 1j)) * z).imag.sum(),
    "div": lambda lib, z, a, b: (z[:3] / (z[:3] + 1j)).real.sum(),
    "exp_log": lambda lib, z, a, b: (z[:3].exp() + z[:3].log()).imag.sum(),
    "view_as_real": lambda lib, z, a, b: (lib.view_as_real(z) * lib.stack([a, b], -1)).sum(),
    "complex": lambda lib, z, a, b: (lib.complex(a, b) * z).abs().sum(),
    "polar": lambda lib, z, a, b: (lib.polar(a.abs() + 1, b) * z).real.sum(),
    # vdot conjugates its first vector (dot does not)
    "vdot": lambda lib, z, a, b: lib.vdot(z, z * (1 - 2j) + a).abs(),
    "view_as_complex": lambda lib, z, a, b: lib.view_as_complex(lib.stack([a, b], -1)).abs().sum(),
    "to_complex": lambda lib, z, a, b: (a.to(lib.complex128) * z).imag.sum(),
    "real_mixed": lambda lib, z, a, b: (a * z + b).sum().real,
    "sgn": lambda lib, z, a, b: (z[:3].sgn() * (1 + 2j)).real.sum(),
    "reciprocal": lambda lib, z, a, b: (1 / z[:3]).imag.sum(),
    "pow_sqrt": lambda lib, z, a, b: (z[:3] ** 2 + (z[:3] + 2).sqrt() * 1.5j).real.sum(),
    "matmul": lambda lib, z, a, b: (z[None, :] @ (z.conj() * (1 + 1j))[:, None]).abs().sum(),
    "mv_dot": lambda lib, z, a, b: (
        lib.outer(z, z).mv(lib.complex(a, b)).real.sum() + lib.dot(z, z * 1j).imag
    ),
}


def _run(lib, name):
    z = lib.tensor(Z, requires_grad=True)
    a = lib.tensor(A, requires_grad=True)
    b = lib.tensor(B, requires_grad=True)
    loss = PROGRAMS[name](lib, z, a, b)
    loss.backward()
    return loss, [t.grad for t in (z, a, b)]


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_gradients_match_torch(name):
    torch = pytest.importorskip("torch")
    our_loss, our_grads = _run(numtorch, name)
    their_loss, their_grads = _run(torch, name)
    assert type(our_loss.grad_fn).__name__ == type(their_loss.grad_fn).__name__
    np.testing.assert_allclose(our_loss.item(), their_loss.item(), rtol=1e-12)
    for ours, theirs in zip(our_grads, their_grads):
        assert (ours is None) == (theirs is None)
        if theirs is not None:
            assert ours.dtype == getattr(numtorch, str(theirs.dtype).split(".")[1])
            np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-12, atol=1e-15)


def test_gradient_of_squared_modulus_is_twice_z():
    z = numtorch.tensor([1 + 2j, -3 + 0.5j], requires_grad=True)
    (z.abs() ** 2).sum().backward()
    np.testing.assert_allclose(z.grad.numpy(), 2 * z.detach().numpy())


NODES = {
    "real": lambda lib, z: z.real,
    "imag": lambda lib, z: z.imag,
    "conj": lambda lib, z: z.conj(),
    "conj_of_conj": lambda lib, z: z.conj().conj(),  # the second conj clears the flag
    "conj_of_conj_view": lambda lib, z: lib.conj(z.conj()[1:]),
    "view_of_conj": lambda lib, z: z.conj()[1:].unsqueeze(0).mT,  # complex views keep the flag
    "conj_physical": lambda lib, z: lib.conj_physical(z),
    "angle": lambda lib, z: z.angle(),
    "abs": lambda lib, z: z.abs(),
    "view_as_real": lambda lib, z: lib.view_as_real(z),
    "resolve_conj": lambda lib, z: z.conj().resolve_conj(),
    "mul": lambda lib, z: z * 1j,
}


@pytest.mark.parametrize("name", sorted(NODES))
def test_values_and_nodes_match_torch(name):
    torch = pytest.importorskip("torch")
    results = []
    for lib in (numtorch, torch):
        z = lib.tensor(Z, dtype=lib.complex64, requires_grad=True)
        out = NODES[name](lib, z)
        results.append(
            (out.detach().resolve_conj().numpy(), str(out.dtype), type(out.grad_fn).__name__)
        )
        results[-1] += (out.is_conj(),)
    assert results[0][1:] == results[1][1:]
    np.testing.assert_allclose(results[0][0], results[1][0], rtol=1e-6)


def _changed_in_place(lib, z, a, b):
    w = z * 1
    lib.view_as_real(w).mul_(lib.stack([a, b], -1))  # CopySlices on a complex base
    w[:2].copy_(a[:2] * 3)  # a real source into a complex view
    return (w * (1 + 2j)).abs().sum()


def test_inplace_through_a_view_of_a_complex_tensor_matches_torch_with_create_graph():
    torch = pytest.importorskip("torch")

    def grads(lib):
        leaves = [lib.tensor(v, requires_grad=True) for v in (Z[:3] + 0.5, A[:3], B[:3])]
        firsts = lib.autograd.grad(_changed_in_place(lib, *leaves), leaves, create_graph=True)
        seconds = lib.autograd.grad(sum(g.abs().sum() for g in firsts), leaves)
        return [g.detach().numpy() for g in firsts + seconds]

    for ours, theirs in zip(grads(numtorch), grads(torch)):
        np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-15)


def test_real_and_imag_are_views():
    z = numtorch.tensor([1 + 2j, 3 - 1j])
    z.real.mul_(10)
    z.imag[0] = -7
    np.testing.assert_array_equal(z.numpy(), [10 - 7j, 30 - 1j])
    assert numtorch.view_as_real(z)._base is z


ERRORS = {
    "imag_of_real": lambda lib: lib.ones(2).imag,
    "view_as_real_of_real": lambda lib: lib.view_as_real(lib.ones(2)),
    "view_as_real_of_conj": lambda lib: lib.view_as_real(lib.ones(2, dtype=lib.complex64).conj()),
    "view_as_complex_size": lambda lib: lib.view_as_complex(lib.ones(3)),
    "view_as_complex_dtype": lambda lib: lib.view_as_complex(lib.ones(2, 2, dtype=lib.long)),
    "view_as_complex_stride": lambda lib: lib.view_as_complex(lib.ones(3, 3)[:, 1:]),
    "complex_dtypes": lambda lib: lib.complex(lib.ones(2), lib.ones(2, dtype=lib.float64)),
    "complex_ints": lambda lib: lib.complex(lib.ones(2).long(), lib.ones(2).long()),
    "complex_shapes": lambda lib: lib.complex(lib.ones(2), lib.ones(3)),
    "polar_dtypes": lambda lib: lib.polar(lib.ones(2), lib.ones(2, dtype=lib.float64)),
    "backward_of_complex": lambda lib: (
        (lib.ones(2, dtype=lib.complex64, requires_grad=True) * 2).sum().backward()
    ),
    "int_requires_grad": lambda lib: lib.ones(2, dtype=lib.long).requires_grad_(),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_errors_match_torch(name):
    torch = pytest.importorskip("torch")
    with pytest.raises(Exception) as theirs:
        ERRORS[name](torch)
    with pytest.raises(type(theirs.value)) as ours:
        ERRORS[name](numtorch)
    if name != "int_requires_grad":
        assert str(ours.value) == str(theirs.value)


def test_op_without_complex_formula_refuses_at_the_forward():
    z = numtorch.tensor([[3 + 0j, 0.5 - 1j], [0.5 + 1j, 2 + 0j]], requires_grad=True)
    with pytest.raises(NotImplementedError, match="derivative of linalg_ldl_factor_ex for comp"):
        numtorch.linalg.ldl_factor(z)
    with numtorch.no_grad():
        assert numtorch.linalg.ldl_factor(z).LD.grad_fn is None
    assert numtorch.linalg.ldl_factor(z.detach()).LD.grad_fn is None


def test_cast_to_real_warns_as_torch_and_keeps_real_part():
    z = numtorch.tensor([1 + 2j, 3 - 1j], requires_grad=True)
    with pytest.warns(UserWarning, match="discards the imaginary part"):
        x = z.to(numtorch.float32)
    np.testing.assert_array_equal(x.detach().numpy(), [1, 3])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        (x * 2).sum().backward()  # the backward cast from real to complex is silent
    np.testing.assert_array_equal(z.grad.numpy(), [2, 2])


def test_cast_to_bool_reads_both_parts_without_warning():
    z = numtorch.tensor([-0.0 - 0.96j, 0j, 0.5 + 0j, complex(0, float("nan"))])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for cast in (z.bool(), z.to(numtorch.bool), z.type(numtorch.bool)):
            assert cast.tolist() == [True, False, True, True]
    assert numtorch.where(z.bool(), 1, 300).tolist() == [1, 300, 1, 1]


def test_randn_complex_has_unit_variance():
    numtorch.manual_seed(0)
    z = numtorch.randn(20000, dtype=numtorch.complex64)
    assert z.dtype == numtorch.complex64
    assert abs(z.real.var().item() - 0.5) < 0.03 and abs(z.imag.var().item() - 0.5) < 0.03


def test_gradcheck_takes_complex_inputs_and_outputs():
    z = numtorch.tensor(Z[:3] + 0.5, requires_grad=True)
    x = numtorch.tensor(A, requires_grad=True)
    for fn in (numtorch.fft.fft, lambda a: a * a.conj(), lambda a: a.exp() / (a + 3)):
        assert numtorch.autograd.gradcheck(fn, (z,))
        assert numtorch.autograd.gradgradcheck(fn, (z,))
    assert numtorch.autograd.gradcheck(numtorch.fft.rfft, (x,))
    assert numtorch.autograd.gradgradcheck(numtorch.fft.rfft, (x,))


class _SquareWithoutConjugate(numtorch.autograd.Function):
    @staticmethod
    def forward(ctx, z):
        ctx.save_for_backward(z)
        return z * z

    @staticmethod
    def backward(ctx, grad):
        (z,) = ctx.saved_tensors
        return 2 * grad * z  # wrong: the conjugate Wirtinger gradient is 2 * grad * conj(z)


class _Square(_SquareWithoutConjugate):
    @staticmethod
    def backward(ctx, grad):
        (z,) = ctx.saved_tensors
        return 2 * grad * z.conj()


def test_gradcheck_catches_a_missing_conjugate():
    z = numtorch.tensor([1 + 2j, -0.5 + 1j], dtype=numtorch.complex128, requires_grad=True)
    assert numtorch.autograd.gradcheck(_Square.apply, (z,))
    with pytest.raises(RuntimeError, match="Jacobian mismatch"):
        numtorch.autograd.gradcheck(_SquareWithoutConjugate.apply, (z,))


PROMOTIONS = [
    ("float32", 1j),
    ("float64", 1j),
    ("int64", 1j),
    ("float32", "complex128-0d"),
    ("float64", "complex64-0d"),
    ("int64", "complex128-0d"),
    ("complex64", 2.0),
    ("complex64", "float64"),
    ("float32-0d", 1j),
]


def _operand(lib, spec):
    if not isinstance(spec, str):
        return spec
    name, _, zero_dim = spec.partition("-")
    dtype = getattr(lib, name)
    return lib.ones((), dtype=dtype) if zero_dim else lib.ones(2, dtype=dtype)


@pytest.mark.parametrize("a, b", PROMOTIONS)
def test_complex_promotion_matches_torch(a, b):
    def run(lib):
        x, y = _operand(lib, a), _operand(lib, b)
        return str(lib.result_type(x, y)), str((x * y).dtype), str((y + x).dtype)

    torch = pytest.importorskip("torch")
    assert run(numtorch) == run(torch)


def test_phase_rotation_program_matches_torch():
    def run(lib):
        theta = lib.tensor([0.1, 0.7, -1.2], requires_grad=True)
        r = lib.tensor([1.0, 2.0, 0.5], requires_grad=True)
        z = r * lib.exp(1j * theta)
        x = lib.fft.ifft(lib.fft.fft(z) * lib.tensor([1.0, 0.5, 0.25]))
        loss = (x.real**2 + x.imag**2).sum() + lib.angle(z).sum() + lib.abs(z).mean()
        loss.backward()
        return loss.item(), theta.grad.numpy(), r.grad.numpy(), str(z.dtype)

    torch = pytest.importorskip("torch")
    ours, theirs = run(numtorch), run(torch)
    assert ours[3] == theirs[3]
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-5)
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ours[2], theirs[2], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_dist_of_complex_tensors_is_real(dtype):
    # the norm of a complex difference: torch returns the real dtype of the same precision
    torch = pytest.importorskip("torch")
    values = [Z, Z[::-1] * 2]
    ours = numtorch.dist(*[numtorch.tensor(v, dtype=getattr(numtorch, dtype)) for v in values])
    theirs = torch.dist(*[torch.tensor(v, dtype=getattr(torch, dtype)) for v in values])
    assert str(ours.dtype) == str(theirs.dtype)
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-6)


@pytest.mark.parametrize("value", [1 + 0j, 2.5 + 0j, 1 + 2j, 0.5j])
@pytest.mark.parametrize("convert", [float, int])
def test_python_number_of_a_complex_tensor_matches_torch(value, convert):
    real = pytest.importorskip("torch")
    outcomes = []
    for lib in (numtorch, real):
        try:
            outcomes.append(convert(lib.tensor(value)))
        except Exception as e:  # the type and message are what get compared
            outcomes.append((type(e).__name__, str(e)))
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("part", ["real", "imag"])
def test_parts_of_a_conjugate_give_torchs_gradient_zeros(part):
    # Note [Parts of a conjugate]: torch conjugates twice on the way back (and negates the
    # imaginary part's gradient): (g, +0) and (-0, -g) reach the input
    torch = pytest.importorskip("torch")
    grads = []
    for lib in (numtorch, torch):
        z = lib.tensor(Z, requires_grad=True)
        out = getattr(z.conj(), part)
        (g,) = lib.autograd.grad((out * lib.tensor(A)).sum(), z, create_graph=True)
        (gg,) = lib.autograd.grad((g.real * g.imag).sum() + (out * out).sum(), z)
        grads.append([lib.view_as_real(t.detach()).numpy() for t in (g, gg)])
    for ours, theirs in zip(*grads):
        np.testing.assert_array_equal(ours, theirs)
        np.testing.assert_array_equal(np.signbit(ours), np.signbit(theirs))


def test_complex_to_bool_reads_both_parts():
    # torch's bool of a complex number is True where either part is nonzero (no warning)
    torch = pytest.importorskip("torch")
    values = np.array([2j, 0j, 1 + 0j, complex(0, -0.0), complex(np.nan, 0), complex(0, np.nan)])
    found = []
    for lib in (numtorch, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            z = lib.tensor(values)
            found.append((z.to(lib.bool).tolist(), z.bool().tolist(), lib.tensor(2j).bool().item()))
    assert found[0] == found[1]
