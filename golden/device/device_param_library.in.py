# A library module: its callers choose the device, and it trains nothing: no blocker.
import torch


def to_device(batch: dict, device: torch.device) -> dict:
    return {key: value.to(device) for key, value in batch.items()}


def predict(model: torch.nn.Module, batch: dict, device: torch.device):
    with torch.no_grad():
        return model(**to_device(batch, device))
