import torch

# The autocast dtype is computed and is float16 on Trainium: the fp16 path stays, so does the
# scaler (removing it would train fp16 without loss scaling).
dtype = "float16"
ptdtype = {"bfloat16": torch.bfloat16, "float16": torch.float16}[dtype]
scaler = torch.cuda.amp.GradScaler(enabled=(dtype == "float16"))


def step(model, x, optimizer):
    with torch.autocast(device_type="xla", dtype=ptdtype):
        loss = model(x).sum()
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()
