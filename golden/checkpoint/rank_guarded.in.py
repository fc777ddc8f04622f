import torch
import torch.distributed as dist
import torch_xla.core.xla_model as xm


def save(model, args):
    if dist.get_rank() == 0:
        torch.save(model.state_dict(), "model.pt")
    if args.local_rank in (-1, 0):
        os.makedirs(args.output_dir, exist_ok=True)
        torch.save({"model": model.state_dict()}, "ckpt.pt")
    if xm.is_master_ordinal():
        torch.save(model.state_dict(), "xla.pt")
