# Class (as train_device_count.py): a Lightning 1.x Trainer (`progress_bar_refresh_rate` is a
# 1.x keyword, which 2.0 removed) given no GPU: 1.x's default accelerator is the CPU.
import pytorch_lightning as pl

from model import Net, loader

if __name__ == "__main__":
    trainer = pl.Trainer(max_epochs=10, progress_bar_refresh_rate=0)
    trainer.fit(Net(), loader())
