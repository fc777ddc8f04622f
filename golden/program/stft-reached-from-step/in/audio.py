# Class: a spectral op (`torch.stft`, the `torch.fft` family) in a helper module's function that
# the training step calls every step (a mel spectrogram of the generated audio for the loss): it
# falls back to the CPU (measured: `aten::_fft_r2c`), reported in the helper (TRN418).
import torch
from torch.utils.data import Dataset


def spectrogram(audio, n_fft=256):
    window = torch.hann_window(n_fft, device=audio.device)
    spec = torch.stft(audio, n_fft, hop_length=64, window=window, return_complex=True)
    return spec.abs()


class Clips(Dataset):
    def __init__(self, clips):
        self.clips = clips

    def __len__(self):
        return len(self.clips)

    def __getitem__(self, index):
        clip = self.clips[index]
        return clip, spectrogram(clip)
