# golden: select=TRN00,TRN021,TRN022,TRN023,TRN024,TRN026,TRN046,TRN047,TRN143,TRN311,TRN312
# What a device test selects, not only what it guards, must run on Trainium, else the test is
# kept (TRN046, one finding at the test): nanochat's `torch.cuda.synchronize if ... else`, an fp8
# path in the else of a `!=` test, a flash-attention kernel, an NCCL group the tool does not
# make an XLA one (`device_id=`), and a test whose value is returned to callers it cannot see.
# What a kept test guards never runs on Trainium, so nothing in it changes (the set_device).
import torch
import torch.distributed as dist


def timers(device_type):
    synchronize = torch.cuda.synchronize if device_type == "cuda" else lambda: None
    get_max_memory = torch.cuda.max_memory_allocated if device_type == "cuda" else lambda: 0
    return synchronize, get_max_memory


def maybe_fp8(model, device_type):
    if device_type != "cuda":
        print("FP8 training requires CUDA, ignoring --fp8")
    else:
        from myproject.fp8 import convert_to_float8_training

        convert_to_float8_training(model)
    return model


def attention(q, k, v):
    if q.device.type == "cuda":
        from flash_attn import flash_attn_func

        return flash_attn_func(q, k, v, causal=True)
    return torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)


def init(ddp, device_type, local_rank):
    if ddp and device_type == "cuda":
        device = torch.device("cuda", local_rank)
        torch.cuda.set_device(device)
        dist.init_process_group(backend="nccl", device_id=device)
    else:
        device = torch.device(device_type)
    return device


def on_gpu(device):
    return device.type == "cuda"
