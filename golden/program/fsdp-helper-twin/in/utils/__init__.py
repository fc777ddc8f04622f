from .train_utils import setup, train
