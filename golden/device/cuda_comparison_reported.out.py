import torch
import torch_xla

device = torch_xla.device()
use_amp = device.type == "cuda"
scaler_on = "cuda" in str(device)
plain = device.type != "cpu"
