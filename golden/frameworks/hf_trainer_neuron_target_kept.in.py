# golden: target=neuron
from transformers import Trainer

trainer = Trainer(model=model, args=args, train_dataset=train_ds)
trainer.train()
