import torch

# A count read in place is the CUDA-call rules' business (TRN315), not this pass's.
if torch.cuda.device_count() > 1:
    print("several devices")
