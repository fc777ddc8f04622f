# golden: target=xla-2.1
import accelerate.utils

on_xla = accelerator.distributed_type == accelerate.utils.DistributedType.TPU
