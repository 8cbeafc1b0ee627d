"""torch.fft and complex autograd: values against NumPy, and parity with torch (values,
dtypes, grad_fn chains, gradients, exception types)."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch

RNG = np.random.default_rng(0)
REAL = RNG.standard_normal((4, 6))
COMPLEX = RNG.standard_normal((4, 6)) + 1j * RNG.standard_normal((4, 6))

# (name, call, input kind) : every transform with its size, dim and norm arguments
CALLS = [
    ("fft", lambda F, x: F.fft(x), "any"),
    ("fft_n_pad", lambda F, x: F.fft(x, n=9, norm="ortho"), "any"),
    ("fft_n_crop_dim0", lambda F, x: F.fft(x, n=3, dim=0, norm="forward"), "any"),
    ("ifft", lambda F, x: F.ifft(x), "any"),
    ("ifft_ortho", lambda F, x: F.ifft(x, n=5, norm="ortho"), "any"),
    ("fft2", lambda F, x: F.fft2(x), "any"),
    ("ifft2_s", lambda F, x: F.ifft2(x, s=(3, 8), norm="forward"), "any"),
    ("fftn", lambda F, x: F.fftn(x), "any"),
    ("fftn_dim", lambda F, x: F.fftn(x, s=(5,), dim=(0,)), "any"),
    ("ifftn", lambda F, x: F.ifftn(x, norm="ortho"), "any"),
    ("rfft", lambda F, x: F.rfft(x), "real"),
    ("rfft_odd", lambda F, x: F.rfft(x, n=7, norm="ortho"), "real"),
    ("rfft2", lambda F, x: F.rfft2(x), "real"),
    ("rfftn_s", lambda F, x: F.rfftn(x, s=(3, 5), norm="forward"), "real"),
    ("irfft", lambda F, x: F.irfft(x), "any"),
    ("irfft_n", lambda F, x: F.irfft(x, n=7, dim=0, norm="ortho"), "any"),
    ("irfft2", lambda F, x: F.irfft2(x), "any"),
    ("irfftn_s", lambda F, x: F.irfftn(x, s=(5, 4), norm="forward"), "any"),
    ("hfft", lambda F, x: F.hfft(x), "any"),
    ("hfft_n", lambda F, x: F.hfft(x, n=7, norm="ortho"), "any"),
    ("ihfft", lambda F, x: F.ihfft(x), "real"),
    ("ihfft_n", lambda F, x: F.ihfft(x, n=8, dim=0, norm="forward"), "real"),
    ("fftshift", lambda F, x: F.fftshift(x), "any"),
    ("ifftshift_dim", lambda F, x: F.ifftshift(x, dim=1), "any"),
]
CASES = [
    pytest.param(call, data, id=f"{name}-{kind}")
    for name, call, inputs in CALLS
    for kind, data in (("real", REAL), ("complex", COMPLEX))
    if inputs == "any" or kind == "real"
]

NUMPY = {
    "fft": lambda x: np.fft.fft(x),
    "ifft2": lambda x: np.fft.ifft2(x),
    "rfft": lambda x: np.fft.rfft(x),
    "irfft": lambda x: np.fft.irfft(x, 7, norm="ortho"),
    "hfft": lambda x: np.fft.hfft(x),
    "ihfft": lambda x: np.fft.ihfft(x),
    "rfftn": lambda x: np.fft.rfftn(x, norm="forward"),
}


@pytest.mark.parametrize("name", sorted(NUMPY))
def test_values_match_numpy(name):
    source = COMPLEX if name in ("irfft", "hfft") else REAL
    kwargs = {"n": 7, "norm": "ortho"} if name == "irfft" else {}
    kwargs = {"norm": "forward"} if name == "rfftn" else kwargs
    out = getattr(numtorch.fft, name)(numtorch.tensor(source), **kwargs)
    np.testing.assert_allclose(out.numpy(), NUMPY[name](source), rtol=1e-12, atol=1e-12)
    assert out.dtype in (numtorch.complex128, numtorch.float64)


def _chain(t):
    names, fn = [], t.grad_fn
    while fn is not None:
        names.append(fn.name().rsplit("::", 1)[-1])
        edges = [f for f, _ in fn.next_functions if f is not None]
        fn = edges[0] if edges else None
    return names


def _leaf(lib, data, dtype_name):
    dtype = getattr(lib, dtype_name)
    if np.iscomplexobj(data):
        dtype = lib.complex128 if dtype_name == "float64" else lib.complex64
    return lib.tensor(data, dtype=dtype, requires_grad=True)


def _loss(lib, out):
    # a real loss that reaches every real and imaginary part
    weights = lib.tensor(np.linspace(-1.0, 2.0, out.numel()).reshape(tuple(out.shape)))
    if out.is_complex():
        return (lib.view_as_real(out.resolve_conj()) ** 2).sum() + (out.real * weights).sum()
    return (out * out.to(weights.dtype) * weights).sum()


@pytest.mark.parametrize("dtype_name", ["float64", "float32"])
@pytest.mark.parametrize("call, data", CASES)
def test_matches_torch(call, data, dtype_name):
    torch = pytest.importorskip("torch")
    results = []
    for lib in (numtorch, torch):
        x = _leaf(lib, data, dtype_name)
        out = call(lib.fft, x)
        _loss(lib, out.to(lib.complex128 if out.is_complex() else lib.float64)).backward()
        results.append((out, x.grad, _chain(out)))
    (ours, our_grad, our_chain), (theirs, their_grad, their_chain) = results
    assert str(ours.dtype) == str(theirs.dtype)
    assert tuple(ours.shape) == tuple(theirs.shape)
    assert our_chain == their_chain
    assert str(our_grad.dtype) == str(their_grad.dtype)
    tol = dict(rtol=1e-10, atol=1e-10) if dtype_name == "float64" else dict(rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(
        ours.detach().resolve_conj().numpy(), theirs.detach().resolve_conj().numpy(), **tol
    )
    np.testing.assert_allclose(our_grad.numpy(), their_grad.resolve_conj().numpy(), **tol)


@pytest.mark.parametrize(
    "dtype_in, dtype_out",
    [("float32", "complex64"), ("float64", "complex128"), ("int64", "complex64")],
)
def test_output_dtypes(dtype_in, dtype_out):
    x = numtorch.arange(6).to(getattr(numtorch, dtype_in))
    assert numtorch.fft.fft(x).dtype == getattr(numtorch, dtype_out)
    assert numtorch.fft.rfft(x).dtype == getattr(numtorch, dtype_out)
    assert numtorch.fft.irfft(x).dtype == getattr(numtorch, dtype_out).to_real()


ERRORS = {
    "norm": lambda lib: lib.fft.fft(lib.ones(4), norm="sideways"),
    "zero_n": lambda lib: lib.fft.fft(lib.ones(4), n=0),
    "negative_n": lambda lib: lib.fft.irfft(lib.ones(4), n=-2),
    "dim": lambda lib: lib.fft.fft(lib.ones(2, 3), dim=2),
    "repeated_dims": lambda lib: lib.fft.fftn(lib.ones(2, 3), dim=(0, 0)),
    "s_dim_lengths": lambda lib: lib.fft.fftn(lib.ones(2, 3), s=(3,), dim=(0, 1)),
    "s_too_long": lambda lib: lib.fft.fftn(lib.ones(2, 3), s=(2, 2, 2)),
    "half": lambda lib: lib.fft.fft(lib.ones(3, dtype=lib.float16)),
    "zero_dim": lambda lib: lib.fft.fft(lib.tensor(1.0)),
    "not_tensor": lambda lib: lib.fft.fft([1.0, 2.0]),
    "rfft_complex": lambda lib: lib.fft.rfft(lib.ones(3, dtype=lib.complex64)),
    "rfftn_complex": lambda lib: lib.fft.rfft2(lib.ones(3, 3, dtype=lib.complex64)),
    "ihfft_complex": lambda lib: lib.fft.ihfft(lib.ones(3, dtype=lib.complex64)),
    "empty": lambda lib: lib.fft.fft(lib.ones(0)),
    "irfft_one_point": lambda lib: lib.fft.irfft(lib.ones(1)),
    "fftfreq_negative": lambda lib: lib.fft.fftfreq(-1),
    "shift_dim": lambda lib: lib.fft.fftshift(lib.ones(2), dim=3),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_errors_match_torch(name):
    torch = pytest.importorskip("torch")
    with pytest.raises(Exception) as theirs:
        ERRORS[name](torch)
    with pytest.raises(type(theirs.value)) as ours:
        ERRORS[name](numtorch)
    if isinstance(theirs.value, RuntimeError):
        assert str(ours.value) == str(theirs.value)


def test_frequencies_match_torch():
    torch = pytest.importorskip("torch")
    for lib_call in (
        lambda lib: lib.fft.fftfreq(5),
        lambda lib: lib.fft.fftfreq(8, d=0.1, dtype=lib.float64),
        lambda lib: lib.fft.rfftfreq(7, 2.0),
        lambda lib: lib.fft.rfftfreq(8, dtype=lib.float64, requires_grad=True),
        lambda lib: lib.fft.fftfreq(0),
    ):
        ours, theirs = lib_call(numtorch), lib_call(torch)
        assert str(ours.dtype) == str(theirs.dtype)
        assert ours.requires_grad == theirs.requires_grad
        np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), rtol=1e-6)


def test_unknown_transform_is_an_attribute_error():
    with pytest.raises(AttributeError):
        numtorch.fft.no_such_transform  # noqa: B018


def test_gradgradcheck_through_transforms():
    x = numtorch.randn(3, 5, dtype=numtorch.float64, requires_grad=True)

    def f(a):
        spectrum = numtorch.fft.rfft2(a, norm="ortho")
        return numtorch.fft.irfft2(spectrum * spectrum, s=(3, 5))

    assert numtorch.autograd.gradcheck(f, (x,))
    assert numtorch.autograd.gradgradcheck(f, (x,))


def _nan_imaginary_parts(lib):
    # a NaN in an imaginary part only: torch scales by a real factor, so the NaN stays in
    # the imaginary parts of the values and gradients it reaches
    z = lib.tensor([[complex(1, float("nan")), 2, 3], [4, 5, 6j]], dtype=lib.complex128)
    x = lib.arange(1.0, 7.0, dtype=lib.float64).reshape(2, 3).requires_grad_()
    spectrum = lib.fft.ifft2(z)
    weights = lib.ones(2, 2, 2, dtype=lib.float64)
    weights[0, 0, 1] = weights[1, 1, 1] = float("nan")
    (grad,) = lib.autograd.grad(lib.view_as_real(lib.fft.ihfftn(x)), x, weights)
    return [t.detach().numpy() for t in (spectrum.real, spectrum.imag, grad)]


def test_a_nan_imaginary_part_stays_imaginary_through_a_scaled_transform():
    real, imag, grad = _nan_imaginary_parts(numtorch)
    assert not np.isnan(real).any() and np.isnan(imag).all()
    assert not np.isnan(grad[:, 0]).any()
    torch = pytest.importorskip("torch")
    for ours, theirs in zip((real, imag, grad), _nan_imaginary_parts(torch)):
        np.testing.assert_allclose(ours, theirs, rtol=1e-12)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize(
    "call",
    [
        lambda lib, x: lib.fft.fft(x),
        lambda lib, x: lib.fft.rfft(x),
        lambda lib, x: lib.fft.ihfft(x),
        lambda lib, x: lib.stft(
            x.reshape(-1), 8, window=lib.ones(8, dtype=x.dtype), return_complex=True
        ),
    ],
    ids=["fft", "rfft", "ihfft", "stft"],
)
def test_half_precision_transforms_are_refused_with_torchs_error(call, dtype):
    torch = pytest.importorskip("torch")
    messages = []
    for lib in (numtorch, torch):
        with pytest.raises(RuntimeError) as error:
            call(lib, lib.ones(4, 8, dtype=getattr(lib, dtype)))
        messages.append(str(error.value))
    assert messages[0] == messages[1]


@pytest.mark.parametrize("align", [None, False, True])
def test_stft_aligned_to_its_window_matches_torch(align):
    torch = pytest.importorskip("torch")

    def run(lib):
        x = lib.tensor(np.arange(16.0) ** 0.5)
        return lib.stft(x, 8, hop_length=3, win_length=4, window=lib.hann_window(4),
                        center=False, return_complex=True, align_to_window=align)  # fmt: skip

    ours, theirs = run(numtorch), run(torch)
    assert tuple(ours.shape) == tuple(theirs.shape)
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-5, atol=1e-5)
    with pytest.raises(RuntimeError, match="align_to_window should only be set when center"):
        numtorch.stft(numtorch.ones(16), 8, center=True, align_to_window=False)


def test_a_real_transform_refuses_a_complex_out():
    spectrum = numtorch.ones(3, dtype=numtorch.complex64)
    with pytest.raises(RuntimeError, match="irfft expects a floating point output tensor"):
        numtorch.fft.irfft(spectrum, out=numtorch.empty(4, dtype=numtorch.complex64))
    out = numtorch.empty(4, dtype=numtorch.float64)
    assert numtorch.fft.irfft(spectrum, out=out) is out  # a real one of another dtype: cast
