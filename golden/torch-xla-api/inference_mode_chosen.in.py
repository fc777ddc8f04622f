# Class: inference mode chosen by a condition and called with no argument, as a decorator
# factory builds it (`(torch.inference_mode if new_torch else torch.no_grad)()(fn)`): called
# with no argument whichever branch is taken, so no_grad takes its place (twin: the choice
# returned uncalled, in inference_mode_argument, is reported).
import torch


def smart_inference_mode(new_torch=True):
    def decorate(fn):
        return (torch.inference_mode if new_torch else torch.no_grad)()(fn)

    return decorate


@smart_inference_mode()
def run(model, x):
    return model(x).sum().item()
