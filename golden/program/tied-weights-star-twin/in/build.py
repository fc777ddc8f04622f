# Twin of tied-weights-star: a later `from m import *` binds another `TCN`, one that ties
# nothing: which class the name holds is not settled by the tying module, nothing is done.
import torch_xla
from nets.model import *
from nets.plain import *


def build(tied):
    model = TCN(32, 8, tied_weights=tied)
    model.to(torch_xla.device())
    return model
