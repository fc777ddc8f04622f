import torch_xla.core.xla_model as xm

rank = xm.get_ordinal()  # noqa: TRN011
xm.mark_step()  # trncodemod: ignore[TRN012]
