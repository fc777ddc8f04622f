# Twin of options-saved-in-checkpoint: the checkpoint holds the options as a plain dict
# (`vars(opt)`), which torch.load's weights_only default accepts: no load is changed.
import torch


def save_model(model, optimizer, opt, epoch, save_file):
    state = {
        "opt": vars(opt),
        "model": model.state_dict(),
        "optimizer": optimizer.state_dict(),
        "epoch": epoch,
    }
    torch.save(state, save_file)
