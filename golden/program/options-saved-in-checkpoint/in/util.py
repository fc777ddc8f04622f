# Class: a program that saves its parsed options (an argparse.Namespace) in its checkpoints and
# loads them back with torch.load: torch 2.6 and later default to weights_only=True, which
# refuses the Namespace (UnpicklingError on torch 2.9, benchmarks/xla_facts.py
# load_weights_only). The loads get weights_only=False (TRN063). Found at first sight in a
# contrastive-learning repository whose linear probe loads the pretraining's checkpoint.
# Twin: options-saved-in-checkpoint-twin.
import torch


def save_model(model, optimizer, opt, epoch, save_file):
    state = {
        "opt": opt,
        "model": model.state_dict(),
        "optimizer": optimizer.state_dict(),
        "epoch": epoch,
    }
    torch.save(state, save_file)
