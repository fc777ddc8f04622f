# Class: `torch.stft` of a signal written for torch 1.x, with no `return_complex`: it raises on
# torch 2 for a real input. Each spelling becomes `view_as_real` of the complex output, the real
# tensor it gave on torch 1; one imported by its own name is reported.
import torch
import torch as th
from torch import stft


def spectrogram(y, n_fft, hop_size, win_size, window, center=False):
    spec = torch.view_as_real(torch.stft(y, n_fft, hop_length=hop_size, win_length=win_size, window=window,
                      center=center, pad_mode="reflect", normalized=False, onesided=True, return_complex=True))
    spec = torch.sqrt(spec.pow(2).sum(-1) + 1e-6)
    other = th.view_as_real(th.stft(
        y,
        n_fft,
        window=window,
        return_complex=True,
    ))
    return spec, other, stft(y, n_fft)
