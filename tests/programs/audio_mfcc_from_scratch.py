# Audio features by hand: framing, Hann window STFT, mel filterbank, log-mel, DCT-II MFCCs, deltas
import math

torch.manual_seed(0)
sr, n_fft, hop, n_mels, n_mfcc = 8000, 256, 128, 20, 8
t = torch.arange(0, 0.25, 1 / sr)
wave = (
    0.6 * torch.sin(2 * math.pi * 440 * t)
    + 0.3 * torch.sin(2 * math.pi * 1200 * t)
    + 0.05 * torch.randn_like(t)
)


def hz_to_mel(f):
    return 2595.0 * torch.log10(1.0 + f / 700.0)


def mel_to_hz(m):
    return 700.0 * (10 ** (m / 2595.0) - 1.0)


def mel_filterbank(n_mels, n_fft, sr, f_min=0.0, f_max=None):
    f_max = f_max or sr / 2
    all_freqs = torch.linspace(0, sr // 2, n_fft // 2 + 1)
    m_pts = torch.linspace(
        hz_to_mel(torch.tensor(f_min)), hz_to_mel(torch.tensor(f_max)), n_mels + 2
    )
    f_pts = mel_to_hz(m_pts)
    f_diff = f_pts[1:] - f_pts[:-1]
    slopes = f_pts.unsqueeze(0) - all_freqs.unsqueeze(1)
    down_slopes = (-1.0 * slopes[:, :-2]) / f_diff[:-1]
    up_slopes = slopes[:, 2:] / f_diff[1:]
    return torch.max(torch.zeros(1), torch.min(down_slopes, up_slopes))


def create_dct(n_mfcc, n_mels, norm="ortho"):
    n = torch.arange(float(n_mels))
    k = torch.arange(float(n_mfcc)).unsqueeze(1)
    dct = torch.cos(math.pi / float(n_mels) * (n + 0.5) * k)
    if norm == "ortho":
        dct[0] *= 1.0 / math.sqrt(2.0)
        dct *= math.sqrt(2.0 / float(n_mels))
    return dct.t()


window = torch.hann_window(n_fft)
spec = torch.stft(
    wave, n_fft, hop_length=hop, window=window, center=True, pad_mode="reflect", return_complex=True
)
power = spec.abs().pow(2.0)
fb = mel_filterbank(n_mels, n_fft, sr)
mel = torch.matmul(power.transpose(-1, -2), fb).transpose(-1, -2)
log_mel = 10.0 * torch.log10(torch.clamp(mel, min=1e-10))
log_mel = torch.max(log_mel, log_mel.max() - 80.0)
mfcc = torch.matmul(log_mel.transpose(-1, -2), create_dct(n_mfcc, n_mels)).transpose(-1, -2)
print(spec.shape, spec.dtype, fb.shape, mel.shape, mfcc.shape)
peak_bins = power.mean(-1).topk(2).indices.sort().values
print(peak_bins, peak_bins * sr / n_fft)
frames = F.pad(wave[None], (n_fft // 2, n_fft // 2), mode="reflect")[0].unfold(0, n_fft, hop)
manual = torch.fft.rfft(frames * window, dim=-1).T
print(frames.shape, torch.allclose(manual, spec, atol=1e-3))


def compute_deltas(specgram, win_length=5):
    n = (win_length - 1) // 2
    denom = n * (n + 1) * (2 * n + 1) / 3
    x = F.pad(specgram.unsqueeze(0), (n, n), mode="replicate")
    kernel = torch.arange(-n, n + 1, dtype=specgram.dtype).repeat(specgram.shape[0], 1, 1)
    return F.conv1d(x, kernel, groups=specgram.shape[0]).squeeze(0) / denom


deltas = compute_deltas(mfcc)
# log-mel of near-silent bins amplifies float32 rounding of the FFT: compare coarsely
print(deltas.shape, f"{mfcc.mean():.1f} {mfcc.std():.1f} {deltas.abs().mean():.1f}")
cmvn = (mfcc - mfcc.mean(-1, keepdim=True)) / (mfcc.std(-1, keepdim=True) + 1e-5)
out(fb.round(decimals=4), mfcc.shape, cmvn.shape)
# ---
# Resampling-free augmentations on waveforms: gain, time shift by roll, SpecAugment masks
torch.manual_seed(0)
wave = torch.randn(2, 400)
gain_db = torch.tensor([-6.0, 3.0]).unsqueeze(1)
louder = wave * 10 ** (gain_db / 20)
print((louder.abs().amax(1) / wave.abs().amax(1)).round(decimals=4))
shifted = torch.roll(wave, shifts=37, dims=-1)
print(torch.equal(shifted[:, 37:], wave[:, :-37]))
spec = torch.rand(2, 16, 20)


def mask_along_axis(specgram, mask_param, mask_value, axis, generator=None):
    value = torch.rand(1, generator=generator) * mask_param
    min_value = torch.rand(1, generator=generator) * (specgram.size(axis) - value)
    mask_start = min_value.long().squeeze()
    mask_end = (min_value.long() + value.long()).squeeze()
    mask = torch.arange(0, specgram.shape[axis])
    mask = (mask >= mask_start) & (mask < mask_end)
    if axis == 1:
        mask = mask.unsqueeze(-1)
    return specgram.masked_fill(mask, mask_value), (int(mask_start), int(mask_end))


g = torch.Generator().manual_seed(3)
freq_masked, fr = mask_along_axis(spec, 6, 0.0, axis=1, generator=g)
time_masked, tr = mask_along_axis(freq_masked, 8, spec.mean().item(), axis=2, generator=g)
print(fr, tr, (freq_masked == 0).sum().item())
out(louder, time_masked)
