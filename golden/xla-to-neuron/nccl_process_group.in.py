# golden: target=neuron
"""A GPU data-parallel script on the neuron target: NCCL is CUDA's; TorchNeuron's process group
backend is "neuron". A backend read from the command line is left alone."""
import torch.distributed as dist


def setup(args):
    dist.init_process_group(backend="nccl")


def setup_from_args(args):
    dist.init_process_group(backend=args.backend)


def setup_positional():
    dist.init_process_group("xla", "xla://")


def setup_nccl_or_gloo():
    # NCCL where there is one, else gloo: on Trainium neither, the whole choice is "neuron".
    dist.init_process_group(backend="nccl" if dist.is_nccl_available() else "gloo")
