# Twin (see train_auto.py): a 1.x Trainer given no GPU by name, but `**options` the evaluator
# does not know may hold one: not claimed to be the CPU.
import json
import sys

import pytorch_lightning as pl

from model import Net, loader

if __name__ == "__main__":
    options = json.loads(sys.argv[1])
    trainer = pl.Trainer(progress_bar_refresh_rate=0, **options)
    trainer.fit(Net(), loader())
