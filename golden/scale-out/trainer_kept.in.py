# golden: scale-out=true select=TRN16,TRN141
from transformers import Trainer, TrainingArguments


def main(model, dataset):
    trainer = Trainer(model=model, args=TrainingArguments("out"), train_dataset=dataset)
    trainer.train()


if __name__ == "__main__":
    main(None, None)
