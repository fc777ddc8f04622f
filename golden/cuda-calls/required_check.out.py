import sys

import torch


def main(args):
    assert torch.cuda.is_available() and torch.cuda.device_count() >= 1
    model = torch.nn.Linear(4, 4).cuda()
    return model


if __name__ == "__main__":
    main(sys.argv)
