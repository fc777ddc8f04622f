from yacs.config import CfgNode as CN

_C = CN()
_C.DEVICE = "cuda"
_C.SOLVER = CN()
_C.SOLVER.LR = 0.01
_C.SOLVER.STEPS = 100


def get_cfg_defaults():
    return _C.clone()
