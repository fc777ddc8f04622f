# Class (as train_device_count.py): `accelerator="cpu"`, in any Lightning version.
from pytorch_lightning import Trainer

from model import Net, loader

if __name__ == "__main__":
    trainer = Trainer(accelerator="cpu", max_epochs=10)
    trainer.fit(Net(), loader())
