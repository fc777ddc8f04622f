import torch


def wrap(args, model):
    """The model for this process: DDP over its local rank's GPU."""
    return torch.nn.parallel.DistributedDataParallel(
        model, device_ids=[args.local_rank], output_device=args.local_rank
    )
