"""Op samples for ``torch.fft`` and the complex-tensor ops (part of the op sample table in
``opinfo.py``).

The table's samples are real arrays and its outputs must be real, so complex results are
returned through ``view_as_real`` and complex inputs are made with ``view_as_complex`` from
a real array whose last dimension is 2 (re, im): gradcheck then checks the real and
imaginary parts, as torch's gradcheck does for complex functions.
"""

from __future__ import annotations

import numpy as np

from .opinfo import OpInfo, Sample, _away, _n, _pos


def _real_view(t, z):
    return t.view_as_real(z.resolve_conj())


def _pairs(rng, *shape):
    return rng.standard_normal(shape + (2,))


def _fft_real(name, call, shapes, ref=None):
    """A transform of a real input with a complex output."""

    def op(t, x, **kw):
        return _real_view(t, call(t.fft, x, **kw))

    return OpInfo(name, op, lambda rng: [Sample((_n(rng, *s),), k) for s, k in shapes], ref)


def _fft_complex(name, call, shapes, complex_out=True):
    """A transform of a complex input (made from (re, im) pairs)."""

    def op(t, x, **kw):
        out = call(t.fft, t.view_as_complex(x), **kw)
        return _real_view(t, out) if complex_out else out

    return OpInfo(name, op, lambda rng: [Sample((_pairs(rng, *s),), k) for s, k in shapes])


def _as_complex(x):
    return x[..., 0] + 1j * x[..., 1]


def _ref_real(fn):
    return lambda x, **kw: _stack(fn(x, **kw))


def _stack(z):
    return np.stack([z.real, z.imag], -1)


FFT_OPS = [
    _fft_real(
        "fft.fft",
        lambda F, x, **kw: F.fft(x, **kw),
        [((6,), {}), ((3, 5), {"n": 8, "dim": 0}), ((4, 6), {"n": 4, "norm": "ortho"})],
        _ref_real(lambda x, n=None, dim=-1, norm=None: np.fft.fft(x, n, dim, norm)),
    ),
    _fft_real(
        "fft.ifft",
        lambda F, x, **kw: F.ifft(x, **kw),
        [((5,), {}), ((3, 4), {"norm": "forward"})],
        _ref_real(lambda x, norm=None: np.fft.ifft(x, norm=norm)),
    ),
    _fft_real(
        "fft.fft2",
        lambda F, x, **kw: F.fft2(x, **kw),
        [((3, 4), {}), ((2, 3, 4), {"s": (4, 3), "norm": "ortho"})],
    ),
    _fft_real(
        "fft.rfft",
        lambda F, x, **kw: F.rfft(x, **kw),
        [((6,), {}), ((7,), {"norm": "ortho"}), ((3, 5), {"n": 8, "dim": 0})],
        _ref_real(lambda x, n=None, dim=-1, norm=None: np.fft.rfft(x, n, dim, norm)),
    ),
    _fft_real(
        "fft.rfftn",
        lambda F, x, **kw: F.rfftn(x, **kw),
        [((3, 4), {}), ((2, 3, 5), {"s": (4, 6), "norm": "forward"})],
        _ref_real(lambda x, s=None, norm=None: np.fft.rfftn(x, s, (-2, -1) if s else None, norm)),
    ),
    _fft_real("fft.ihfft", lambda F, x, **kw: F.ihfft(x, **kw), [((6,), {}), ((3, 5), {})]),
    OpInfo(
        "fft.irfft_of_real",
        lambda t, x, **kw: t.fft.irfft(x, **kw),
        lambda rng: [Sample((_n(rng, 4),)), Sample((_n(rng, 2, 4),), {"n": 5})],
    ),
    _fft_complex(
        "fft.fftn_complex",
        lambda F, z, **kw: F.fftn(z, **kw),
        [((3, 4), {}), ((2, 3), {"s": (4,), "dim": (0,), "norm": "ortho"})],
    ),
    _fft_complex("fft.ifft2_complex", lambda F, z, **kw: F.ifft2(z, **kw), [((3, 4), {})]),
    _fft_complex(
        "fft.irfft",
        lambda F, z, **kw: F.irfft(z, **kw),
        [((4,), {}), ((3, 4), {"n": 7, "norm": "ortho"})],
        complex_out=False,
    ),
    _fft_complex(
        "fft.irfftn",
        lambda F, z, **kw: F.irfftn(z, **kw),
        [((3, 4), {}), ((3, 4), {"s": (2, 5), "norm": "forward"})],
        complex_out=False,
    ),
    _fft_complex(
        "fft.hfft",
        lambda F, z, **kw: F.hfft(z, **kw),
        [((4,), {}), ((2, 5), {"n": 9})],
        complex_out=False,
    ),
    _fft_complex(
        "fft.hfftn",
        lambda F, z, **kw: F.hfftn(z, **kw),
        [((3, 4), {}), ((2, 3, 4), {"s": (3, 6), "norm": "ortho"}), ((5,), {"dim": 0})],
        complex_out=False,
    ),
    _fft_complex(
        "fft.hfft2",
        lambda F, z, **kw: F.hfft2(z, **kw),
        [((3, 4), {"norm": "forward"})],
        complex_out=False,
    ),
    _fft_real(
        "fft.ihfftn",
        lambda F, x, **kw: F.ihfftn(x, **kw),
        [((3, 4), {}), ((2, 3, 5), {"s": (4, 6), "norm": "ortho"}), ((4,), {})],
    ),
    _fft_real("fft.ihfft2", lambda F, x, **kw: F.ihfft2(x, **kw), [((3, 5), {"norm": "forward"})]),
    OpInfo(
        "stft",
        lambda t, x, **kw: _real_view(
            t, t.stft(x, 8, 2, window=t.hann_window(8, dtype=x.dtype), return_complex=True, **kw)
        ),
        lambda rng: [
            Sample((_n(rng, 20),)),
            Sample((_n(rng, 2, 16),), {"normalized": True, "pad_mode": "constant"}),
            Sample((_n(rng, 12),), {"center": False, "onesided": False}),
        ],
    ),
    OpInfo(
        "istft",
        lambda t, z, **kw: t.istft(
            t.view_as_complex(z), 8, 2, window=t.hann_window(8, dtype=z.dtype), **kw
        ),
        lambda rng: [
            Sample((_pairs(rng, 5, 7),)),
            Sample((_pairs(rng, 2, 5, 6),), {"length": 9, "normalized": True}),
        ],
    ),
    OpInfo(
        "fft.fftshift",
        lambda t, x, **kw: t.fft.fftshift(x, **kw),
        lambda rng: [Sample((_n(rng, 5),)), Sample((_n(rng, 3, 4),), {"dim": 0})],
        lambda x, dim=None: np.fft.fftshift(x, dim),
    ),
    OpInfo(
        "fft.ifftshift",
        lambda t, x, **kw: t.fft.ifftshift(x, **kw),
        lambda rng: [Sample((_n(rng, 5),)), Sample((_n(rng, 3, 4),), {"dim": (0, 1)})],
        lambda x, dim=None: np.fft.ifftshift(x, dim),
    ),
]


