"""Trains on cuda when it can; "cuda" here is only text."""
import logging

import torch

log = logging.getLogger(__name__)
log.info("running on %s", "cuda")
backend_name = "cuda"
print(f"backend={backend_name}")
with torch.autocast(device_type="cuda", dtype=torch.bfloat16):
    pass
