# Must not fire (TRN057's twin): the torch.linalg replacements, and methods named like removed
# torch functions on objects that are not tensors (a cvxpy problem's `solve`, NumPy's `eig`).
import numpy as np
import torch


def precondition(aa, gg, problem):
    d_a, Q_a = torch.linalg.eigh(aa, UPLO="U")
    rank = torch.linalg.matrix_rank(aa)
    x = torch.linalg.solve(aa, gg)
    w, v = np.linalg.eig(aa.numpy())
    problem.solve()
    return d_a, Q_a, rank, x, w, v
