# golden: optimizer=fp32-states
import torch
from neuronx_distributed.utils.adamw_fp32_optim_params import AdamW_FP32OptimParams

model = torch.nn.Linear(4, 4).to("xla")
model = model.to(torch.bfloat16)
optimizer = AdamW_FP32OptimParams(model.parameters(), lr=1e-3, eps=1e-8, weight_decay=1e-2)
