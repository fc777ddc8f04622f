import deepspeed
import torch
import torch.distributed as dist
import torch_xla.distributed.xla_backend


def main(args):
    dist.init_process_group("xla", init_method="xla://")
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
