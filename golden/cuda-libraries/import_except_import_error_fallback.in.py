# Twin: a `try` around an import of a library that needs CUDA whose `except ImportError:` (or
# `except Exception:`) falls back: a Trainium host takes the fallback. Nothing to report.
import torch

try:
    import xformers.ops as xops
except ImportError:
    xops = None

try:
    from flash_attn import flash_attn_func
except (ImportError, OSError):
    flash_attn_func = None


def attention(q, k, v):
    if xops is not None and q.is_cuda:
        return xops.memory_efficient_attention(q, k, v)
    return torch.nn.functional.scaled_dot_product_attention(q, k, v)
