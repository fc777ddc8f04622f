import torch

model = torch.compile(model, backend=args.compile_backend)
options = {"mode": "reduce-overhead"}
encoder = torch.compile(encoder, **options)
