import deepspeed
import torch
import torch.distributed as dist


def main(args):
    dist.init_process_group("nccl")
    engine, optimizer, _, _ = deepspeed.initialize(
        args=args, model=model, model_parameters=model.parameters()
    )
    for x, y in loader:
        loss = engine(x, y)
        engine.backward(loss)
        engine.step()
        optimizer.step()


if __name__ == "__main__":
    main(parse())
