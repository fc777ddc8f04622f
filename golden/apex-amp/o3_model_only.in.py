import torch
from apex import amp

model = amp.initialize(model, opt_level="O3")
