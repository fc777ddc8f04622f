# golden: select=TRN023,TRN046
# Class: a device test that selects a CUDA kernel the module builds through a helper of its own
# (StyleGAN2-ADA's bias_act.py: `custom_ops.get_plugin(sources=["bias_act.cpp", "bias_act.cu"])`
# behind `x.device.type == "cuda" and _init()`): made a test for "xla" it would build the plugin
# for XLA tensors. Kept and reported (TRN046); as written XLA tensors take `_bias_act_ref`
# (twin: identity_test_plain_twin).
import os

import torch

from . import custom_ops

_plugin = None


def _init():
    global _plugin
    if _plugin is None:
        _plugin = custom_ops.get_plugin(
            module_name="bias_act_plugin",
            sources=["bias_act.cpp", "bias_act.cu"],
            source_dir=os.path.dirname(__file__),
        )
    return True


def bias_act(x, b=None, act="linear", impl="cuda"):
    if impl == "cuda" and x.device.type == "cuda" and _init():
        return _plugin.bias_act(x, b, act)
    return _bias_act_ref(x, b, act)


def _bias_act_ref(x, b, act):
    x = x + b.reshape(1, -1, 1, 1) if b is not None else x
    return torch.nn.functional.leaky_relu(x, 0.2) if act == "lrelu" else x
