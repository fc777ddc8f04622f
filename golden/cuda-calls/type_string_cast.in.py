# Class: a cast to another tensor's type string, `x.type(a.type())` (the FID Newton-Schulz
# square root's identity and zero matrices). On the XLA device `a.type()` is
# 'torch.xla.FloatTensor', which `Tensor.type()` rejects (ValueError), so the FID computation
# stops there: `x.to(a)` gives `a`'s device and dtype on every device. Found at first sight in
# a GAN repository (BigGAN's `inception_utils.sqrt_newton_schulz`, reached by training's FID).
# Twin: type_string_cast_twin (a cast to a dtype or a named type, and a type string printed).
import torch


def sqrt_newton_schulz(A, numIters, dtype=None):
    with torch.no_grad():
        if dtype is None:
            dtype = A.type()
        batchSize = A.shape[0]
        dim = A.shape[1]
        normA = A.mul(A).sum(dim=1).sum(dim=1).sqrt()
        Y = A.div(normA.view(batchSize, 1, 1).expand_as(A))
        I = torch.eye(dim, dim).view(1, dim, dim).repeat(batchSize, 1, 1).type(A.type())
        Z = torch.eye(dim, dim).view(1, dim, dim).repeat(batchSize, 1, 1).type(A.data.type())
        for i in range(numIters):
            T = 0.5 * (3.0 * I - Z.bmm(Y))
            Y = Y.bmm(T)
            Z = T.bmm(Z)
        sA = Y * torch.sqrt(normA).view(batchSize, 1, 1).expand_as(A)
    return sA


def sqrt_newton_schulz_held(A, numIters, dtype=None):
    # The string is held in a name a caller may also pass: reported, not rewritten.
    with torch.no_grad():
        if dtype is None:
            dtype = A.type()
        dim = A.shape[1]
        I = torch.eye(dim, dim).view(1, dim, dim).repeat(A.shape[0], 1, 1).type(dtype)
    return I
