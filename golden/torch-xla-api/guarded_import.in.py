# An optional torch_xla, as diffusers imports it: renaming `xm.mark_step()` would add a
# top-level `import torch_xla` and make it required, so it is reported, not rewritten.
import torch

from diffusers.utils import is_torch_xla_available

if is_torch_xla_available():
    import torch_xla.core.xla_model as xm

    XLA_AVAILABLE = True
else:
    XLA_AVAILABLE = False


def denoise(model, latents, steps):
    for _ in range(steps):
        latents = model(latents)
        if XLA_AVAILABLE:
            xm.mark_step()
    return latents
