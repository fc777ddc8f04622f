from .fused_act import fused_leaky_relu
