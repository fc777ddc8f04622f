import torch

# nanoGPT: the dtype is bf16 wherever bf16 is supported, which Trainium is: the scaler, enabled
# only for float16, goes.
dtype = "bfloat16" if torch.cuda.is_available() and torch.cuda.is_bf16_supported() else "float16"
ptdtype = {"bfloat16": torch.bfloat16, "float16": torch.float16}[dtype]


def step(model, x, optimizer):
    with torch.autocast(device_type="xla", dtype=ptdtype):
        loss = model(x).sum()
    loss.backward()
    optimizer.step()
