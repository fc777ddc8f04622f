# A K-FAC preconditioner's eigendecomposition with torch.symeig, which torch 2.0 removed: the
# call raises RuntimeError on the target's torch (TRN057, a blocker, with what to call instead).
# The twin, removed_linalg_call_twin.in.py, calls the replacements and methods of the same name
# on other objects: nothing fires.
import torch


class KFACOptimizer(torch.optim.Optimizer):
    def _update_inv(self, aa, gg):
        d_a, Q_a = torch.symeig(aa, eigenvectors=True)
        d_g, Q_g = gg.symeig(eigenvectors=True)
        rank = torch.matrix_rank(aa)
        x, _ = torch.solve(gg, aa)
        return d_a, Q_a, d_g, Q_g, rank, x
