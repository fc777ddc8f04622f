import torch


class MetricLogger:
    def __init__(self):
        self.meters = {}

    def synchronize(self):
        torch.cuda.synchronize()

    def update(self, **kwargs):
        for name, value in kwargs.items():
            if isinstance(value, torch.Tensor):
                value = value.item()
            self.meters.setdefault(name, []).append(value)


def _max_by_axis(sizes):
    largest = sizes[0]
    for size in sizes[1:]:
        largest = [max(a, b) for a, b in zip(largest, size)]
    return largest


def nested_tensor_from_tensor_list(images):
    size = _max_by_axis([list(img.shape) for img in images])
    batch = torch.zeros([len(images), *size])
    for img, pad in zip(images, batch):
        pad[: img.shape[0], : img.shape[1], : img.shape[2]].copy_(img)
    return batch


def collate_fn(batch):
    images, targets = zip(*batch)
    return nested_tensor_from_tensor_list(images), targets
