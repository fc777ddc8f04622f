import sys

import torch


def main(args):
    # Each of these lets the script go on without CUDA: nothing stops it on Trainium.
    assert torch.cuda.is_available() or args.cpu, "pass --cpu to train without a GPU"
    assert not torch.cuda.is_available() or torch.cuda.device_count() > 0
    if not torch.cuda.is_available():
        print("no GPU found, training on the CPU")
    if not torch.cuda.is_available():
        args.device = "cpu"
    if args.gpus:
        # Runs only with an explicit CUDA index, which a Trainium run does not pass.
        assert torch.cuda.is_available() and torch.cuda.device_count() >= len(args.gpus)
    model = torch.nn.Linear(4, 4).cuda()
    return model


if __name__ == "__main__":
    main(sys.argv)
