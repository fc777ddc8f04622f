# golden: select=TRN023,TRN046,TRN311
# Twin of identity_test_selects_cudnn_op and identity_test_selects_cuda_extension: ordinary
# device tests in a module with no CUDA kernel, whose function sets a cuDNN flag (a setting, not
# a test): what they guard runs on Trainium, so each becomes a test for the XLA device (TRN023).
import torch


def train_step(model, x, device):
    torch.backends.cudnn.benchmark = True
    use_amp = device.type == "cuda"
    with torch.autocast(device.type, dtype=torch.bfloat16, enabled=use_amp):
        loss = model(x).sum()
    loss.backward()
    if x.device.type == "cuda":
        torch.cuda.synchronize()
    return loss
