import re

import torch

pattern = re.compile(r"\d+")
code = compile("x + 1", "<string>", "eval")
model.compile_summary = torch.zeros(1)
