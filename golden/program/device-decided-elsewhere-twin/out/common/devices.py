import torch
import torch_xla

torch_device = "xla"
