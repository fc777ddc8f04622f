"""torch-xla 2.9: CutMix's `validate` (clovaai/CutMix-PyTorch `train.py` and `test.py`), ported,
run on XLA:CPU with tiny synthetic data: a DataParallel ResNet-20 on the device fed a loader's
batch that the loop never moves (on CUDA DataParallel scattered it).

    python benchmarks/first_sight/run.py benchmarks/first_sight/batch-2026-12-06-g.toml \
        --mirrors /tmp/mirrors --only cutmix          # the port, in the first-sight cache
    cp -r <cache>/repos/cutmix /tmp/cm && cd /tmp/cm && git apply <cache>/results/cutmix/patch.diff
    PJRT_DEVICE=CPU python data_parallel_validate.py /tmp/cm
    # ported before TRN149: both raise `RuntimeError: Input type (torch.FloatTensor) and weight
    # type (XLAFloatType) should be the same`; with it (`input = input.to(device)` beside
    # `target = target.to(device)`, then the loop iterates `pl.MpDeviceLoader(val_loader,
    # device)` as the training loop does): both return (top-1 err, top-5 err, loss)
"""

import sys
import types

import torch
import torch_xla

repo = sys.argv[1]
sys.path.insert(0, repo)
import resnet  # noqa: E402
import test  # noqa: E402
import train  # noqa: E402

train.args = test.args = types.SimpleNamespace(epochs=1, print_freq=1, verbose=False)
data = torch.utils.data.TensorDataset(torch.randn(8, 3, 32, 32), torch.randint(0, 10, (8,)))
loader = torch.utils.data.DataLoader(data, batch_size=4)
model = torch.nn.DataParallel(resnet.ResNet("cifar10", 20, 10, False)).to(torch_xla.device())
criterion = torch.nn.CrossEntropyLoss().to(torch_xla.device())
for name, run in (
    ("train.py validate", lambda: train.validate(loader, model, criterion, 0)),
    ("test.py validate", lambda: test.validate(loader, model, criterion)),
):
    try:
        print(name, "->", run())
    except RuntimeError as error:
        print(name, "-> raises RuntimeError:", str(error).splitlines()[0][:120])
