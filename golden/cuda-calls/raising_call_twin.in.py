# Twin of raising_call: the same calls where they never run on Trainium (under
# `if torch.cuda.is_available():`, False there), and the allocator counters that return 0 or {}
# without CUDA (measured-cuda-raises): reported, no blocker.
import torch


def evaluate(net, loader):
    for images, _ in loader:
        net(images)
    if torch.cuda.is_available():
        print(torch.cuda.get_device_name(0))
        print(torch.cuda.memory_summary(), end="")
    print(torch.cuda.memory_stats().get("allocated_bytes.all.peak", 0))
    print(torch.cuda.max_memory_allocated() / 2**20)
