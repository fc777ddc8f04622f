import torch


def check_batch(model, batch_size):
    device = next(model.parameters()).device
    if device.type == "cpu":
        return batch_size
    properties = torch.cuda.get_device_properties(device)
    return int(properties.total_memory // 2**30)
