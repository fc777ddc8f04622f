import amp_C
import torch
from apex.multi_tensor_apply import multi_tensor_applier

norm, _ = multi_tensor_applier(amp_C.multi_tensor_l2norm, overflow_buf, [grads], False)
