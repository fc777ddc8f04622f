# Twin (see train_auto.py): `gpus=0` beside a strategy, which may carry its own accelerator
# (neuronx-distributed's `NeuronXLAStrategy` does): not claimed to be the CPU.
import pytorch_lightning as pl
from neuronx_distributed.lightning import NeuronXLAStrategy

from model import Net, loader

if __name__ == "__main__":
    trainer = pl.Trainer(gpus=0, strategy=NeuronXLAStrategy(), max_epochs=10)
    trainer.fit(Net(), loader())
