import torch
import torch_xla

device = torch_xla.device()
use_amp = device.type == "xla"
scaler_on = "xla" in str(device)
plain = device.type != "cpu"
