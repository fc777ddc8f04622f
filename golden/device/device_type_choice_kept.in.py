# golden: select=TRN00,TRN021,TRN022,TRN023,TRN024,TRN026,TRN046,TRN047
# The twin of device_type_choice: llm.c's LLaMA 3 script asserts the chosen type is in
# {"cuda"}, a test no rule rewrites; the type made "xla" would fail it on every device, so the
# choice is kept and the finding names the assert.
import torch

device = "cuda"
print(f"using device: {device}")
device_type = "cuda" if "cuda" in device else "cpu"
assert device_type in {"cuda"}, "GPU required to run LLaMA 3"
model = torch.nn.Linear(2, 2).to(device)
