# Class (bare_load_state_dict) in a module with no device of its own: a checkpoint helper a
# training script imports. Its load raises on a GPU run's checkpoint just the same.
import torch


def load_weights(model: torch.nn.Module, path: str) -> torch.nn.Module:
    state = torch.load(path)
    model.load_state_dict(state)
    return model


def load_whole(path: str) -> torch.nn.Module:
    return torch.load(path)  # a pickled model: left (loaded to "cpu" it would stay there)
