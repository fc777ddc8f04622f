# Class: the inputs of a DDP model are unpacked from a batch the loop moved item by item
# (`batch = tuple(t.to(device) for t in batch)`, then `input_ids, mask, labels = batch`; the
# BERT fine-tuning scripts), or taken from it by index: each is on the device, so `device_ids`
# is dropped with nothing to move. Twin (ddp_inputs_unpacked_from_moved_batch_twin): the
# comprehension only pins the host memory, so the inputs may be on the CPU and it stays.
import torch
import torch.distributed as dist


def train(args, model, loader, optimizer, device):
    dist.init_process_group("nccl")
    model = torch.nn.parallel.DistributedDataParallel(
        model.to(device),
        device_ids=[args.local_rank],
        output_device=args.local_rank,
    )
    for batch in loader:
        batch = tuple(t.to(device) for t in batch)
        input_ids, mask, labels = batch
        loss = model(input_ids, mask, labels, token_types=batch[3])
        loss.backward()
        optimizer.step()
