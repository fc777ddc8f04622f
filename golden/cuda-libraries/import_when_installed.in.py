# Twin: an import of a library that needs CUDA only where it is installed (transformers'
# `is_flash_attn_2_available()`, diffusers' `is_xformers_available()`, `find_spec`): a
# Trainium host, which does not have it, never runs the import. Nothing to report.
import importlib.util

import torch
from transformers.utils import is_flash_attn_2_available

if is_flash_attn_2_available():
    from flash_attn import flash_attn_func


def enable(model, args):
    if args.enable_xformers_memory_efficient_attention:
        if is_xformers_available():
            import xformers

            model.enable_xformers_memory_efficient_attention()
    if importlib.util.find_spec("cupy") is not None:
        import cupy
    return torch.compile(model)
