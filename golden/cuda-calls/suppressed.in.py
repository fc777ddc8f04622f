import torch

torch.cuda.empty_cache()  # noqa: TRN312
torch.backends.cudnn.benchmark = True  # trncodemod: ignore[TRN313]
