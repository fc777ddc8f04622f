import torch
import torch_xla

device = torch.device("xla")
use_amp = device.type == "xla"
scaler_on = "xla" in str(device)
plain = device.type != "cpu"
