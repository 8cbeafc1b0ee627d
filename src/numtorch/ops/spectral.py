"""``torch.stft`` and ``torch.istft``, composed as torch's CPU implementation composes them
(aten/src/ATen/native/SpectralOps.cpp), so values, gradients and the nodes near the output
match: frames are an ``as_strided`` view of the (reflect-)padded signal, windowed and
transformed by the FFT primitives of ``fft.py``; the inverse transforms each frame back,
overlap-adds the windowed frames and divides by the overlap-added squared window.

Shapes: a signal ``(L,)`` or ``(B, L)`` gives ``(n_fft // 2 + 1, n_frames)`` (one-sided) or
``(n_fft, n_frames)`` per batch entry, ``n_frames = 1 + (L' - n_fft) // hop_length`` with
``L' = L + 2 * (n_fft // 2)`` when ``center``. The overlap-add is ``col2im`` here
(``Col2ImBackward0`` where torch records ``UnfoldBackwardBackward0``).
"""

from __future__ import annotations

from .. import _creation
from .._core.dispatch import require_tensor
from .._core.op import export
from .._core.tensor import Tensor
from .._core.warn_once import warn_once
from .complex import view_as_real
from .fft import _fft_c2c, _fft_c2r, _fft_r2c
from .nn.fold import col2im_op
from .nn.padding import constant_pad_nd, mode_pad


def _signature(input, n_fft, hop_length, win_length, window, normalized, onesided,
               return_complex) -> str:  # fmt: skip
    win = (
        "None" if window is None else f"torch.{input.type().split('.')[-1]}{{{list(window.shape)}}}"
    )
    return (
        f"stft(torch.{input.type().split('.')[-1]}{list(input.shape)}, n_fft={n_fft}, "
        f"hop_length={hop_length}, win_length={win_length}, window={win}, "
        f"normalized={int(normalized)}, onesided={onesided}, "
        f"return_complex={int(bool(return_complex))}, align_to_window=None) : "
    )


def _padded_window(window, win_length, n_fft, like):
    """The window as n_fft points, centred (torch pads a shorter window with zeros)."""
    if window is None:
        if win_length == n_fft:
            return None
        window = _creation.ones(win_length, dtype=like.real.dtype)
    if win_length < n_fft:
        left = (n_fft - win_length) // 2
        window = constant_pad_nd(window, (left, n_fft - win_length - left))
    return window


@export
def stft(input, n_fft, hop_length=None, win_length=None, window=None, center=True,
         pad_mode="reflect", normalized=False, onesided=None,
         return_complex=None, align_to_window=None) -> Tensor:  # fmt: skip
    """Short-time Fourier transform: the FFT of windowed frames, frequencies by frames.

    Example:
        >>> import numtorch as torch
        >>> spec = torch.stft(torch.ones(64), 16, 4, window=torch.hann_window(16),
        ...                   return_complex=True)
        >>> spec.shape, spec.dtype
        (torch.Size([9, 17]), torch.complex64)
    """
    require_tensor("stft", "input", 1, input)
    if center and align_to_window is not None:
        raise RuntimeError("stft align_to_window should only be set when center = false")
    if window is None:
        warn_once(
            "A window was not provided. A rectangular window will be applied,which is known to "
            "cause spectral leakage. Other windows such as torch.hann_window or "
            "torch.hamming_window are recommended to reduce spectral leakage.To suppress this "
            "warning and use a rectangular window, explicitly set `window=torch.ones(n_fft, "
            "device=<device>)`.",
            stacklevel=3,
        )
    complex_input = input.is_complex() or (window is not None and window.is_complex())
    if return_complex is None:
        if not complex_input:
            raise RuntimeError(
                "stft requires the return_complex parameter be given for real inputs, and "
                "will further require that return_complex=True in a future PyTorch release."
            )
        return_complex = True
    hop_length = n_fft // 4 if hop_length is None else hop_length
    win_length = n_fft if win_length is None else win_length
    where = _signature(input, n_fft, hop_length, win_length, window, normalized, onesided,
                       return_complex)  # fmt: skip
    batched = input.ndim == 2
    if input.ndim not in (1, 2):
        raise RuntimeError(f"{where}expected a 1D or 2D tensor")
    if not input.is_floating_point() and not input.is_complex():
        raise RuntimeError("stft: expected a tensor of floating point or complex values")
    x = input if batched else input.unsqueeze(0)
    if center:
        pad = n_fft // 2
        x = x.view(x.shape[0], 1, x.shape[1])
        if pad_mode == "constant":
            x = constant_pad_nd(x, (pad, pad))
        else:
            x = mode_pad(x, (pad, pad), pad_mode)
        x = x.view(x.shape[0], x.shape[-1])
    if align_to_window and 0 < win_length < n_fft:
        # frame t's window covers input[t * hop_length:][:win_length]: the frames start
        # half the window's padding earlier
        left = (n_fft - win_length) // 2
        x = constant_pad_nd(x, (left, n_fft - win_length - left))
    length = x.shape[-1]
    if n_fft <= 0 or n_fft > length:
        raise RuntimeError(f"{where}expected 0 < n_fft < {length}, but got n_fft={n_fft}")
    if hop_length <= 0:
        raise RuntimeError(f"{where}expected hop_length > 0, but got hop_length={hop_length}")
    if win_length <= 0 or win_length > n_fft:
        raise RuntimeError(
            f"{where}expected 0 < win_length <= n_fft, but got win_length={win_length}"
        )
    if window is not None and (window.ndim != 1 or window.shape[0] != win_length):
        raise RuntimeError(
            f"{where}expected a 1D window tensor of size equal to win_length={win_length}, "
            f"but got window with size {list(window.shape)}"
        )
    n_frames = 1 + (length - n_fft) // hop_length
    stride = x.stride()
    frames = x.as_strided(
        (x.shape[0], n_frames, n_fft), (stride[0], hop_length * stride[1], stride[1])
    )
    full_window = _padded_window(window, win_length, n_fft, x)
    if full_window is not None:
        frames = frames * full_window
    onesided = (not frames.is_complex()) if onesided is None else onesided
    normalization = 1 if normalized else 0
    if frames.is_complex():
        if onesided:
            raise RuntimeError("Cannot have onesided output if window or input is complex")
        spectrum = _fft_c2c(frames, (2,), normalization, True)
    else:
        spectrum = _fft_r2c(frames, (2,), normalization, onesided)
    spectrum = spectrum.transpose_(1, 2)
    if not batched:
        spectrum = spectrum.squeeze_(0)
    return spectrum if return_complex else view_as_real(spectrum)


