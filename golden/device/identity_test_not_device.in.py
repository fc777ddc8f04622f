import torch

# "cuda" compared with something that is not a device: a kernel backend name, a log field.
backend = "cuda"
if backend == "cuda":
    print("fast kernels")
record = {"platform": "cuda"}
is_gpu_run = record["platform"] == "cuda"
model = torch.nn.Linear(2, 2)