def _complex_unary(name, fn, make=_pairs, complex_out=True):
    def op(t, x):
        out = fn(t, t.view_as_complex(x))
        return _real_view(t, out) if complex_out else out

    return OpInfo(name, op, lambda rng: [Sample((make(rng, 3),)), Sample((make(rng, 2, 2),))])


def _nonzero_pairs(rng, *shape):
    return _away(rng, *shape, 2)


COMPLEX_OPS = [
    _complex_unary("view_as_complex", lambda t, z: z),
    _complex_unary("complex_abs", lambda t, z: z.abs(), _nonzero_pairs, complex_out=False),
    _complex_unary("complex_angle", lambda t, z: z.angle(), _nonzero_pairs, complex_out=False),
    _complex_unary("complex_sgn", lambda t, z: z.sgn(), _nonzero_pairs),
    _complex_unary("complex_real_imag", lambda t, z: z.real * z.imag, complex_out=False),
    _complex_unary("complex_conj", lambda t, z: z.conj() * z.exp()),
    _complex_unary(  # the parts of a conjugate view (Note [Parts of a conjugate])
        "complex_conj_parts",
        lambda t, z: z.conj().real * 2 + z.conj().imag * z.conj().real,
        complex_out=False,
    ),
    _complex_unary("complex_conj_physical", lambda t, z: t.conj_physical(z) * 2),
    _complex_unary("complex_mul_div", lambda t, z: z * (z + 1.5) / (z * z + 4), _nonzero_pairs),
    _complex_unary("complex_log_reciprocal", lambda t, z: z.log() + z.reciprocal(), _nonzero_pairs),
    _complex_unary("complex_pow_sqrt", lambda t, z: z**3 + (z + 4).sqrt() + z.pow(0.5 + 1j)),
    OpInfo(
        "complex_mm_mv_dot",
        lambda t, a, b: t.view_as_real(
            t.view_as_complex(a) @ t.view_as_complex(b)
            + t.view_as_complex(a).mv(t.view_as_complex(b)[:, 0]).unsqueeze(1)
            + t.dot(t.view_as_complex(a)[0], t.view_as_complex(b)[:, 1])
        ),
        lambda rng: [Sample((_pairs(rng, 2, 3), _pairs(rng, 3, 2)))],
    ),
    OpInfo(
        "complex",
        lambda t, a, b: _real_view(t, t.complex(a, b)),
        lambda rng: [Sample((_n(rng, 3), _n(rng, 3))), Sample((_n(rng, 2, 3), _n(rng, 3)))],
        lambda a, b: _stack(a + 1j * b),
    ),
    OpInfo(
        "polar",
        lambda t, a, b: _real_view(t, t.polar(a, b)),
        lambda rng: [Sample((_pos(rng, 3), _n(rng, 3))), Sample((_pos(rng, 2, 3), _n(rng, 3)))],
        lambda a, b: _stack(a * np.exp(1j * b)),
    ),
]
