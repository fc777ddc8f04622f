# golden: select=TRN00,TRN021,TRN022,TRN023,TRN024,TRN026,TRN046,TRN047
# llm.c's device type chosen from the device: the test and the type it picks are rewritten
# together, so `device_type` follows whatever `device` holds (a user's "xla", or the "cuda" the
# autodetection keeps): never "xla" beside a CUDA device, nor "cpu" beside an XLA one.
import argparse

import torch
import torch_xla

parser = argparse.ArgumentParser()
parser.add_argument("--device", type=str, default="")
args = parser.parse_args()
if args.device:
    device = args.device
else:
    device = "cpu"
    if torch.cuda.is_available():
        device = "cuda"
print(f"using device: {device}")
device_type = "xla" if "xla" in device else "cpu"
ctx = torch.autocast(device_type=device_type, dtype=torch.bfloat16) if device_type == "xla" else None
