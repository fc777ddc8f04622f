import torch
import torch.backends.cudnn as cudnn

torch.backends.cudnn.benchmark = True

# Determinism on GPU.
torch.backends.cudnn.deterministic = False
torch.backends.cuda.matmul.allow_tf32 = True
cudnn.allow_tf32 = True


def configure(args):
    if args.deterministic:
        cudnn.benchmark = not args.deterministic
    torch.backends.cudnn.enabled = bool(args.cudnn)
    return cudnn.benchmark
