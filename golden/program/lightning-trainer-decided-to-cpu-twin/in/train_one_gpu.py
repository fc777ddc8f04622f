# Twin (see train_auto.py): `gpus=1` asks for CUDA, and keeps CUDA's message.
import pytorch_lightning as pl

from model import Net, loader

if __name__ == "__main__":
    trainer = pl.Trainer(gpus=1, max_epochs=10)
    trainer.fit(Net(), loader())
