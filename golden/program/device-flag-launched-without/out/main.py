import argparse

import torch
import torch.multiprocessing as mp
import torch_xla

from train import train

parser = argparse.ArgumentParser()
parser.add_argument("--cuda", action="store_true", default=False)
parser.add_argument("--num-processes", type=int, default=2)


if __name__ == "__main__":
    args = parser.parse_args()
    use_cuda = args.cuda
    if use_cuda:
        device = torch_xla.device()
    else:
        device = torch.device("cpu")
    model = torch.nn.Linear(4, 2).to(device)
    model.share_memory()
    processes = []
    for rank in range(args.num_processes):
        p = mp.Process(target=train, args=(rank, model, device))
        p.start()
        processes.append(p)
    for p in processes:
        p.join()
