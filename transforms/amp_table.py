"""What the ``amp`` pass recognises, as data: the qualified names of CUDA and device-generic
autocast and GradScaler, the float16 and bfloat16 dtypes, autocast's positional parameters, the
gradient clipping calls, and the names that act wherever they are named. ``amp.py`` interprets
it.
"""

from __future__ import annotations

CUDA_AUTOCAST = frozenset({"torch.cuda.amp.autocast", "torch.cuda.amp.autocast_mode.autocast"})
AUTOCAST = frozenset({"torch.autocast", "torch.amp.autocast", "torch.amp.autocast_mode.autocast"})
CUDA_SCALER = frozenset({"torch.cuda.amp.GradScaler", "torch.cuda.amp.grad_scaler.GradScaler"})
SCALER = frozenset({"torch.amp.GradScaler", "torch.amp.grad_scaler.GradScaler"})
FP16 = frozenset({"torch.float16", "torch.half"})
BF16 = frozenset({"torch.bfloat16"})
# Positional parameters: torch.cuda.amp.autocast(enabled, dtype, cache_enabled) and
# torch.autocast(device_type, dtype, enabled, cache_enabled).
CUDA_PARAMS = ("enabled", "dtype", "cache_enabled")
PARAMS = ("device_type", "dtype", "enabled", "cache_enabled")
CLIP = frozenset({"torch.nn.utils.clip_grad_norm_", "torch.nn.utils.clip_grad_value_"})
ACTS_WHEREVER_NAMED = (
    CUDA_AUTOCAST
    | CUDA_SCALER
    | SCALER
    | frozenset({"torch.cuda.amp.custom_fwd", "torch.cuda.amp.custom_bwd"})
)
