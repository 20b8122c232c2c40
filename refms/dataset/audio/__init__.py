"""``refms.dataset.audio``: a few audio operations (mirrors ``mindspore.dataset.audio``).

The formulas are torchaudio's, which MindSpore's kernels follow::

    Spectrogram      |STFT|^power: frames of n_fft samples every hop_length, a periodic
                     window of win_length centred in n_fft, the signal reflect-padded by
                     n_fft/2 when ``center``; ``normalized`` divides by ‖window‖₂
    MelSpectrogram   Spectrogram, then triangular mel filters (HTK: m = 2595·log10(1 + f/700),
                     or Slaney's scale; Slaney area normalisation optional)
    AmplitudeToDB    10·log10(max(x, amin)) − 10·log10(max(amin, ref))  (20· for magnitudes),
                     floored at (max − top_db)
    Resample         band-limited sinc interpolation (Hann or Kaiser window), rates reduced
                     by their gcd, ``lowpass_filter_width`` zero crossings, ``rolloff``

The last axis is time; leading axes are channels.  Arithmetic is float64; results
are float64 for a float64 waveform and float32 otherwise, as MindSpore 2.10's
(agreement is to ~1e-5 relative).
"""
import enum
import math

import numpy as np

__all__ = ["Spectrogram", "MelSpectrogram", "AmplitudeToDB", "Resample", "WindowType",
           "BorderType", "ScaleType", "NormType", "MelType", "ResampleMethod"]


class WindowType(enum.Enum):
    BARTLETT = "bartlett"
    BLACKMAN = "blackman"
    HAMMING = "hamming"
    HANN = "hann"
    KAISER = "kaiser"


class BorderType(enum.Enum):
    CONSTANT = "constant"
    EDGE = "edge"
    REFLECT = "reflect"
    SYMMETRIC = "symmetric"


class ScaleType(enum.Enum):
    MAGNITUDE = "magnitude"
    POWER = "power"


class NormType(enum.Enum):
    NONE = "none"
    SLANEY = "slaney"


class MelType(enum.Enum):
    HTK = "htk"
    SLANEY = "slaney"


class ResampleMethod(enum.Enum):
    SINC_INTERPOLATION = "sinc_interpolation"
    KAISER_WINDOW = "kaiser_window"


def _window(kind, length):
    """A periodic window of ``length`` samples (as torch's *_window(periodic=True))."""
    n = np.arange(length)
    period = length
    if kind == WindowType.HANN:
        return 0.5 - 0.5 * np.cos(2 * np.pi * n / period)
    if kind == WindowType.HAMMING:
        return 0.54 - 0.46 * np.cos(2 * np.pi * n / period)
    if kind == WindowType.BLACKMAN:
        return 0.42 - 0.5 * np.cos(2 * np.pi * n / period) + 0.08 * np.cos(4 * np.pi * n / period)
    if kind == WindowType.BARTLETT:
        return 1 - np.abs(2 * n / period - 1)
    if kind == WindowType.KAISER:
        return np.kaiser(length + 1, 12.0)[:-1]
    raise ValueError(f"Unknown window type {kind!r}.")


def _signal(waveform, op):
    x = np.asarray(waveform)
    if x.dtype.kind not in "fiu" or x.ndim < 1:
        raise RuntimeError(f"{op}: the waveform must be a numeric array of shape <..., time>, but "
                           f"got shape {list(x.shape)} and dtype {x.dtype}.")
    return x.astype(np.float64)


def _result(values, waveform):
    """``values`` in the dtype MindSpore 2.10 returns: float64 for a float64 waveform, else
    float32."""
    dtype = np.float64 if np.asarray(waveform).dtype == np.float64 else np.float32
    return np.asarray(values).astype(dtype)