@export
def istft(input, n_fft, hop_length=None, win_length=None, window=None, center=True,
          normalized=False, onesided=None, length=None,
          return_complex=False) -> Tensor:  # fmt: skip
    """Inverse of ``stft``: each frame transformed back, the windowed frames overlap-added and
    divided by the overlap-added squared window.

    Example:
        >>> import numtorch as torch
        >>> x = torch.arange(32.0)
        >>> w = torch.hann_window(8)
        >>> y = torch.istft(torch.stft(x, 8, 2, window=w, return_complex=True), 8, 2, window=w)
        >>> bool((y - x).abs().max() < 1e-4)
        True
    """
    require_tensor("istft", "input", 1, input)
    if window is None:
        warn_once(
            "A window was not provided. A rectangular window will be applied.Please provide the "
            "same window used by stft to make the inversion lossless.To suppress this warning "
            "and use a rectangular window, explicitly set `window=torch.ones(n_fft, "
            "device=<device>)`.",
            stacklevel=3,
        )
    if not input.is_complex():
        raise RuntimeError(
            "istft requires a complex-valued input tensor matching the output from stft with "
            "return_complex=True."
        )
    hop_length = n_fft // 4 if hop_length is None else hop_length
    win_length = n_fft if win_length is None else win_length
    batched = input.ndim == 3
    if input.ndim not in (2, 3):
        raise RuntimeError(
            f"istft: expected a tensor with 2 or 3 dimensions of complex, but got {input.ndim}"
        )
    spec = input if batched else input.unsqueeze(0)
    n_frames, fft_size = spec.shape[-1], spec.shape[-2]
    if onesided is None:
        onesided = fft_size != n_fft
    if onesided and n_fft // 2 + 1 != fft_size:
        raise RuntimeError(
            "istft(...): expected the frequency dimension (3rd to the last) of the input tensor "
            f"to match n_fft / 2 + 1 when onesided=True, but got {fft_size}"
        )
    if not onesided and n_fft != fft_size:
        raise RuntimeError(
            "istft(...): expected the frequency dimension (3rd to the last) of the input tensor "
            f"to match n_fft when onesided=False, but got {fft_size}"
        )
    if not 0 < hop_length <= win_length:
        raise RuntimeError("istft(...): expected 0 < hop_length <= win_length")
    if not 0 < win_length <= n_fft:
        raise RuntimeError("istft(...): expected 0 < win_length <= n_fft")
    if window is not None and (window.ndim != 1 or window.shape[0] != win_length):
        raise RuntimeError(
            "istft(...): expected a 1D window tensor of size equal to win_length="
            f"{win_length}, but got window with size {list(window.shape)}"
        )
    spec = spec.transpose(1, 2)  # (batch, frames, frequencies)
    normalization = 1 if normalized else 2
    if return_complex:
        if onesided:
            raise RuntimeError("Cannot have onesided output if window or input is complex")
        frames = _fft_c2c(spec, (2,), normalization, False)
    elif onesided:
        frames = _fft_c2r(spec, (2,), normalization, n_fft)
    else:
        frames = _fft_c2c(spec, (2,), normalization, False).real
    full_window = _padded_window(window, win_length, n_fft, frames)
    if full_window is None:
        full_window = _creation.ones(n_fft, dtype=frames.real.dtype)
    frames = frames * full_window
    expected = n_fft + hop_length * (n_frames - 1)
    y = _overlap_add(frames, expected, n_fft, hop_length)
    envelope = _overlap_add(
        (full_window * full_window).expand(1, n_frames, n_fft), expected, n_fft, hop_length
    )
    start = n_fft // 2 if center else 0
    if length is not None:
        end = start + length
    else:
        end = expected - n_fft // 2 if center else expected
    y = y[:, start : min(end, expected)]
    envelope = envelope[:, start : min(end, expected)]
    smallest = float(envelope.abs().min()) if envelope.numel() else 1.0
    if smallest < 1e-11:
        raise RuntimeError(f"istft(...): window overlap add min: {smallest:g}")
    y = y / envelope
    if end > expected:
        y = constant_pad_nd(y, (0, end - expected))
    return y if batched else y.squeeze(0)


def _overlap_add(frames, total, n_fft, hop):
    """Sum frames (batch, n_frames, n_fft) into signals of ``total`` points, frame k
    starting at k * hop."""
    cols = frames.transpose(1, 2)  # (batch, n_fft, n_frames): col2im's columns, one channel
    signal = col2im_op(cols, (1, total), (1, n_fft), (1, 1), (0, 0), (1, hop))
    return signal.reshape(frames.shape[0], total)
