from torch.nn.parallel import DistributedDataParallel as DDP


def smart_ddp(model):
    return DDP(model, static_graph=True, gradient_as_bucket_view=True)
