import torch

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
use_amp = device.type == "cuda"
scaler_on = "cuda" in str(device)
plain = device.type != "cpu"
