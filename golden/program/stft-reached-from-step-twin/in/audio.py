# Twin of stft-reached-from-step: the spectrogram is made only in the dataset (`__getitem__`,
# host code the loader runs): the step feeds it to the model and never calls it, so it is not a
# step fallback (no TRN418).
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
