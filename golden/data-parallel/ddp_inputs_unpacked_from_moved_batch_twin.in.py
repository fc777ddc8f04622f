# Twin of ddp_inputs_unpacked_from_moved_batch: the comprehension pins the batch in host memory
# rather than moving it, so the unpacked inputs may be on the CPU: `device_ids` stays, reported.
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
        batch = tuple(t.pin_memory() for t in batch)
        input_ids, mask, labels = batch
        loss = model(input_ids, mask, labels, token_types=batch[3])
        loss.backward()
        optimizer.step()
