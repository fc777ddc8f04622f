import torch
import torch.multiprocessing as mp


def tokenize(rank, shards):
    torch.save(torch.tensor(shards[rank]), f"shard{rank}.pt")


# A data-preparation script: its workers never touch a device and nothing trains here.
if __name__ == "__main__":
    mp.spawn(tokenize, args=([[1, 2], [3, 4]],), nprocs=2)