def spectrogram(x, n_fft, win_length, hop_length, pad, window, power, normalized, center,
                pad_mode, onesided):
    win_length = win_length or n_fft
    hop_length = hop_length or win_length // 2
    if pad:
        x = np.pad(x, [(0, 0)] * (x.ndim - 1) + [(pad, pad)])
    w = _window(window, win_length)
    left = (n_fft - win_length) // 2
    w = np.pad(w, (left, n_fft - win_length - left))
    if center:
        mode = {BorderType.REFLECT: "reflect", BorderType.CONSTANT: "constant",
                BorderType.EDGE: "edge", BorderType.SYMMETRIC: "symmetric"}[pad_mode]
        x = np.pad(x, [(0, 0)] * (x.ndim - 1) + [(n_fft // 2, n_fft // 2)], mode=mode)
    frames = 1 + (x.shape[-1] - n_fft) // hop_length
    if frames <= 0:
        raise RuntimeError(f"Spectrogram: the waveform of {x.shape[-1]} samples is shorter than "
                           f"n_fft {n_fft}.")
    index = np.arange(n_fft)[None, :] + hop_length * np.arange(frames)[:, None]
    spectrum = np.fft.fft(x[..., index] * w, axis=-1)             # (..., frames, n_fft)
    if onesided:
        spectrum = spectrum[..., :n_fft // 2 + 1]
    if normalized:
        spectrum = spectrum / np.sqrt((w ** 2).sum())
    out = np.abs(spectrum) ** power if power else spectrum
    return np.swapaxes(out, -1, -2)                                 # (..., freq, time)


class Spectrogram:
    def __init__(self, n_fft=400, win_length=None, hop_length=None, pad=0,
                 window=WindowType.HANN, power=2.0, normalized=False, center=True,
                 pad_mode=BorderType.REFLECT, onesided=True):
        if win_length is not None and win_length > n_fft:
            raise ValueError(f"For 'Spectrogram', the 'win_length' {win_length} must not exceed "
                             f"'n_fft' {n_fft}.")
        self.args = (n_fft, win_length, hop_length, pad, window, power, normalized, center,
                     pad_mode, onesided)

    def __call__(self, waveform):
        return _result(spectrogram(_signal(waveform, "Spectrogram"), *self.args), waveform)


def _hz_to_mel(f, scale):
    f = np.asarray(f, np.float64)
    if scale == MelType.HTK:
        return 2595.0 * np.log10(1.0 + f / 700.0)
    linear = f / (200.0 / 3)
    log_step = math.log(6.4) / 27.0
    return np.where(f >= 1000.0, 15.0 + np.log(np.maximum(f, 1e-10) / 1000.0) / log_step, linear)


def _mel_to_hz(m, scale):
    m = np.asarray(m, np.float64)
    if scale == MelType.HTK:
        return 700.0 * (10.0 ** (m / 2595.0) - 1.0)
    log_step = math.log(6.4) / 27.0
    return np.where(m >= 15.0, 1000.0 * np.exp(log_step * (m - 15.0)), (200.0 / 3) * m)


def mel_filters(n_freqs, f_min, f_max, n_mels, sample_rate, norm, scale):
    """(n_freqs, n_mels) triangular filters (torchaudio's melscale_fbanks)."""
    freqs = np.linspace(0, sample_rate // 2, n_freqs)
    points = _mel_to_hz(np.linspace(_hz_to_mel(f_min, scale), _hz_to_mel(f_max, scale),
                                    n_mels + 2), scale)
    gaps = np.diff(points)
    slopes = points[None, :] - freqs[:, None]
    down = -slopes[:, :-2] / gaps[:-1]
    up = slopes[:, 2:] / gaps[1:]
    filters = np.maximum(0.0, np.minimum(down, up))
    if norm == NormType.SLANEY:
        filters *= 2.0 / (points[2:n_mels + 2] - points[:n_mels])
    return filters


class MelSpectrogram:
    def __init__(self, sample_rate=16000, n_fft=400, win_length=None, hop_length=None, f_min=0.0,
                 f_max=None, pad=0, n_mels=128, window=WindowType.HANN, power=2.0,
                 normalized=False, center=True, pad_mode=BorderType.REFLECT, onesided=True,
                 norm=NormType.NONE, mel_scale=MelType.HTK):
        self.spectrogram = Spectrogram(n_fft, win_length, hop_length, pad, window, power,
                                       normalized, center, pad_mode, onesided)
        f_max = f_max if f_max is not None else float(sample_rate // 2)
        self.filters = mel_filters(n_fft // 2 + 1, f_min, f_max, n_mels, sample_rate, norm,
                                   mel_scale)

    def __call__(self, waveform):
        spec = spectrogram(_signal(waveform, "MelSpectrogram"), *self.spectrogram.args)
        return _result(np.swapaxes(np.swapaxes(spec, -1, -2) @ self.filters, -1, -2), waveform)


class AmplitudeToDB:
    def __init__(self, stype=ScaleType.POWER, ref_value=1.0, amin=1e-10, top_db=80.0):
        if amin <= 0 or ref_value <= 0:
            raise ValueError("For 'AmplitudeToDB', 'amin' and 'ref_value' must be positive.")
        self.multiplier = 10.0 if stype == ScaleType.POWER else 20.0
        self.ref_value, self.amin, self.top_db = ref_value, amin, top_db

    def __call__(self, waveform):
        x = _signal(waveform, "AmplitudeToDB")
        db = self.multiplier * np.log10(np.maximum(x, self.amin))
        db -= self.multiplier * np.log10(max(self.amin, self.ref_value))
        if self.top_db is not None:
            lead = db.reshape((-1,) + db.shape[-2:]) if db.ndim >= 2 else db[None]
            floor = lead.max(axis=(-2, -1) if db.ndim >= 2 else -1, keepdims=True) - self.top_db
            db = np.maximum(lead, floor).reshape(db.shape)
        return _result(db, waveform)


def _resample_kernel(orig, new, width, rolloff, method, beta):
    base = min(orig, new) * rolloff
    width_samples = math.ceil(width * orig / base)
    index = np.arange(-width_samples, width_samples + orig)[None, :] / orig
    t = (-np.arange(new)[:, None] / new + index) * base
    t = np.clip(t, -width, width)
    if method == ResampleMethod.SINC_INTERPOLATION:
        window = np.cos(t * math.pi / width / 2) ** 2
    else:
        beta = 14.769656459379492 if beta is None else beta
        window = np.i0(beta * np.sqrt(1 - (t / width) ** 2)) / np.i0(beta)
    t = t * math.pi
    scale = base / orig
    kernel = np.where(t == 0, 1.0, np.sin(t) / np.where(t == 0, 1.0, t)) * window * scale
    return kernel, width_samples


class Resample:
    def __init__(self, orig_freq=16000, new_freq=16000,
                 resample_method=ResampleMethod.SINC_INTERPOLATION, lowpass_filter_width=6,
                 rolloff=0.99, beta=None):
        if orig_freq <= 0 or new_freq <= 0:
            raise ValueError("For 'Resample', the frequencies must be positive.")
        g = math.gcd(int(orig_freq), int(new_freq))
        self.orig, self.new = int(orig_freq) // g, int(new_freq) // g
        self.kernel, self.width = _resample_kernel(self.orig, self.new, lowpass_filter_width,
                                                   rolloff, resample_method, beta)

    def __call__(self, waveform):
        x = _signal(waveform, "Resample")
        if self.orig == self.new:
            return _result(x, waveform)
        shape = x.shape
        x = x.reshape(-1, shape[-1])
        length = shape[-1]
        padded = np.pad(x, [(0, 0), (self.width, self.width + self.orig)])
        steps = (padded.shape[-1] - self.kernel.shape[1]) // self.orig + 1
        index = np.arange(self.kernel.shape[1])[None, :] + self.orig * np.arange(steps)[:, None]
        out = np.einsum("cti,ni->ctn", padded[:, index], self.kernel)   # (channels, steps, new)
        out = out.reshape(x.shape[0], -1)
        target = math.ceil(self.new * length / self.orig)
        return _result(out[:, :target].reshape(shape[:-1] + (target,)), waveform)
