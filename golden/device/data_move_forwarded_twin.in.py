# Twin of data_move_forwarded: the subclass's method assigns a cast to `.data` (a dtype, no
# device): `set_data` takes it on every device; not reported.
import torch


class Distribution(torch.Tensor):
    def half_precision(self):
        new_obj = Distribution(self)
        new_obj.data = super().to(torch.float16)
        return new_obj
