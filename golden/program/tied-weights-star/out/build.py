# Class: a tying class bound by `from m import *` (TCN's word_cnn and lambada scripts), tied in
# `__init__` under a test of its parameter: made again after the move, in the caller's terms.
import torch_xla
from nets.utils import *
from nets.model import *


def build(tied):
    model = TCN(32, 8, tied_weights=tied)
    model.to(torch_xla.device())
    # moving to the XLA device unties shared weights: tie them again
    if tied:
        model.decoder.weight = model.encoder.weight
    return model
