# Class: a tensor subclass whose `to` assigns what `super().to(*args, **kwargs)` returns to the
# new object's `.data`. On CUDA `set_data` takes a CUDA tensor for a CPU one; on the XLA device
# it raises (RuntimeError, incompatible tensor type), wherever the caller's arguments name the
# device. The device is the caller's, so the line is reported (TRN174, an error: it raises
# where it is called with the device), not rewritten. Found at first sight in a GAN repository
# (BigGAN's `Distribution.to`, called by `prepare_z_y(..., device)`: `train.py` stops there).
# Twin: data_move_forwarded_twin, a cast assigned to `.data`: not reported.
import torch
import torch_xla


class Distribution(torch.Tensor):
    def init_distribution(self, dist_type, **kwargs):
        self.dist_type = dist_type
        self.dist_kwargs = kwargs

    def to(self, *args, **kwargs):
        new_obj = Distribution(self)
        new_obj.init_distribution(self.dist_type, **self.dist_kwargs)
        new_obj.data = super().to(*args, **kwargs)
        return new_obj


def prepare_z(batch_size, dim_z, device="xla"):
    z_ = Distribution(torch.randn(batch_size, dim_z))
    z_.init_distribution("normal", mean=0, var=1.0)
    return z_.to(device, torch.float32)
