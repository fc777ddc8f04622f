# Class: the device of an EMA copy chosen between the host and the library's default
# (`ModelEma(model, device="cpu" if args.model_ema_force_cpu else "")`): the empty string, as
# None, keeps the copy where the model is, so the choice decides no training device: no finding
# that the training device is unknown, and nothing rewritten.
# Twin: ema_device_host_or_default_twin.
import argparse

import torch
from timm.utils import ModelEma


def str2bool(v):
    return v.lower() in ("yes", "true", "1")


parser = argparse.ArgumentParser()
parser.add_argument("--model_ema_force_cpu", type=str2bool, default=False)
args = parser.parse_args()

model = torch.nn.Linear(8, 2).to("cuda")
model_ema = ModelEma(model, decay=0.999, device="cpu" if args.model_ema_force_cpu else "")
