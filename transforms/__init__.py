"""The passes, in the order the engine runs them on every file.

Installed as ``trncodemod.transforms`` (see ``pyproject.toml``): the folder is ``transforms/`` in
the repository, but no top-level ``transforms`` package is ever installed.

Order matters where one pass's output is another's input: device placement first (later passes
find ``.to(device)`` and training loops in their migrated form); API upgrades, mixed precision
and CUDA-only calls next; dtype and optimizer swaps; checkpoints and process utilities; the
inputs DataParallel scattered moved before the device loader, which may then iterate an
MpDeviceLoader where a loop now moves its whole batch; the device loader before the step marker,
so that a loop over an MpDeviceLoader never also gets a marker; padding; ``validate_args=False`` on the
``torch.distributions`` objects a step builds; then the ``.item()`` hoist, which may put logging into step closures; the step marker after every rewrite of the optimizer step; scale-out (``--scale-out``) before data
parallel, whose optimizer-step all-reduce it relies on; report-only diagnostics last, so they see the
migrated code. On the neuron target, torch-xla code is moved to TorchNeuron right after device
placement, so that the later passes see plain PyTorch.
"""

from __future__ import annotations

from trncodemod.transforms.amp import MixedPrecision
from trncodemod.transforms.amp_apex import ApexAmpPass
from trncodemod.transforms.amp_half import HalfModel
from trncodemod.transforms.buckets import PadToBuckets
from trncodemod.transforms.checkpoints import Checkpoints
from trncodemod.transforms.compiler_flags import CompilerFlags
from trncodemod.transforms.cpu_fallback import CpuFallbackDiagnostics
from trncodemod.transforms.cuda_calls import CudaOnlyCalls
from trncodemod.transforms.cuda_extensions import CudaExtensions, CudaLibraries
from trncodemod.transforms.data_parallel import DataParallel
from trncodemod.transforms.data_parallel_scatter import DataParallelScatter
from trncodemod.transforms.device import DevicePlacement
from trncodemod.transforms.device_loader import DeviceLoader
from trncodemod.transforms.device_missing import DeviceMissing
from trncodemod.transforms.distribution_validation import DistributionValidation
from trncodemod.transforms.float64 import Float64ToFloat32
from trncodemod.transforms.frameworks import Frameworks
from trncodemod.transforms.host_sync import HostSyncDiagnostics
from trncodemod.transforms.item_hoist import ItemHoist
from trncodemod.transforms.launchers import Launchers
from trncodemod.transforms.off_device import OffDevice
from trncodemod.transforms.optimizer import FusedOptimizers
from trncodemod.transforms.optimizer_order import OptimizerOrder
from trncodemod.transforms.process_utilities import ProcessUtilities
from trncodemod.transforms.recompilation import RecompilationDiagnostics
from trncodemod.transforms.scale_out import ScaleOutPass
from trncodemod.transforms.step_marker import StepMarker
from trncodemod.transforms.tied_weights import TiedWeights
from trncodemod.transforms.torch_compile import TorchCompile
from trncodemod.transforms.torch_imports import TorchImports
from trncodemod.transforms.torch_xla_apis import TorchXlaApis
from trncodemod.transforms.xla_to_neuron import XlaToNeuron

PASSES = (
    DevicePlacement,
    OptimizerOrder,
    DeviceMissing,
    TiedWeights,
    TorchImports,
    Launchers,
    TorchXlaApis,
    XlaToNeuron,
    ApexAmpPass,
    HalfModel,
    MixedPrecision,
    CudaOnlyCalls,
    CudaExtensions,
    Float64ToFloat32,
    FusedOptimizers,
    Checkpoints,
    ProcessUtilities,
    CompilerFlags,
    TorchCompile,
    Frameworks,
    DataParallelScatter,
    DeviceLoader,
    ScaleOutPass,
    DataParallel,
    # After the passes that rewrite a library's uses and drop its import (FusedAdam, bnb).
    CudaLibraries,
    PadToBuckets,
    DistributionValidation,
    ItemHoist,
    StepMarker,
    HostSyncDiagnostics,
    CpuFallbackDiagnostics,
    OffDevice,
    RecompilationDiagnostics,
)

__all__ = ["PASSES"]
