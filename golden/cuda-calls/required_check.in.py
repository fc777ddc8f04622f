import sys

import torch


def main(args):
    assert torch.cuda.is_available(), "this script needs a GPU"
    assert torch.cuda.is_available() and torch.cuda.device_count() >= 1
    if not torch.cuda.is_available():
        print("no GPU found")
        sys.exit(1)
    if not torch.accelerator.is_available():
        raise RuntimeError("an accelerator is required")
    if args.device_type == "cuda":
        assert torch.cuda.is_available(), "CUDA is not available"
    model = torch.nn.Linear(4, 4).cuda()
    return model


if __name__ == "__main__":
    main(sys.argv)
