import torch
import torch.nn as nn

_streams = None


def _get_stream(device):
    """A CUDA stream per GPU, to copy each device's share of the batch in the background."""
    global _streams
    if _streams is None:
        _streams = [None] * torch.cuda.device_count()
    if _streams[device] is None:
        _streams[device] = torch.cuda.Stream(device)
    return _streams[device]


class StreamedDataParallel(nn.DataParallel):
    def scatter(self, inputs, kwargs, device_ids):
        for device in device_ids:
            _get_stream(device).synchronize()
        return super().scatter(inputs, kwargs, device_ids)
