"""What calls of libraries do, for the evaluator of the migrated program (issue 34): the facts'
calls (`torch.cuda.is_available()`, `torch_xla.device()`), `torch.device`, argparse (options,
defaults, the values launch lines give), `os.environ.get`, models and tensors moved by
`.to()`/`.cuda()`/`.cpu()`/`.type()`, optimizers, loaders (a `MpDeviceLoader` cuts the step),
wrappers (torch FSDP, DDP keeping `device_ids`), engines and launchers that run a function
(ignite's `Engine`, `mp.spawn`, `torch_xla.launch`), accelerate, transformers' `Trainer`.
A mix-in of ``analysis.evaluate.Evaluator``."""

from __future__ import annotations

import ast
import posixpath
import re
from collections.abc import Callable, Sequence
from dataclasses import replace

from trncodemod.analysis.abstract_values import (
    MOVED_BY,
    Bound,
    ClassRef,
    Const,
    Device,
    Dict,
    Each,
    External,
    Frame,
    Function,
    Launched,
    ModelCall,
    Obj,
    OneOf,
    Ref,
    Seq,
    Tensor,
    TensorType,
    Unknown,
    Value,
    Why,
    _code,
    _keep,
    _reason,
    _show,
    _split,
    _with_why,
    device_of_string,
    truth,
)
from trncodemod.analysis.config_files import FLAG_FILE_SUFFIXES, READ_FROM, config_path, parse
from trncodemod.analysis.training import dotted

_BOOL = External(name="bool")
# The word that stands for a `--flagfile` the tool could not read, followed by its path.
_UNREAD = "\0unread:"
# Calls that run a function once per process: `torch_xla.launch(fn)`, `xmp.spawn(fn, args)`.
_LAUNCHES = frozenset({"torch_xla.launch", "torch_xla.distributed.xla_multiprocessing.spawn"})
# torch.multiprocessing's: `spawn(fn, args=(), nprocs=1, ...)` starts `nprocs` processes.
_SPAWNS = frozenset({"torch.multiprocessing.spawn", "torch.multiprocessing.start_processes"})
_PROCESS_GROUPS = frozenset(
    {
        "torch.distributed.init_process_group",
        "torch.distributed.distributed_c10d.init_process_group",
    }
)


# tqdm's progress bars hand on what they wrap, whichever front end a script or notebook imports.
_PROGRESS_BARS = frozenset(
    f"tqdm.{front}tqdm" for front in ("", "std.", "auto.", "notebook.", "autonotebook.")
) | {"tqdm"}
_ITERATORS = frozenset({"enumerate", "zip", "iter", "list"}) | _PROGRESS_BARS


_WRAPPERS = frozenset({"DistributedDataParallel", "DataParallel", "XlaFullyShardedDataParallel"})


_ENGINES = ("ignite.engine.Engine", "ignite.engine.engine.Engine")


# Loaders of a configuration file's data (a safe YAML loader only: never one that builds objects).
# `yaml.load(f, Loader=...)` and `yaml.full_load` are read by the safe loader too: a file it
# cannot read (a `!!python/...` tag) stays undecided.
_CONFIG_LOADERS = frozenset(
    {"json.load", "json.loads", "yaml.safe_load", "yaml.load", "yaml.full_load"}
    | {"omegaconf.OmegaConf.load"}
)
# Dicts whose keys are also their attributes, at every level.
_ATTRIBUTE_DICTS = frozenset({"easydict.EasyDict", "omegaconf.OmegaConf.create"})
_FRAMEWORK_CLASSES = frozenset({"Trainer", "Seq2SeqTrainer", "SFTTrainer"})
# Hydra's factory: `instantiate(config, **kwargs)` imports the config's `_target_` and calls it
# with the config's other fields and the keyword arguments given, which win
# (hydra/_internal/instantiate/_instantiate2.py at v1.3.2, `instantiate` and `_call_target`).
# Keys Hydra reads itself (`_recursive_`, `_convert_`, `_args_`) are not handed on; with
# `_partial_` it returns a partial, not the object.
_LIGHTNING_TRAINERS = (
    "pytorch_lightning.Trainer",
    "lightning.Trainer",
    "lightning.pytorch.Trainer",
)
_FACTORIES_OF_TARGETS = frozenset(
    {"hydra.utils.instantiate", "hydra._internal.instantiate._instantiate2.instantiate"}
)


# torchtext's own iterators (`torchtext.data` before 0.9, `torchtext.legacy.data` to 0.11) make
# each batch's tensors on their `device=` argument, the CPU when it is left out or an int
# (pytorch/text `torchtext/legacy/data/iterator.py`, 0.9 to 0.11: `Iterator.__init__`, and
# `yield Batch(minibatch, self.dataset, self.device)`); a batch holds its fields as attributes
# (`batch.src`).
_FIELD_ITERATORS = frozenset(
    f"torchtext.{package}data.{name}"
    for package in ("", "legacy.")
    for name in ("Iterator", "BucketIterator", "BPTTIterator")
)


_TENSOR_FACTORIES_PREFIX = ("torch.",)


_FACTORIES = frozenset(
    {"randn", "rand", "randint", "zeros", "ones", "empty", "full", "tensor", "arange"}
    | {"as_tensor", "from_numpy", "linspace", "eye", "randperm", "normal"}
)


def _lightning_cuda(name: str, kwargs: dict[str, Value]) -> str:
    """What in a Lightning `Trainer`'s arguments asks for CUDA, as said; "" if none, and for an
    `accelerator="gpu"` spelled in the call, which TRN158 reports with its fix."""
    if not name.startswith(("pytorch_lightning.", "lightning.")):
        return ""
    accelerator, gpus = kwargs.get("accelerator"), kwargs.get("gpus")
    for key, value in (("accelerator", accelerator), ("gpus", gpus)):
        if (
            isinstance(value, Seq)
            and value.items
            and all(isinstance(v, Const) for v in value.items)
        ):
            value = value.items[0]  # `gpus: [1]`
        elif isinstance(value, Seq):
            continue
        if not isinstance(value, Const) or value.value in (None, 0, "", False, "0", "cpu"):
            continue
        if key == "accelerator" and value.value not in ("gpu", "cuda"):
            continue
        if value.why:  # decided away from the call (a config file)
            return str(value.why[-1])
        if key == "gpus":  # spelled `gpus=1` (Lightning 1.x); a spelled accelerator is TRN158's
            return f"`gpus={value.value!r}`"
    return ""


# Keywords of Lightning 1.x's `Trainer` that 2.0 removed (a 2.x `Trainer` refuses them): a call
# that passes one is a 1.x Trainer, whose `accelerator` defaults to None, the CPU ("default used
# by the Trainer (ie: train on CPU) `Trainer(gpus=None)`, equivalent `Trainer(gpus=0)`",
# [lightning-1x-trainer]); 2.x defaults to `accelerator="auto"`, which probes the machine.
_LIGHTNING_1X = frozenset(
    {"gpus", "tpu_cores", "ipus", "hpus", "num_processes", "auto_select_gpus"}
    | {"resume_from_checkpoint", "amp_backend", "amp_level", "move_metrics_to_cpu"}
    | {"multiple_trainloader_mode", "track_grad_norm", "replace_sampler_ddp"}
    | {"auto_lr_find", "auto_scale_batch_size", "weights_save_path", "checkpoint_callback"}
    | {"flush_logs_every_n_steps", "progress_bar_refresh_rate", "weights_summary"}
    | {"stochastic_weight_avg", "terminate_on_nan", "process_position"}
    | {"prepare_data_per_node", "log_gpu_memory", "distributed_backend", "truncated_bptt_steps"}
)
# Arguments that may pick a device other than the CPU in 1.x: a strategy or plugin may carry its
# own accelerator (neuronx-distributed's `NeuronXLAStrategy`), `devices` another device's count.
_LIGHTNING_DEVICE_KEYS = ("strategy", "plugins", "devices", "tpu_cores", "ipus", "hpus")
_NO_GPUS = (None, 0, "", "0", False)


def _lightning_cpu(name: str, kwargs: dict[str, Value], node: ast.Call) -> str:
    """Why a Lightning `Trainer`'s arguments keep its loop on the CPU, as said; "" where they do
    not, or may not: `accelerator="cpu"`, or a Lightning 1.x Trainer (one of its own keywords is
    passed) with no GPUs (`gpus` left out, None or 0, as `torch.cuda.device_count()` is on the
    target) and nothing else that picks a device. A Trainer with no device argument at all may
    be 2.x, whose `"auto"` accelerator is not known here."""
    if not name.startswith(("pytorch_lightning.", "lightning.")):
        return ""
    accelerator = kwargs.get("accelerator", Const())
    if accelerator != Const():  # given, and not None
        if not isinstance(accelerator, Const) or accelerator.value != "cpu":
            return ""
        return (
            f"`accelerator='cpu'`: {accelerator.why[-1]}"
            if accelerator.why
            else "`accelerator='cpu'`"
        )
    if any(k.arg is None for k in node.keywords):
        return ""  # `**options`: what it holds may pick a device
    if not _LIGHTNING_1X.intersection(kwargs):
        return ""
    if any(kwargs.get(key, Const()) != Const() for key in _LIGHTNING_DEVICE_KEYS):
        return ""
    gpus = kwargs.get("gpus")
    if gpus is None:
        return "no `gpus`, and Lightning 1.x's default accelerator is the CPU"
    if isinstance(gpus, Seq) and not gpus.items:
        return "`gpus=[]`"
    if not isinstance(gpus, Const) or gpus.value not in _NO_GPUS:
        return ""
    return f"`gpus={gpus.value!r}`" + _said_where(gpus)


def _said_where(value: Value) -> str:
    return ": " + "; ".join(str(w) for w in value.why) if value.why else ""


# A BatchNorm layer (its class's name) and one spelled as a call in a class's source.
_BATCHNORM = re.compile(r"(^|\.)(Sync)?BatchNorm[123]?d?$")
_BATCHNORM_CALL = re.compile(r"\b(nn\.|torch\.nn\.)?(Sync)?BatchNorm[123]d\(")
# torchvision models built with BatchNorm layers.
_BN_MODELS = re.compile(
    r"(^|\.)(resnet\d+|resnext\w+|wide_resnet\w+|densenet\d+|mobilenet\w*|efficientnet\w*"
    r"|inception_v3|googlenet|regnet\w+|shufflenet\w+|mnasnet\w+|vgg\d+_bn)$"
)


def _builds_model(name: str) -> bool:
    """A library's model: `torch.nn.Linear(...)`, `torchvision.models.resnet18()`,
    `AutoModel.from_pretrained(...)`, `timm.create_model(...)`."""
    last = name.rsplit(".", 1)[-1]
    if name.startswith("torch.nn.") and last[:1].isupper() and ".functional" not in name:
        return True
    if name.startswith("torchvision.models."):
        return True
    if name.startswith("transformers.") and last == "from_pretrained":
        return True
    return name in ("timm.create_model",)


_NO_OBJ = Obj("")
# The class names optimizer packages give (`Lion`, `MuonAdamAtan2`, `AdamW8bit`, `Adafactor`).
# Calls that start a child process, which may run the program again.
_CHILD_LAUNCHES = ("subprocess.", "os.system", "os.exec", "os.spawn", "os.posix_spawn")
_OPTIMIZER_NAME = re.compile(
    r"^(?:[A-Z]\w*)?(Adam|SGD|Lion|Muon|Optim|Adafactor|Lamb|Sophia|Shampoo|Prodigy)"
)
_MAKES_PARAMETERS = re.compile(
    r"\bnn\.[A-Z]\w*\(|\bParameter\(|register_buffer\(|register_parameter\(|\btorch\.nn\.[A-Z]"
)


def _makes_parameters(source: str) -> bool:
    """A class whose source builds a module or a parameter of its own (`nn.Linear(...)`,
    `nn.Parameter(...)`, a buffer); any other class of the program counts as making none only
    where its source holds none of these."""
    return not source or bool(_MAKES_PARAMETERS.search(source))


def _unmoved(place: Value | None) -> bool:
    """A model's place as it was built: on the CPU, and nothing moved it since."""
    return isinstance(place, Device) and place.kind == "cpu" and len(place.why) <= 1


def _is_loss(obj: Obj) -> bool:
    """A loss module: `nn.CrossEntropyLoss()`, a class of the program named `*Loss`/`*Criterion`."""
    name = obj.cls.name if obj.cls is not None else obj.spelled.split("(", 1)[0]
    return name.rsplit(".", 1)[-1].endswith(("Loss", "Criterion", "Loss2d"))


# `pack_padded_sequence(input, lengths)` takes its lengths on the CPU ("must be on the CPU if
# provided as a tensor", torch.nn.utils.rnn at v2.9.0; it moves a device tensor back itself,
# measured in benchmarks/xla_facts.py `packed_sequences`): a value used only there is no input
# the step needs on the device.
_HOST_LENGTHS = frozenset({"pack_padded_sequence"})


def _forward_conversion(cls: ClassRef | None, param: str) -> ast.expr | None:
    """The value ``forward`` first rebinds its parameter ``param`` to, where that is its first
    use and reads nothing of ``self`` (`x = to_tensor(x).float()`); else None."""
    forward = _forward_of(cls)
    if forward is None:
        return None
    for statement in forward.body:
        used = any(isinstance(n, ast.Name) and n.id == param for n in ast.walk(statement))
        if not used:
            continue
        if (
            isinstance(statement, ast.Assign)
            and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name)
            and statement.targets[0].id == param
            and isinstance(statement.value, ast.Call)
            and not any(isinstance(n, ast.Name) and n.id == "self" for n in ast.walk(statement))
        ):
            return statement.value
        return None
    return None


def _forward_of(cls: ClassRef | None) -> ast.FunctionDef | None:
    node = cls.node if cls is not None else None
    return next(
        (
            s
            for s in (node.body if node is not None else ())
            if isinstance(s, ast.FunctionDef) and s.name == "forward"
        ),
        None,
    )


def _forward_params(cls: ClassRef | None) -> tuple[list[str], frozenset[str]]:
    """The positional parameters of the class's own ``forward`` (after ``self``), and those of
    them it uses only as the ``lengths`` of a packing call (``x.cpu()``/``x.tolist()`` there
    included)."""
    forward = _forward_of(cls)
    if forward is None:
        return [], frozenset()
    params = [a.arg for a in forward.args.args][1:]
    lengths: set[int] = set()  # ids of the Name nodes used as a packing call's lengths
    for call in ast.walk(forward):
        if not isinstance(call, ast.Call):
            continue
        func = call.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
        if name not in _HOST_LENGTHS:
            continue
        given = [*call.args[1:2], *(k.value for k in call.keywords if k.arg == "lengths")]
        for value in given:
            if (
                isinstance(value, ast.Call)
                and isinstance(value.func, ast.Attribute)
                and value.func.attr in ("cpu", "tolist")
            ):
                value = value.func.value
            if isinstance(value, ast.Name):
                lengths.add(id(value))
    uses: dict[str, list[ast.Name]] = {}
    for found in ast.walk(forward):
        if isinstance(found, ast.Name) and found.id in params:
            uses.setdefault(found.id, []).append(found)
    host_only = frozenset(p for p, found in uses.items() if all(id(n) in lengths for n in found))
    return params, host_only


def _tensors(value: Value, spelled: str) -> list[tuple[str, Value]]:
    """The tensors an argument holds, each with where it is; a value the evaluator did not
    follow may be one, so it is undecided too."""
    if isinstance(value, Tensor):
        return [(spelled, value.place)]
    if isinstance(value, Unknown):
        return [] if value.host else [(spelled, value)]
    if isinstance(value, Seq):
        return [item for v in value.items for item in _tensors(v, spelled)]
    return []


def is_dataclass(node: ast.ClassDef) -> bool:
    """Whether the class is decorated `@dataclass` (`dataclasses.dataclass(frozen=True)`, ...)."""
    return any(
        (dotted(d.func if isinstance(d, ast.Call) else d) or "").endswith("dataclass")
        for d in node.decorator_list
    )


def _settings(words: Sequence[str]) -> set[tuple[str, str]]:
    """The options a launch line sets after its script, each with its value
    (`--dataset csv` and `--dataset=csv` alike; a bare flag with "")."""
    start = next((i + 1 for i, w in enumerate(words) if w.endswith(".py")), 0)
    found: set[tuple[str, str]] = set()
    rest = list(words[start:])
    for index, word in enumerate(rest):
        if not word.startswith("-"):
            continue
        name, eq, value = word.partition("=")
        if not eq and index + 1 < len(rest) and not rest[index + 1].startswith("-"):
            value = rest[index + 1]
        found.add((name, value))
    return found


def _typed(text: str, kind: Value | None) -> Value:
    if isinstance(kind, External) and kind.name == "bool":
        # `--flag false`, `--flag=True`; a bare `--flag` (the next word another option) is on.
        lowered = text.strip("\"'").lower()
        return Const(value=lowered not in ("false", "0", "no", "n", "f"))
    if isinstance(kind, External) and kind.name in ("int", "float"):
        try:
            return Const(value=_BUILTIN_TYPES[kind.name](text))
        except ValueError:
            return Unknown()
    if text.startswith(("$", "`", "<", "{", "[")) or text.endswith((">", "}", "]")):
        # `$LR`, `<TYPE>`, `{gan_type}`: a placeholder, set where the command is run
        return Unknown(reason=f"`{text}` is set outside the program")
    return Const(value=text.strip("\"'"))


def _tensor_isinstance(kind: Value) -> bool | None:
    """`isinstance(x, kind)` of a tensor ``x``: True for `torch.Tensor` (or a tuple holding it),
    False for NumPy's arrays and numbers; None where ``kind`` is something else."""
    kinds = kind.items if isinstance(kind, Seq) else (kind,)
    names = [k.name if isinstance(k, External) else "" for k in kinds]
    if any(n in ("torch.Tensor", "torch.nn.Parameter") for n in names):
        return True
    if names and all(n.startswith("numpy.") or n in _BUILTIN_TYPES for n in names):
        return False
    return None


def _fire_command(words: list[str], entry: str) -> tuple[str, dict[str, Value]]:
    """The command and the keyword arguments a launch line gives `fire.Fire` after the script:
    `python train.py train --env=voc --plot-every 100` is ("train", {env, plot_every})."""
    script = posixpath.basename(entry)
    start = next((i + 1 for i, w in enumerate(words) if posixpath.basename(w) == script), 0)
    rest = words[start:]
    command = ""
    options: dict[str, Value] = {}
    index = 0
    while index < len(rest):
        word = rest[index]
        index += 1
        if not word.startswith("--"):
            command = command or word
            continue
        key, eq, text = word[2:].partition("=")
        if not eq:
            following = rest[index] if index < len(rest) else "-"
            text = "True" if following.startswith("-") else following
            index += 0 if following.startswith("-") else 1
        try:
            value: Value = Const(value=ast.literal_eval(text))
        except (ValueError, SyntaxError):
            value = _typed(text, None)
        options[key.replace("-", "_")] = value
    return command, options


_BUILTIN_TYPES: dict[str, Callable] = {"bool": bool, "str": str, "int": int, "float": float}

_CHAINING = frozenset(
    {"train", "eval", "apply", "share_memory", "half", "float", "double", "bfloat16"}
    | {"requires_grad_", "zero_grad", "load_state_dict", "register_buffer"}
)


class LibraryCalls:
    """The evaluator's calls of libraries and methods of their objects."""

    def _move(self, value: Value, kind_of: Value, at: str, node, frame) -> Value:
        """``value.to(kind_of)``: where the result is (a Device, or Unknown)."""
        if isinstance(kind_of, Device):
            return kind_of
        if isinstance(kind_of, TensorType):
            return Device(kind=kind_of.kind, spelled=kind_of.spelled, why=kind_of.why)
        if isinstance(kind_of, Const) and isinstance(kind_of.value, str):
            return Device(
                kind=device_of_string(kind_of.value, self.facts),
                spelled=kind_of.value,
                why=kind_of.why,
            )
        if isinstance(kind_of, Tensor):
            return kind_of.place
        if isinstance(kind_of, Unknown) and kind_of.reason.startswith("prefix:"):
            return Device(kind=device_of_string(kind_of.reason[7:] or "?", self.facts))
        if isinstance(kind_of, Const) and isinstance(kind_of.value, int):
            return Device(kind="cuda", spelled=str(kind_of.value))
        if isinstance(kind_of, External):
            return Device(kind="dtype")  # a dtype: the place stays
        if isinstance(kind_of, Unknown) and kind_of.at:
            return kind_of
        return Unknown(at=at, reason=_reason(kind_of) or f"`{_code(node, frame, self)}`")

    def _inputs(self, args, kwargs, node, frame, cls=None) -> list[tuple[str, Value]]:
        """The tensors a call of a model (of class ``cls``, where known) hands it, each with its
        spelling and where it is; not those its ``forward`` keeps on the host (pack lengths)."""
        inputs = []
        params, host_only = _forward_params(cls)
        for index, value in enumerate(args):
            if index < len(params) and params[index] in host_only:
                continue
            if index < len(params) and self._converted_by_forward(cls, params[index], value):
                continue
            spelled = _code(node.args[index], frame, self) if index < len(node.args) else "*args"
            inputs.extend(_tensors(value, spelled))
        for key, value in kwargs.items():
            if key not in host_only:
                inputs.extend(_tensors(value, key))
        return inputs

    def _converted_by_forward(self, cls: ClassRef | None, param: str, value: Value) -> bool:
        """Whether the class's ``forward`` first rebinds ``param`` to what the evaluator shows
        on the accelerator (`rois = at.totensor(rois).float()`, a helper that moves it): the
        caller may hand a host array or a CPU tensor."""
        found = _forward_conversion(cls, param)
        if cls is None or found is None:
            return False
        env = self.loaded.get(cls.path)
        if env is None:
            env = self._load(cls.path) or {}
        converted = self._expr(found, Frame(cls.path, {param: value}, env))
        return (
            isinstance(converted, Tensor)
            and isinstance(converted.place, Device)
            and converted.place.kind == "accelerator"
        )

    def _model_call(self, ref: Ref, obj: Obj, args, kwargs, at, node, frame) -> Value:
        inputs = self._inputs(args, kwargs, node, frame, obj.cls)
        mode = obj.attrs.get("__eval__")
        eval_at = mode.value if isinstance(mode, Const) and isinstance(mode.value, str) else ""
        self.trace.calls.append(
            ModelCall(
                at,
                ref.id in self.trained,
                self._current_loops,
                _code(node.func, frame, self),
                obj.place or Unknown(at=at),
                tuple(inputs),
                obj.wrapped,
                obj.built,
                _is_loss(obj),
                eval_at,
                self._batchnorm(obj, set()) if eval_at else "",
                len(self.trace.events),
            )
        )
        return Tensor(place=obj.place or Unknown(at=at))

    def _model_call_unfollowed(self, func: Tensor, args, kwargs, at, node, frame) -> Value:
        """A call of a module the evaluator did not follow, which a move put on a decided
        device: its inputs are checked, and its output is where it was moved."""
        inputs = self._inputs(args, kwargs, node, frame)
        spelled = _code(node.func, frame, self)
        call = ModelCall(at, False, self._current_loops, spelled, func.place, tuple(inputs))
        self.trace.calls.append(call)
        return Tensor(place=func.place)

    def _tensor_method(self, target: Tensor, name, args, kwargs, at, node, frame) -> Value:
        if name == "to":
            goal = kwargs.get("device", args[0] if args else None)
            if goal is None:
                return target
            place = self._move(target, goal, at, node, frame)
            if isinstance(place, Device) and place.kind == "dtype":
                return target
            if isinstance(place, Device) and place.kind != "accelerator":
                # Where the tensor was sent, for a verdict that names the move.
                move = Why(*_split(at), f"{MOVED_BY}`{_code(node, frame, self)}`")
                place = replace(place, why=_keep((*place.why, move)))
            return Tensor(place=place)
        if name == "cuda":
            self._uses_cuda(frame, node)
            return Tensor(place=Device(kind="cuda", spelled=".cuda()"))
        if name == "cpu":
            return Tensor(place=Device(kind="cpu", spelled=".cpu()"))
        if name == "type" and args:
            kind = args[0]
            if isinstance(kind, TensorType):
                return Tensor(place=Device(kind=kind.kind, spelled=kind.spelled, why=kind.why))
            return Tensor(place=Unknown(at=at, reason=_reason(kind)))
        if name in ("item", "tolist", "numpy", "size", "dim", "numel", "nelement", "stride"):
            return Unknown(at=at, host=True)  # a number on the host, not a tensor
        return target

    def _uses_cuda(self, frame, node) -> None:  # type: ignore[no-untyped-def]
        """A move to CUDA on the launch path, as the program is written (no condition the run
        left open around it): without CUDA it raises, so the original does not run there."""
        if not self._undecided:
            self._event("cuda", frame, node)

    def _object_method(self, ref: Ref, obj: Obj, name, args, kwargs, at, node, frame) -> Value:
        if name in _YACS_METHODS and self._is_yacs(obj):
            return self._yacs_method(ref, obj, name, args, at)
        if obj.kind == "file":
            return obj.attrs["__text__"] if name == "read" and not args else Unknown(at=at)
        if obj.kind == "path":  # `Path(args.config).read_text()`, `.open()`
            if name == "read_text":
                found = self._config_text(obj.attrs["__path__"], at)
                return found if isinstance(found, Unknown) else found[1]
            if name == "open":
                return self._opened([obj.attrs["__path__"], *args], kwargs, at)
            return Unknown(at=at)
        if obj.kind == "model":
            if name in ("to", "cuda", "cpu", "type"):
                if name == "cuda":
                    goal: Value = Device(kind="cuda", spelled=".cuda()")
                elif name == "cpu":
                    goal = Device(kind="cpu", spelled=".cpu()")
                else:
                    value = kwargs.get("device", args[0] if args else None)
                    if value is None:
                        return ref
                    goal = self._move(ref, value, at, node, frame)
                if isinstance(goal, Device) and goal.kind == "dtype":
                    return ref
                if isinstance(goal, Device) and goal.kind == "cuda":
                    self._uses_cuda(frame, node)
                if name != "cpu":
                    self._event("model-move", frame, node)  # the program places its model
                why = (*frame.under, Why(*_split(at), f"`{_code(node, frame, self)}`"))
                obj.place = (
                    replace(goal, why=_keep((*goal.why, *why)))
                    if isinstance(goal, Device)
                    else goal
                )
                self._place_submodules(obj, {ref.id})
                self._place_thin_wrappers(ref, obj.place)
                return ref
            if name == "forward":
                # `model.forward(x)` of a module whose `forward` is not the program's (a library
                # model, under DDP or not): a call of the model, as `model(x)` is.
                return self._model_call(ref, obj, args, kwargs, at, node, frame)
            if name in ("parameters", "named_parameters"):
                return Seq(items=(ref,))  # the model's parameters, for an optimizer
            if name == "eval" and not args:
                self._set_mode(obj, at, {ref.id})
            elif name == "train":
                mode = kwargs.get("mode", args[0] if args else Const(value=True))
                if isinstance(mode, Const) and isinstance(mode.value, bool):
                    self._set_mode(obj, "" if mode.value else at, {ref.id})
                else:
                    self._set_mode(obj, "", {ref.id})  # undecided: not shown in eval mode
            if name in _CHAINING:
                return ref
            return Unknown(at=at)
        if obj.kind == "parser":
            return self._parser_method(ref, obj, name, args, kwargs, at, frame)
        if obj.kind == "buffer" and name in ("sample", "get"):
            # Its samples are tensors on the buffer's device (`batch.observations`).
            return self._new(Obj("batch", place=obj.place, built=at))
        if obj.kind == "hf_parser" and name == "parse_args_into_dataclasses":
            classes = obj.attrs["__classes__"]
            assert isinstance(classes, Seq)
            return Seq(
                items=tuple(self._dataclass_cli(c, "hf", at, node, frame) for c in classes.items)
            )
        if obj.kind == "optimizer" and name == "step":
            self._event("optimizer", frame, node)
            self._stale_parameters(ref, obj, frame, node)
            return Const()
        if obj.kind == "engine" and name == "run" and args:
            callback = obj.attrs.get("__process__")
            if callback is not None:
                loops = self._current_loops
                self._current_loops = (*loops, next(self._ids))
                try:
                    self._apply(callback, [ref, self._element(args[0])], {}, at, node, frame)
                finally:
                    self._current_loops = loops
            return Unknown(at=at)
        if obj.kind == "executor" and name == "submit" and args:
            # submitit runs `fn(*args, **kwargs)` as the job (a SLURM task per process): the
            # launch path goes on into it.
            self._apply(args[0], list(args[1:]), kwargs, at, node, frame)
            return Unknown(at=at)
        if obj.kind == "process" and name == "start":
            callback = obj.attrs.get("__target__")
            params = obj.attrs.get("__args__")
            if callback is not None:
                items = list(params.items) if isinstance(params, Seq) else []
                self._apply(callback, items, {}, at, node, frame)
            return Const()
        if obj.kind == "framework" and name in ("train", "fit"):
            self._event("framework", frame, node, obj.spelled, obj.on_cpu)
            return Unknown(at=at)
        if obj.kind == "accelerator" and name == "prepare":
            return self._prepared(args, at, obj.attrs.get("device"))
        if obj.kind == "accelerator" and name == "skip_first_batches" and args:
            # A loader of the same kind: on XLA accelerate wraps the skipping loader in its
            # MpDeviceLoaderWrapper again (accelerate/data_loader.py, `skip_first_batches`:
            # `DistributedType.XLA`), so a prepared loader still cuts each batch.
            return args[0]
        if obj.kind == "accelerator" and name == "backward":
            self._event("backward", frame, node)
            return Const()
        return Unknown(at=at)

    def _stale_parameters(self, ref: Ref, optimizer: Obj, frame, node) -> None:
        """An optimizer that took a model's parameters on the CPU, stepped after the model was
        moved to the accelerator: `module.to(xla)` gives the module new parameters (their types
        are not compatible for a shallow copy, torch/nn/modules/module.py `_apply`), so the
        optimizer steps the CPU tensors the model no longer uses and nothing trains (measured,
        benchmarks/xla_facts.py `optimizer_before_move`). On CUDA `.cuda()` keeps them."""
        for model_id, then in self.held_parameters.get(ref.id, ()):
            model = self.heap.get(model_id)
            now = model.place if model is not None else None
            if not (
                isinstance(then, Device)
                and then.kind == "cpu"
                and isinstance(now, Device)
                and (now.kind in ("accelerator", "cuda") or _chosen_by_availability(now))
            ):
                continue
            # Where the move was (the last decision of the model's place: its own `.to()`, or
            # that of a module holding it): as written, or once the port makes CUDA (or the
            # device an availability check chose, `"cuda" if torch.cuda.is_available() else
            # "cpu"`) the accelerator, the optimizer built before it steps parameters the model
            # dropped.
            moved = now.why[-1] if now.why else None
            if moved is not None:
                where = f"{optimizer.built}|{moved.path}:{moved.line}"
                self._event("moved-after-optimizer", frame, node, where)
            if now.kind == "accelerator":
                spelled = model.spelled or "the model"  # type: ignore[union-attr]
                self._event("stale", frame, node, f"{optimizer.built}|{spelled}")
            return

    def _saved_options(self, value: Value, seen: set[int]) -> str:
        """Where the parsed options in ``value`` (a checkpoint's dict) were made, "" if none."""
        if isinstance(value, Dict):
            for _, item in value.items:
                found = self._saved_options(item, seen)
                if found:
                    return found
        if isinstance(value, Seq):
            for item in value.items:
                found = self._saved_options(item, seen)
                if found:
                    return found
        if isinstance(value, Ref) and value.id not in seen:
            seen.add(value.id)
            obj = self.heap.get(value.id)
            if obj is not None and obj.kind == "namespace":
                return obj.built or "the parsed options"
        return ""

    def _set_mode(self, obj: Obj, eval_at: str, seen: set[int]) -> None:
        """``model.eval()`` (``eval_at``: where) or ``model.train()`` (""), for the model and
        every module it holds, as torch sets ``training`` on each."""
        if eval_at:
            obj.attrs["__eval__"] = Const(value=eval_at)
        else:
            obj.attrs.pop("__eval__", None)
        for child in self._submodules(obj, seen):
            self._set_mode(child, eval_at, seen)

    def _submodules(self, obj: Obj, seen: set[int]) -> list[Obj]:
        found = []
        for value in list(obj.attrs.values()):
            items = value.items if isinstance(value, Seq) else (value,)
            for item in (c for i in items for c in (i.choices if isinstance(i, OneOf) else (i,))):
                if isinstance(item, Ref) and item.id not in seen:
                    seen.add(item.id)
                    child = self.heap.get(item.id)
                    if child is not None and child.kind == "model":
                        found.append(child)
        return found

    def _batchnorm(self, obj: Obj, seen: set[int]) -> str:
        """Where ``obj`` holds a BatchNorm layer that keeps running statistics: a submodule
        built as one (`self.bn1 = nn.BatchNorm2d(c)`), one spelled in the source of the model's
        class or of a class it holds (a block built in a loop into `nn.Sequential(*layers)`),
        or a torchvision model with BatchNorm (`resnet18()`)."""
        spelled = obj.spelled.replace(" ", "")
        if (
            _BATCHNORM.search(spelled.split("(", 1)[0])
            and "track_running_stats=False" not in spelled
        ):
            return obj.built or spelled
        if _BN_MODELS.search(spelled.split("(", 1)[0]):
            return obj.built or spelled
        if obj.cls is not None:
            text = self._class_text(obj.cls)
            for match in _BATCHNORM_CALL.finditer(text):
                call = text[match.start() : text.find(")", match.end()) + 1].replace(" ", "")
                if "track_running_stats=False" not in call:
                    return f"{obj.cls.path}:{obj.cls.name}"
        for child in self._submodules(obj, seen):
            found = self._batchnorm(child, seen)
            if found:
                return found
        return ""

    def _class_text(self, cls: ClassRef) -> str:
        text = self.modules.texts.get(cls.path, "")
        return (ast.get_source_segment(text, cls.node) or "") if cls.node is not None else ""

    def _place_thin_wrappers(self, moved: Ref, place: Value | None) -> None:
        """A model built around ``moved`` that holds no module or parameter of its own
        (`ar_wrapper = AutoregressiveWrapper(model)`, then `model.to(device)`: its `.net` is the
        module moved) has its parameters where ``moved``'s are: it takes the place too."""
        for obj in self.heap.values():
            if obj.kind != "model" or obj.cls is None or not _unmoved(obj.place):
                continue
            held = [
                item
                for v in obj.attrs.values()
                for item in (v.items if isinstance(v, Seq) else (v,))
                if isinstance(item, Ref | OneOf | Each)
            ]
            models = [
                v
                for v in held
                if not isinstance(v, Ref) or self.heap.get(v.id, _NO_OBJ).kind == "model"
            ]
            if [getattr(m, "id", None) for m in models] != [moved.id]:
                continue
            if any(_makes_parameters(self._class_text(c)) for c in self._lineage(obj.cls)):
                continue  # its own class, or a class of the program it derives from, builds one
            obj.place = place

    def _place_submodules(self, obj: Obj, seen: set[int], unmoved: bool = False) -> None:
        """``module.to(device)`` moves every module it holds (`self.encoder = nn.Sequential(...)`
        built in ``__init__``, a list of blocks): they take its place. With ``unmoved`` (the
        model just built): only those its ``__init__`` built and never moved, so a submodule
        built on the CPU is where its model is built (`SimSiam()`), not a cause of its own. A
        submodule whose class an undecided condition chose (`self.base = base(...)` with `base`
        CNNBase or MLPBase) is held whichever it is: each choice takes the place."""
        for value in obj.attrs.values():
            items = value.items if isinstance(value, Seq) else (value,)
            for item in (c for i in items for c in (i.choices if isinstance(i, OneOf) else (i,))):
                if not isinstance(item, Ref) or item.id in seen:
                    continue
                seen.add(item.id)
                child = self.heap.get(item.id)
                if child is None or child.kind != "model":
                    continue
                if unmoved and not _unmoved(child.place):
                    continue
                child.place = obj.place
                self._place_submodules(child, seen, unmoved)

    def _prepared(self, args: list[Value], at: str, device: Value | None = None) -> Value:
        """``accelerator.prepare(...)``: the models and loaders on the accelerator's device
        (the CPU where the accelerator was made with `cpu=True`)."""
        device = device or Device(kind="accelerator", spelled="accelerator.device")
        on_device = isinstance(device, Device) and device.kind == "accelerator"
        out = []
        for value in args:
            obj = self.heap.get(value.id) if isinstance(value, Ref) else None
            if obj is not None and obj.kind in ("model", "loader"):
                obj.place = device
                if obj.kind == "loader" and self.facts.cut_loaders and on_device:
                    # accelerate wraps a loader in its MpDeviceLoaderWrapper on XLA
                    # (accelerate/data_loader.py, DistributedType.XLA): each batch cuts.
                    obj.attrs["__cuts__"] = Const(value=True)
            out.append(value)
        # accelerate points a prepared optimizer at the new parameters of the models prepared
        # with it (accelerator.py `_switch_parameters`: "putting the model on the XLA device will
        # create new parameters"): not stale.
        prepared = {v.id for v in args if isinstance(v, Ref)}
        for value in args:
            if isinstance(value, Ref) and value.id in self.held_parameters:
                self.held_parameters[value.id] = [
                    (m, device if m in prepared else then)
                    for m, then in self.held_parameters[value.id]
                ]
        return out[0] if len(out) == 1 else Seq(items=tuple(out))

    def _parser_method(self, ref: Ref, obj: Obj, name, args, kwargs, at, frame) -> Value:
        if name in (
            "add_argument_group",
            "add_mutually_exclusive_group",
            "add_subparsers",
            "add_parser",
        ):
            return ref  # a subcommand's options are read as the parser's own
        if name == "add_argument":
            flags = [a.value for a in args if isinstance(a, Const) and isinstance(a.value, str)]
            if not flags:
                return Const()
            dest = kwargs.get("dest")
            long = next((f for f in flags if f.startswith("--")), flags[0])
            key = dest.value if isinstance(dest, Const) else long.lstrip("-").replace("-", "_")
            action = kwargs.get("action")
            action_name = action.value if isinstance(action, Const) else ""
            if "default" in kwargs:
                default = kwargs["default"]
            elif action_name == "store_true":
                default = Const(value=False)
            elif action_name == "store_false":
                default = Const(value=True)
            elif truth(kwargs.get("required", Const())):
                default = Unknown(at=at, reason=f"`{long}` is required: set where it is launched")
            else:
                default = Const()
            default = self._launched(flags, action_name, default, kwargs.get("type"), at)
            obj.attrs[key] = default
            return Const()
        if name in ("parse_args", "parse_known_args"):
            namespace = self._new(Obj("namespace", attrs=dict(obj.attrs), built=at))
            if name == "parse_known_args":
                return Seq(items=(namespace, Unknown(at=at)))
            return namespace
        if name == "set_defaults":
            obj.attrs.update(kwargs)
            return Const()
        return Unknown(at=at)

    # -- yacs configurations ---------------------------------------------------------------------
    def _is_yacs(self, obj: Obj) -> bool:
        """A yacs `CfgNode` (detectron2's and fvcore's derive from it), or an instance of a class
        of the program derived from one."""
        if obj.spelled in _YACS_NODES:
            return True
        if obj.cls is None:
            return False
        env = self.loaded.get(obj.cls.path, {})
        for owner in self._lineage(obj.cls):
            for base in owner.node.bases if owner.node is not None else ():
                found = self._expr(base, Frame(owner.path, {}, env))
                if isinstance(found, External) and found.name in _YACS_NODES:
                    return True
        return False

    def _yacs_method(self, ref: Ref, obj: Obj, name: str, args, at: str) -> Value:
        """yacs 0.1.8 `CfgNode`: `clone()` a deep copy, `merge_from_file(path)` the YAML file's
        keys over its own, `merge_from_list(["a.b", value, ...])` each pair (values read as
        Python literals), `merge_from_other_cfg(other)`; `freeze()`, `defrost()` change no
        value. A list the launch lines give (`python train.py --config x.yaml train.lr 0.1`)
        is theirs: each dotted key they set is that value where every line sets it alike, else
        undecided; a key none sets keeps its value."""
        if name in ("freeze", "defrost"):
            return Const()
        if name == "clone":
            return self._yacs_copy(ref)
        if name == "merge_from_other_cfg" and args and isinstance(args[0], Ref):
            other = self.heap.get(args[0].id)
            if other is not None:
                self._yacs_merge(obj, self._yacs_items(other), at)
            return Const()
        if name == "merge_from_file":
            found = self._config_text(args[0] if args else None, at)
            if isinstance(found, Unknown):
                self._yacs_launched(obj, at, files=True)
                return Const()
            path, text = found
            data = parse(path, str(text.value), at, "yaml")
            if isinstance(data, Dict):
                self._yacs_merge(obj, _nested(data), at)
            return Const()
        if name == "merge_from_list":
            given = args[0] if args else Const()
            if isinstance(given, Const) and given.value is None:
                return Const()
            items = given.items if isinstance(given, Seq) else None
            if (
                items is not None
                and all(isinstance(i, Const) for i in items)
                and len(items) % 2 == 0
            ):
                pairs = [(str(k.value), v) for k, v in zip(items[::2], items[1::2], strict=True)]  # type: ignore[union-attr]
                self._yacs_merge(obj, pairs, at)
            else:
                self._yacs_launched(obj, at, files=False)
            return Const()
        return Unknown(at=at)

    def _yacs_copy(self, ref: Ref) -> Ref:
        obj = self.heap[ref.id]
        attrs = {
            k: self._yacs_copy(v)
            if isinstance(v, Ref) and self._is_yacs(self.heap.get(v.id, _NO_OBJ))
            else v
            for k, v in obj.attrs.items()
        }
        return self._new(replace(obj, attrs=attrs))

    def _yacs_items(self, obj: Obj, prefix: str = "") -> list[tuple[str, Value]]:
        found: list[tuple[str, Value]] = []
        for key, value in obj.attrs.items():
            held = self.heap.get(value.id) if isinstance(value, Ref) else None
            if held is not None and self._is_yacs(held):
                found += self._yacs_items(held, f"{prefix}{key}.")
            else:
                found.append((f"{prefix}{key}", value))
        return found

    def _yacs_merge(self, obj: Obj, pairs: list[tuple[str, Value]], at: str) -> None:
        for dotted_key, value in pairs:
            *path, last = dotted_key.split(".")
            node = obj
            for part in path:
                inner = node.attrs.get(part)
                held = self.heap.get(inner.id) if isinstance(inner, Ref) else None
                if held is None:
                    break
                node = held
            else:
                if isinstance(value, Const) and isinstance(value.value, str):
                    value = _literal(value)
                node.attrs[last] = value

    def _yacs_launched(self, obj: Obj, at: str, files: bool) -> None:
        """A merge whose file or list the launch lines give: every key they may set (a dotted
        key on a line, or one in a YAML file a line names) is the value all lines agree on, or
        undecided."""
        lines = self.launch_lines.get(self.entry, ())
        seen: dict[str, list[Value]] = {}
        for line in lines:
            folder = posixpath.dirname(line.split(": ", 1)[0])
            words = line.split(": ", 1)[-1].split()
            pairs: list[tuple[str, Value]] = []
            for index, word in enumerate(words):
                if files and word.endswith((".yaml", ".yml")):
                    path = config_path(folder, word)
                    text = self.read_config(path) if path and self.read_config else None
                    data = parse(path, text, at, "yaml") if path and text is not None else None
                    if not isinstance(data, Dict):
                        # A file the tool cannot read may set any key: none is decided.
                        reason = f"`{word}`, merged on a launch line, is not read"
                        self._yacs_merge(
                            obj,
                            [(k, Unknown(at=at, reason=reason)) for k, _ in self._yacs_items(obj)],
                            at,
                        )
                        return
                    pairs += _nested(data)
                elif not files and "." in word and not word.startswith(("-", ".", "/")):
                    if index + 1 < len(words) and not word.endswith((".py", ".yaml", ".yml")):
                        pairs.append((word, _literal(Const(value=words[index + 1]))))
            for key, value in pairs:
                seen.setdefault(key, []).append(value)
        known = dict(self._yacs_items(obj))
        merged = []
        for key, values in seen.items():
            if key not in known:
                continue
            same = len(values) == len(lines) and all(v == values[0] for v in values)
            reason = f"the launch lines set `{key}`" + ("" if same else " differently")
            merged.append((key, values[0] if same else Unknown(at=at, reason=reason)))
        self._yacs_merge(obj, merged, at)

    def _replay_buffer(self, args, kwargs, at, node, frame) -> Value:
        """A stable-baselines3 buffer (`ReplayBuffer(size, obs_space, action_space, device)`):
        `sample()` (`get()` of a rollout buffer) turns the stored arrays into tensors on the
        device it was given (stable_baselines3/common/buffers.py `BaseBuffer.to_torch`:
        `th.tensor(array, device=self.device)`). Its default, "auto", is CUDA where
        `torch.cuda.is_available()` and else the CPU (`utils.get_device`): the CPU on the
        target."""
        given = args[3] if len(args) > 3 else kwargs.get("device", Const(value="auto"))
        if isinstance(given, Const) and given.value == "auto":
            path, line = _split(at)
            text = f'`{_code(node, frame, self)}` keeps its samples on the CPU: its device "auto" is CUDA only where CUDA is available'
            place: Value = Device(kind="cpu", why=(Why(path, line, text),))
        else:
            place = self._move(Const(), given, at, node, frame)
        return self._new(Obj("buffer", place=place, built=at, spelled=_code(node, frame, self)))

    def _dataclass_cli(self, cls: Value, style: str, at: str, node, frame) -> Value:
        """An instance of the program's dataclass that a command-line library fills from
        `sys.argv`: tyro's `cli(Args)` or transformers' `HfArgumentParser(Args)
        .parse_args_into_dataclasses()`. Each field is its default, or what the launch lines
        set. tyro spells a field `--field-name` and a bool `--flag` / `--no-flag` (tyro 0.9
        docs, "Booleans"); HfArgumentParser spells it `--field_name` (and `--field-name`), a
        bool `--flag [true|false]` and, where it defaults to True, `--no_flag`
        (transformers/hf_argparser.py `_parse_dataclass_field`). A class the tool cannot read (a
        library's `TrainingArguments`) is undecided."""
        spelled = f"`{_code(node, frame, self)}`"
        if not (isinstance(cls, ClassRef) and cls.node is not None and is_dataclass(cls.node)):
            return Unknown(at=at, reason=f"{spelled} fills a class the tool does not read")
        ref = self._instantiate(cls, [], {}, at, node, frame)
        obj = self.heap[ref.id]
        obj.kind = "namespace"
        kinds = {
            s.target.id: s.annotation.id
            for owner in self._lineage(cls)
            for s in (owner.node.body if owner.node is not None else ())
            if isinstance(s, ast.AnnAssign)
            and isinstance(s.target, ast.Name)
            and isinstance(s.annotation, ast.Name)
        }
        for field_name, default in list(obj.attrs.items()):
            hyphens = field_name.replace("_", "-")
            flags = [f"--{n}" for n in sorted({hyphens, field_name})]
            kind = kinds.get(field_name, "")
            if kind == "bool":
                negative = sorted({f"--no-{hyphens}", f"--no_{field_name}"})
                if style == "tyro":
                    negative = [f"--no-{hyphens}"]
                if style == "tyro":
                    value = self._launched(flags, "store_true", default, None, at, negative)
                else:
                    value = self._launched(flags, "", default, External(name="bool"), at, negative)
            else:
                typed = External(name=kind) if kind in ("int", "float") else None
                value = self._launched(flags, "", default, typed, at)
            obj.attrs[field_name] = value
        return ref

    # -- absl flags ------------------------------------------------------------------------------
    def _absl_flags(self) -> Ref:
        """absl's `flags.FLAGS`: one namespace per run, whose options each `DEFINE_*` adds."""
        if self._absl is None or self._absl.id not in self.heap:
            self._absl = self._new(Obj("namespace", built=f"{self.entry}:1", spelled="FLAGS"))
        return self._absl

    def _absl_define(self, name: str, args, kwargs, at: str) -> Value:
        """absl 2.1 `flags.DEFINE_<kind>(name, default, help)`: an option of `flags.FLAGS`. On
        the command line a bool is `--name`, `--noname` or `--name=false`; any other kind is
        `--name=value` or `--name value`; `--flagfile=path` reads more options from a file,
        one a line (absl/flags/_flagvalues.py `read_flags_from_files`)."""
        given = args[0] if args else kwargs.get("name")
        if not (isinstance(given, Const) and isinstance(given.value, str)):
            return Const()
        key = given.value
        default = args[1] if len(args) > 1 else kwargs.get("default", Const())
        kind = name.rsplit(".", 1)[-1].removeprefix("DEFINE_")
        flags = [f"--{key}"]
        if kind in ("bool", "boolean"):
            negative = [f"--no{key}"]
            value = self._launched(flags, "absl_bool", default, _BOOL, at, negative, True)
        elif kind.startswith("multi") or kind in ("list", "spaceseplist"):
            value = self._launched(flags, "list", default, None, at, flag_files=True)
        else:
            typed = {"integer": "int", "float": "float"}.get(kind)
            kind_value = External(name=typed) if typed else None
            value = self._launched(flags, "", default, kind_value, at, flag_files=True)
        self.heap[self._absl_flags().id].attrs[key] = value
        return Const()

    def _launch_words(self, line: str, flag_files: bool) -> list[str]:
        """A launch line's words after the script, with each `--flagfile` it names (where
        ``flag_files``) replaced by that file's options; a file the tool cannot read becomes
        one word that leaves every option it may set undecided."""
        words = line.split(": ", 1)[-1].split()
        if not flag_files:
            return words
        folder = posixpath.dirname(line.split(": ", 1)[0])
        return self._flag_file_words(words, folder, 0)

    def _flag_file_words(self, words: list[str], folder: str, depth: int) -> list[str]:
        out: list[str] = []
        index = 0
        while index < len(words):
            word = words[index]
            index += 1
            name, eq, rest = word.partition("=")
            if name not in ("--flagfile", "-flagfile"):
                out.append(word)
                continue
            if not eq and index < len(words):
                rest, index = words[index], index + 1
            spelled = rest.strip("\"'")
            path = config_path(folder, spelled, FLAG_FILE_SUFFIXES)
            text = None
            if path and self.read_config and depth < 4:
                # What the run read is part of its result (the verdict cache's key).
                if path not in self.configs_read:
                    self.configs_read[path] = self.read_config(path)
                text = self.configs_read[path]
            if text is None:
                out.append(_UNREAD + spelled)
                continue
            lines = (t.strip() for t in text.splitlines())
            read = [t for t in lines if t and not t.startswith(("#", "//"))]
            out += self._flag_file_words(read, posixpath.dirname(path or ""), depth + 1)
        return out

    def _first_device_on_every_launch(self, device_ids: Value) -> bool:
        """`device_ids=[args.local_rank]` where the rank is 0 and every known launch starts one
        process (`python train.py`, a launcher with `--nproc_per_node=1`): DDP moves the inputs
        to `xla:0`, the one device each process has."""
        if not (
            isinstance(device_ids, Seq)
            and device_ids.items
            and all(isinstance(i, Const) and i.value == 0 for i in device_ids.items)
        ):
            return False
        lines = self.launch_lines.get(self.entry, ())
        if not lines:
            return False
        for line in lines:
            words = line.split(": ", 1)[-1].split()
            counts = [
                word.partition("=")[2] or (words[i + 1] if i + 1 < len(words) else "")
                for i, word in enumerate(words)
                if word.partition("=")[0] in ("--nproc_per_node", "--nproc-per-node")
            ]
            launcher = any(
                w in ("torchrun", "torch.distributed.launch", "torch.distributed.run")
                for w in words
            )
            if counts != ["1"] and (launcher or counts):
                return False
        return True

    def _launched(self, flags, action, default, kind, at, negative=(), flag_files=False) -> Value:
        """An option's value on the known launches: the default where no launch line sets it,
        the value the launch lines give where they all agree, else undecided. ``negative``: the
        flags that turn a bool option off (`--no-cuda`); ``flag_files``: absl's `--flagfile`
        words are read. Where the lines disagree and some do not mention the option at all, the
        documented run is the one with the default."""
        flag_text = "/".join((*flags, *negative))
        lines = self.launch_lines.get(self.entry, ())
        values = []
        unmentioned = []
        worded = [(line, self._launch_words(line, flag_files)) for line in lines]
        for line, words in worded:
            value: Value = default
            mentioned = False
            for index, word in enumerate(words):
                name, eq, rest = word.partition("=")
                if word.startswith(_UNREAD):
                    reason = f"`{word[len(_UNREAD) :]}`, a flag file on a launch line, is not read"
                    value, mentioned = Unknown(at=at, reason=reason), True
                    continue
                if name in negative:
                    value, mentioned = Const(value=False), True
                    continue
                if name not in flags:
                    continue
                mentioned = True
                if action == "store_true":
                    value = Const(value=True)
                elif action == "store_false":
                    value = Const(value=False)
                elif action == "absl_bool":
                    value = _typed(rest, kind) if eq else Const(value=True)
                elif action == "list":
                    value = Unknown(at=at, reason=f"the launch lines set the list `{name}`")
                elif eq:
                    value = _typed(rest, kind)
                elif index + 1 < len(words):
                    value = _typed(words[index + 1], kind)
            values.append((line, value))
            if not mentioned:
                unmentioned.append(line)
        path, line_no = _split(at)
        if not values:
            text = f"`{flag_text}` defaults to {_show(default)}"
            text += " and no launch line sets it" if not lines else ""
            return _with_why(default, (Launched(path, line_no, text),))
        first = values[0][1]
        if isinstance(first, Unknown) and not first.at:
            first = replace(first, at=at)
        if all(
            v == first or isinstance(v, Unknown) and isinstance(first, Unknown) for _, v in values
        ):
            shown = "; ".join(line for line, _ in values[:2])
            text = f"`{flag_text}` is {_show(first)} on every launch line ({shown})"
            return _with_why(first, (Launched(path, line_no, text),))
        # An unmentioned line is the documented run only where it sets nothing the lines that
        # set the option do not also set: `python train.py --dataset csv --csv_train a.csv`
        # beside `python train.py --dataset coco --coco_path ../coco` is another mode, whose
        # options (`--coco_path`) its own lines set, not a run with the default.
        mentioning = [_settings(words) for line, words in worded if line not in unmentioned]
        plain = [
            line
            for line, words in worded
            if line in unmentioned and all(_settings(words) <= other for other in mentioning)
        ]
        if plain and isinstance(default, Const):
            # `python main.py` and `python main.py --no-accel`: the documented run is the one
            # with the default; the others opt out on purpose.
            text = f"`{flag_text}` is {_show(default)} as {plain[0]} launches it"
            return _with_why(default, (Launched(path, line_no, text),))
        return Unknown(at=at, reason=f"the launch lines give `{flag_text}` different values")

    def _fire(self, args, kwargs, at, node, frame) -> Value:
        """`fire.Fire(component)` calls what the command line names (fire 0.7, `core.Fire`): with
        no component, a function of the calling module (`python train.py train --lr=0.1` calls
        `train(lr=0.1)`); with a dict, the function under the command's key; with a function,
        that function. Each `--name=value` is a keyword argument, `-` read as `_`. Where no
        launch line names the command, the call is one the evaluator cannot follow."""
        component = args[0] if args else kwargs.get("component", Const())
        if isinstance(component, Const) and component.value is None:
            choices = {k: v for k, v in frame.globals.items() if isinstance(v, Function)}
        elif isinstance(component, Dict):
            choices = dict(component.items)
        else:
            choices = None
        calls: dict[str, dict[str, Value]] = {}
        for line in self.launch_lines.get(self.entry, ()):
            command, options = _fire_command(line.split(": ", 1)[-1].split(), self.entry)
            if choices is None:
                calls.setdefault("", options)
            elif command in choices:
                calls.setdefault(command, options)
        if choices is None:
            self._apply(component, [], calls.get("", {}), at, node, frame)
            return Unknown(at=at)
        if not calls:
            reason = "`fire.Fire` runs the function the command line names, and no launch line "
            reason += "names one"
            self._event("unfollowed", frame, node, f"{at}: {reason}")
            return Unknown(at=at, reason=reason)
        for command, options in calls.items():
            self._apply(choices[command], [], options, at, node, frame)
        return Unknown(at=at)

    def _spawn(self, args, kwargs, at, node, frame, spelled) -> Value:
        """`mp.spawn(fn, args=(), nprocs=1)` calls ``fn(rank, *args)`` in each of ``nprocs``
        processes (each read by position or keyword). Where ``nprocs`` is decided 0 on the
        target (`torch.cuda.device_count()`), no process starts and ``fn`` never runs: torch 2.9
        `start_processes` starts none and returns. Where it is not decided, the run goes on
        into ``fn``, and the launch is recorded as one the verdict cannot call running."""
        fn = args[0] if args else kwargs.get("fn")
        rest = args[1] if len(args) > 1 else kwargs.get("args", Seq())
        nprocs = args[2] if len(args) > 2 else kwargs.get("nprocs", Const(value=1))
        count = nprocs.value if isinstance(nprocs, Const) and type(nprocs.value) is int else None
        if count == 0:
            cause = f" ({nprocs.why[0]})" if nprocs.why else ""
            detail = f"none|{spelled} is given `nprocs` 0 on the target{cause}"
            self._event("launch", frame, node, detail)
            return Const()
        if count is None and not (isinstance(nprocs, Unknown) and nprocs.positive):
            why = _reason(nprocs) or "a value the evaluator did not follow"
            self._event("launch", frame, node, f"open|{spelled} is given `nprocs` {why}")
        if fn is not None:
            items = list(rest.items) if isinstance(rest, Seq) else []
            self._apply(fn, [Unknown(at=at, reason="the rank"), *items], {}, at, node, frame)
        return Const()

    def _items_place(self, args: list[Value], kwargs: dict[str, Value], at: str) -> Value | None:
        """Where a DataLoader's batches are when its dataset, a class of the program, makes
        each item on a device itself (`return seq.to(device)` in `__getitem__`) and the default
        collate stacks them there; None where the items are not decided to be on one device."""
        dataset = args[0] if args else kwargs.get("dataset")
        if "collate_fn" in kwargs or not isinstance(dataset, Ref):
            return None
        obj = self.heap.get(dataset.id)
        if obj is None or obj.kind != "instance" or obj.cls is None:
            return None
        method = self._class_attr(obj.cls, "__getitem__")
        if not isinstance(method, Function):
            return None
        item = self._call(method, [dataset, Unknown(at=at, host=True)], {}, at)
        places = [t.place for t in _item_tensors(item) or ()]
        # One place, whatever line decided it (`return x.to(device), y.to(device)`).
        if not places or len({(type(p), getattr(p, "kind", None)) for p in places}) != 1:
            return None
        place = places[0]
        if isinstance(place, Unknown) and _moves_to_device(method.node):
            return place  # `return seq.to(device)` with `device` undecided: so are the batches
        if not isinstance(place, Device) or place.kind == "cpu":
            return None
        workers = kwargs.get("num_workers", Const(value=0))
        if not (isinstance(workers, Const) and workers.value in (0, None)):
            # Worker processes cannot make tensors on the device (CUDA and XLA both fail in a
            # forked worker): not shown where the batches are.
            return Unknown(
                at=at, reason="the dataset makes its items on the device in worker processes"
            )
        return place

    def _field_iterators(self, name, args, kwargs, at, node, frame, spelled) -> Value:
        """A torchtext iterator, or the tuple of them `Iterator.splits(datasets, ...)` makes:
        loaders whose batches hold their fields on `device=`."""
        device = kwargs.get("device")
        if device is None and not name.endswith(".splits") and len(args) > 3:
            device = args[3]  # Iterator(dataset, batch_size, sort_key, device)
        if device is None or isinstance(device, Const) and isinstance(device.value, int):
            path, line = _split(at)
            place = Device(kind="cpu", why=(Why(path, line, f"{spelled} has no `device=`"),))
        else:
            place = self._move(Const(), device, at, node, frame)

        def loader() -> Value:
            fields = {"__fields__": Const(value=True)}
            return self._new(Obj("loader", fields, place=place, built=at, spelled=spelled))

        if not name.endswith(".splits"):
            return loader()
        datasets = args[0] if args else kwargs.get("datasets")
        if not isinstance(datasets, Seq) or not datasets.items:
            return Unknown(at=at, reason=f"{spelled} is outside the program")
        return Seq(items=tuple(loader() for _ in datasets.items))

    def _handed_model(self, name: str, given: Value, at: str) -> str | None:
        """A framework that owns the loop trains the model it is handed: the framework's detail
        ("!name: why|where" where that model cannot live on the target, "?name: why|where"
        where the evaluator cannot tell which model it is), or None where it can live there."""
        choices = given.choices if isinstance(given, OneOf) else (given,)
        held = [self.heap.get(c.id) if isinstance(c, Ref) else None for c in choices]
        unplaced = [obj.wrapped for obj in held if obj is not None and obj.wrapped]
        if unplaced and len(unplaced) == len(choices):
            where, _, why = unplaced[0].partition("|")
            return f"!{name}: {why}|{where}"
        if unplaced:
            where, _, why = unplaced[0].partition("|")
            return f"?{name}: on one branch {why}|{where}"
        mapped = [o for o in held if o is not None and "__device_map__" in o.attrs]
        if mapped:
            shown = _show(mapped[0].attrs["__device_map__"])
            return (
                f"?{name}: the model is loaded with `device_map={shown}`, placed by what "
                f"accelerate finds on the host; whether the framework moves it to the target is "
                f"not known|{mapped[0].built}"
            )
        if all(obj is not None for obj in held):
            return None
        where = given.at if isinstance(given, (Unknown, OneOf)) and given.at else at
        why = _reason(given) or "a value the evaluator did not follow"
        return f"?{name}: the model it is handed is {why}|{where}"

    def _unplaceable_load(self, kwargs: dict[str, Value], at: str) -> str:
        """Why a model loaded with ``kwargs`` cannot train on the target ("path:line|why"), or
        "": bitsandbytes' 4/8-bit layers, or a device map onto a CUDA device index."""
        facts = self.facts
        config = kwargs.get("quantization_config")
        held = self.heap.get(config.id) if isinstance(config, Ref) else None
        if held is not None and held.spelled in facts.quantizing_configs:
            flags = [f for f in sorted(facts.quantizing_flags) if truth(held.attrs.get(f, Const()))]
            if flags:
                return (
                    f"{at}|the model is loaded with `{held.spelled.rsplit('.', 1)[-1]}({flags[0]}=True)`: "
                    "bitsandbytes' quantized layers have no kernels for the target"
                )
        for flag in sorted(facts.quantizing_flags):
            if truth(kwargs.get(flag, Const())):
                return (
                    f"{at}|the model is loaded with `{flag}=True`: bitsandbytes' quantized layers have no "
                    "kernels for the target"
                )
        device_map = kwargs.get("device_map")
        indices = [v for _, v in device_map.items] if isinstance(device_map, Dict) else [device_map]
        if any(isinstance(v, Const) and type(v.value) is int for v in indices):
            return (
                f"{at}|the model is loaded with a `device_map` onto a CUDA device index, which the "
                "target does not have"
            )
        return ""

    def _external(self, name, args, kwargs, at, node, frame) -> Value:
        facts = self.facts
        path, line = _split(at)
        if name.startswith(_CHILD_LAUNCHES):
            # `subprocess.check_call(["mpirun", "-np", n, sys.executable, *sys.argv])`: a child
            # process may run the program again, so an exit after it ends only this one.
            self._relaunched = True
        spelled = f"`{_code(node, frame, self)}`"
        if name in facts.false_calls:
            return Const(value=False, why=(Why(path, line, f"{spelled} is False on the target"),))
        if name in facts.true_calls:
            return Const(value=True, why=(Why(path, line, f"{spelled} is True on the target"),))
        if name in facts.zero_calls:
            return Const(value=0, why=(Why(path, line, f"{spelled} is 0 on the target"),))
        if name in facts.count_calls:
            return Unknown(at=at, reason=f"{spelled}, at least 1", positive=True)
        if name in facts.accelerator_calls:
            return Device(kind="accelerator", spelled=spelled)
        if name in facts.cut_calls:
            self._event("cut", frame, node, name)
            return Const()
        if facts.broken(name):
            self._event("broken-call", frame, node, spelled)
            return Unknown(at=at)
        if name == "torch.device":
            if not args:
                return Unknown(at=at)
            goal = self._move(Const(), args[0], at, node, frame)
            if isinstance(goal, Device) and goal.kind != "dtype":
                return replace(goal, spelled=spelled)
            return goal
        if name in ("bool", "str", "int", "float"):
            if args and isinstance(args[0], Const):
                try:
                    return Const(value=_BUILTIN_TYPES[name](args[0].value), why=args[0].why)
                except (TypeError, ValueError):
                    return Unknown(at=at)
            if name == "bool" and args and truth(args[0]) is not None:
                return Const(value=truth(args[0]), why=args[0].why)
            return Unknown(at=at, reason=_reason(args[0]) if args else "")
        if name in ("os.environ.get", "os.getenv"):
            key = args[0].value if args and isinstance(args[0], Const) else "?"
            default = args[1] if len(args) > 1 else kwargs.get("default", Const())
            text = f"{spelled}: `{key}` is not set on the launch lines, so its default"
            return _with_why(default, (Launched(path, line, text),))
        if name == "argparse.ArgumentParser":
            # `parents=[get_args_parser()]`: the parents' options are the parser's own.
            attrs: dict[str, Value] = {}
            parents = kwargs.get("parents")
            for parent in parents.items if isinstance(parents, Seq) else ():
                held = self.heap.get(parent.id) if isinstance(parent, Ref) else None
                if held is not None and held.kind == "parser":
                    attrs.update(held.attrs)
            return self._new(Obj("parser", attrs=attrs, built=at))
        if name in ("argparse.Namespace", "types.SimpleNamespace"):
            return self._new(Obj("namespace", attrs=dict(kwargs), built=at))
        if name == "itertools.islice" and args:
            return args[0]
        if name == "torch_xla.compile" and args:
            # The compiled function runs as one graph: each call cuts the step.
            return Bound(target=args[0], name="__compiled__")
        if name == "map" and len(args) >= 2:
            # `map(lambda x: x.to(device), batch)`: each item is what the function returns.
            return self._apply(args[0], [self._element(a) for a in args[1:]], {}, at, node, frame)
        if name in _ITERATORS and any(self._cuts(a) for a in args):
            self._iter_cuts = True  # `enumerate(MpDeviceLoader(...))` still cuts each step
        if name in ("enumerate",) and args:
            return Each(item=Seq(items=(Unknown(), self._element(args[0]))))
        if name in ("zip",) and args:
            return Each(item=Seq(items=tuple(self._element(a) for a in args)))
        if (name in _PROGRESS_BARS or name in ("iter", "list", "tuple")) and args:
            return args[0]
        if name in ("vars", "dict") and len(args) == 1 and isinstance(args[0], Ref):
            held = self.heap.get(args[0].id)
            if held is not None and held.kind in ("namespace", "mapping"):
                # `vars(args)`: the parsed options' own dict (a key stored there is an option);
                # `dict(vars(args))`: a copy. Each key is an option's value (`config["lr"]`).
                attrs = held.attrs if name == "vars" else dict(held.attrs)
                return self._new(Obj("mapping", attrs=attrs, built=at))
        if name == "getattr" and len(args) >= 2 and isinstance(args[1], Const):
            if isinstance(args[1].value, str):
                return self._attribute(args[0], args[1].value, node, frame)
        if name in ("dict", "sorted", "reversed") and args and isinstance(args[0], Seq):
            return args[0]  # `dict(model.named_parameters())`: the same items
        if name == "dict" and not args:
            return Dict(items=tuple(kwargs.items()))  # `dict(params=[w], lr=0.1)`
        if name == "next" and args:
            return self._element(args[0])
        if name == "isinstance" and len(args) == 2 and isinstance(args[0], Tensor):
            decided = _tensor_isinstance(args[1])
            if decided is not None:
                return Const(value=decided)
        if name == "len" and args and isinstance(args[0], Seq):
            return Const(value=len(args[0].items), why=args[0].why)  # `len(args.device_ids)`
        if name in ("isinstance", "hasattr", "callable", "len", "print", "range"):
            return Unknown(at=at)
        if name in ("torch.autograd.Variable", "torch.autograd.variable.Variable"):
            return args[0] if args else Unknown(at=at)
        if name in ("torch.save", "torch.serialization.save") and args:
            saved = self._saved_options(args[0], set())
            if saved:
                # A checkpoint that pickles the parsed options (an argparse.Namespace): torch
                # 2.6 and later load it only with `weights_only=False`.
                self._event("saves-options", frame, node, saved)
        if name in ("torch.manual_seed", "torch.random.manual_seed"):
            self._event("seed", frame, node)  # the training process's seed, where a run trains
        if name == "torch.autograd.grad":
            # A gradient taken without a step (an input's, for an attack): not a backward()
            # of the step, but it differentiates what it runs through.
            self._event("grad", frame, node)
        if name in facts.unsupported_wrappers or name.endswith("FullyShardedDataParallel"):
            if args and isinstance(args[0], Ref) and args[0].id in self.heap:
                if name in facts.unsupported_wrappers:
                    self.heap[args[0].id].wrapped = (
                        f"{path}:{line}|the model is wrapped in {spelled}, which does not train "
                        "on the target (torch_xla's XlaFullyShardedDataParallel does)"
                    )
                return args[0]
        if (
            name.endswith("DistributedDataParallel")
            and facts.needs_cut
            and kwargs.get("device_ids") not in (None, Const(), Seq())
            and not self._first_device_on_every_launch(kwargs["device_ids"])
            and args
            and isinstance(args[0], Ref)
            and args[0].id in self.heap
        ):
            # torch DDP moves every input to `xla:<device_ids[0]>`: a device a process of a
            # local rank above 0 does not have (torch 2.9 DDP `_pre_forward`; TRN144).
            self.heap[args[0].id].wrapped = (
                f"{path}:{line}|{spelled} keeps `device_ids`: DDP moves every input to "
                "`xla:<device_ids[0]>`, which a process of a local rank above 0 does not have"
            )
            return args[0]
        if name.rsplit(".", 1)[-1] in _WRAPPERS or name in ("torch.compile",):
            return args[0] if args else Unknown(at=at)
        if name in facts.cut_loaders and args:
            device = args[1] if len(args) > 1 else kwargs.get("device", Unknown(at=at))
            place = self._move(Const(), device, at, node, frame)
            cuts = Const(value=True)
            return self._new(
                Obj("loader", {"__cuts__": cuts}, place=place, built=at, spelled=spelled)
            )
        if name.removesuffix(".splits") in _FIELD_ITERATORS:
            return self._field_iterators(name, args, kwargs, at, node, frame, spelled)
        if name.endswith(("DataLoader", "data.DataLoader")):
            place = self._items_place(args, kwargs, at) or Device(kind="cpu")
            return self._new(Obj("loader", place=place, built=at, spelled=spelled))
        if ".lr_scheduler." not in name and (
            name.startswith("torch.optim.")
            and name[12:13].isupper()
            or ".optim." in name
            or _OPTIMIZER_NAME.search(name.rsplit(".", 1)[-1])
            and _models_in(args[0] if args else kwargs.get("params", Seq()))
        ):
            # (A learning-rate scheduler, `torch.optim.lr_scheduler.StepLR(optimizer, 8)`, is no
            # optimizer: its `step()` once an epoch is not the training step.)
            # torch's optimizers, and a package's (`MuonAdamAtan2(params=model.parameters())`,
            # `Lion(model.parameters())`): a class named for one, given a model's parameters.
            params = args[0] if args else kwargs.get("params", Seq())
            models = _models_in(params)
            self.trained.update(v.id for v in models)
            optimizer = self._new(Obj("optimizer", built=at))
            # Where each model's parameters were when the optimizer took them: on the XLA
            # device `module.to()` makes new parameters, so one taken on the CPU and moved after
            # leaves the optimizer stepping the old ones (``_stale_parameters``).
            held = [(v.id, self.heap[v.id].place) for v in models if v.id in self.heap]
            self.held_parameters[optimizer.id] = held  # type: ignore[union-attr]
            return optimizer
        if name.startswith(_ENGINES):
            obj = Obj("engine", built=at)
            if args:
                obj.attrs["__process__"] = args[0]
            return self._new(obj)
        if name in _JOB_EXECUTORS:
            return self._new(Obj("executor", built=at))
        if name in _YACS_NODES:
            # `_C = CN()`, `CN(new_allowed=True)`: a node whose keys are its attributes.
            return self._new(Obj("mapping", built=at, spelled=name))
        if name in _REPLAY_BUFFERS:
            return self._replay_buffer(args, kwargs, at, node, frame)
        if name == "fire.Fire":
            return self._fire(args, kwargs, at, node, frame)
        if name.startswith("absl.flags.DEFINE_"):
            return self._absl_define(name, args, kwargs, at)
        if name == "absl.app.run" and args:
            # absl 2.1 `app.run(main)` parses the command line, then calls `main(argv)`.
            argv = Unknown(at=at, reason="the command line's remaining words")
            self._apply(args[0], [argv], {}, at, node, frame)
            return Const()
        if name in ("tyro.cli", "tyro.cli.cli") and args:
            return self._dataclass_cli(args[0], "tyro", at, node, frame)
        if name.endswith("HfArgumentParser") and args:
            classes = args[0].items if isinstance(args[0], Seq) else (args[0],)
            return self._new(Obj("hf_parser", {"__classes__": Seq(items=tuple(classes))}, built=at))
        if name in ("torch.multiprocessing.Process", "multiprocessing.Process"):
            obj = Obj("process", built=at)
            obj.attrs["__target__"] = kwargs.get("target", Unknown(at=at))
            obj.attrs["__args__"] = kwargs.get("args", Seq())
            return self._new(obj)
        if name == "super" and frame.self_value is not None and frame.function is not None:
            owner = self.loaded.get(frame.function.path, {}).get(frame.function.owner)
            if isinstance(owner, ClassRef):
                return Bound(target=frame.self_value, function=owner, name="__super__")
            return Unknown(at=at)
        if name in _SPAWNS:
            return self._spawn(args, kwargs, at, node, frame, spelled)
        if name in _PROCESS_GROUPS:
            backend = kwargs.get("backend", args[0] if args else None)
            if backend is not None and not isinstance(backend, Const):
                # `init_process_group(backend=args.dist_backend)` from a configuration the
                # evaluator does not read: only "xla" works with XLA tensors (NCCL finds no GPU).
                why = _reason(backend)
                given = [k.value for k in node.keywords if k.arg == "backend"] or node.args[:1]
                self._event(
                    "undecided",
                    frame,
                    node,
                    f"the process group's backend `{_code(given[0], frame, self)}` is not "
                    f'decided{f" ({why})" if why else ""}, and only "xla" serves XLA tensors',
                )
            return Const()
        if name in _LAUNCHES and args:
            rest = kwargs.get("args", Seq())
            items = list(rest.items) if isinstance(rest, Seq) else []
            self._apply(args[0], [Unknown(at=at, reason="the rank"), *items], {}, at, node, frame)
            return Const()
        if name == "accelerate.Accelerator":
            # `accelerator.device`: the accelerator's device (XLA where torch_xla is installed,
            # accelerate's `PartialState`), or the CPU where `cpu=True`.
            cpu = kwargs.get("cpu", Const(value=False))
            device: Value = Device(kind="accelerator", spelled="accelerator.device")
            if truth(cpu) is True:
                device = Device(kind="cpu", why=(Why(*_split(at), f"{spelled}: `cpu` is True"),))
            elif truth(cpu) is None:
                device = Unknown(
                    at=at, reason=f"`cpu=` of {spelled} {_reason(cpu) or 'is undecided'}"
                )
            return self._new(Obj("accelerator", {"device": device}, built=at))
        if name in (
            "transformers.TrainingArguments",
            "transformers.Seq2SeqTrainingArguments",
            *facts.quantizing_configs,
        ):
            return self._new(Obj("namespace", attrs=dict(kwargs), built=at, spelled=name))
        if name in facts.model_preparers and args:
            return args[0]  # the same model, prepared or under an adapter
        if name in _FACTORIES_OF_TARGETS:
            return self._instantiated(args, kwargs, at, node, frame)
        if name.rsplit(".", 1)[-1] in _FRAMEWORK_CLASSES:
            owns = name in facts.owning_frameworks
            given = kwargs.get("model", args[0] if args else None)
            handed = self._handed_model(name, given, at) if owns and given is not None else None
            if handed is not None:
                return self._new(Obj("framework", built=at, spelled=handed))
            options = kwargs.get("args", args[1] if len(args) > 1 else None)
            held = self.heap.get(options.id) if isinstance(options, Ref) else None
            for flag in ("use_cpu", "no_cuda"):
                value = held.attrs.get(flag) if held is not None else None
                if value is not None and truth(value):
                    # The framework is told to train on the CPU.
                    spelled = f"!{name}: its arguments set `{flag}=True` ({at})"
                    return self._new(Obj("framework", built=at, spelled=spelled, on_cpu=True))
            cuda = _lightning_cuda(name, kwargs)
            if cuda:
                # Lightning is told to train on CUDA (TRN158's `accelerator="gpu"`, or `gpus`
                # from a config file): no such device on the target.
                spelled = f"!{name}: its arguments ask for CUDA ({cuda}), which the target does "
                spelled += "not have: train with neuronx-distributed's Lightning integration "
                spelled += "(`strategy=NeuronXLAStrategy()`; TRN158)"
                return self._new(Obj("framework", built=at, spelled=f"{spelled}|{at}"))
            cpu = _lightning_cpu(name, kwargs, node)
            if cpu:
                # Lightning is told to train on the CPU, or left to its 1.x default, the CPU.
                spelled = f"!{name}: its arguments keep it on the CPU ({cpu}): train on "
                spelled += "Trainium with neuronx-distributed's Lightning integration "
                spelled += "(`strategy=NeuronXLAStrategy()`; TRN158)"
                obj = Obj("framework", built=at, spelled=f"{spelled}|{at}", on_cpu=True)
                return self._new(obj)
            obj = Obj("framework", built=at, spelled=name if owns else "?" + name)
            return self._new(obj)
        if name.startswith(_TENSOR_FACTORIES_PREFIX) and name.rsplit(".", 1)[-1] in _FACTORIES:
            device = kwargs.get("device")
            if device is None:
                return Tensor(place=Device(kind="cpu", why=(Why(path, line, spelled),)))
            return Tensor(place=self._move(Const(), device, at, node, frame))
        if _builds_model(name):
            place = Device(kind="cpu", why=(Why(path, line, spelled),))
            obj = Obj("model", place=place, built=at, spelled=spelled)
            obj.wrapped = self._unplaceable_load(kwargs, at)
            if isinstance(kwargs.get("device_map"), Const) and not obj.wrapped:
                obj.attrs["__device_map__"] = kwargs["device_map"]
            return self._new(obj)
        if name.startswith("torch.") and args and isinstance(args[0], Tensor):
            return args[0]
        if name.startswith("torch.") and args and (joined := _joined_tensors(args[0])) is not None:
            return joined  # `torch.cat([a, b], -1)`, `torch.stack(moved)`
        if name == "open":
            return self._opened(args, kwargs, at)
        if name in ("pathlib.Path", "pathlib.PurePath") and len(args) == 1:
            if isinstance(args[0], Const) and isinstance(args[0].value, str):
                return self._new(Obj("path", attrs={"__path__": args[0]}, built=at))
        if name in _ATTRIBUTE_DICTS and len(args) == 1 and isinstance(args[0], Dict):
            return self._mapping(args[0], at)
        if name in _CONFIG_LOADERS and args:
            return self._config_data(name, args[0], at)
        # NumPy makes host arrays, never tensors: a model's forward that takes one converts it
        # itself (`totensor(rois)`), where its own moves are seen.
        host = name.startswith("numpy.")
        return Unknown(at=at, reason=f"{spelled} is outside the program", host=host)

    # -- Hydra's factory of objects from configurations ---------------------------------------
    def _instantiated(self, args, kwargs, at, node, frame) -> Value:
        """``hydra.utils.instantiate(config, **kwargs)``: a call of the config's ``_target_``
        with its fields, where the config and its target are decided."""
        config = args[0] if args else kwargs.get("config", Unknown(at=at))
        fields = self._config_fields(config)
        given_node = next((k.value for k in node.keywords if k.arg == "config"), None)
        spelled = _code(node.args[0] if node.args else given_node or node, frame, self)
        if fields is None:
            why = f"its configuration `{spelled}` is not decided"
            reason = _reason(config)
            return Unknown(at=at, reason=f"{why} ({reason})" if reason else why)
        target = fields.get("_target_")
        if not isinstance(target, Const) or not isinstance(target.value, str):
            return Unknown(at=at, reason=f"the `_target_` of `{spelled}` is not decided")
        given = {k: v for k, v in kwargs.items() if k != "config"}
        if truth(given.get("_partial_", fields.get("_partial_", Const()))) is not False:
            return Unknown(at=at, reason=f"`{spelled}` may be built as a partial")
        merged = {
            k: v
            for k, v in {**fields, **given}.items()
            if not (k.startswith("_") and k.endswith("_"))
        }
        module, _, last = target.value.rpartition(".")
        found = self.modules.resolve(frame.path, module) if module else None
        if found is not None:  # a class or function of the program itself
            env = self._load(found) or {}
            callee = env.get(last, Unknown(at=at, reason=f"`{target.value}` not found"))
            return self._apply(callee, [], merged, at, node, frame)
        return self._external(target.value, [], merged, at, node, frame)

    def _config_fields(self, config: Value) -> dict[str, Value] | None:
        """The fields of a decided configuration: a mapping (an OmegaConf config, a YAML file's
        data) or an instance of a dataclass of the program, its bases' fields included."""
        if isinstance(config, Dict):
            return {k: v for k, v in config.items if isinstance(k, str)}
        obj = self.heap.get(config.id) if isinstance(config, Ref) else None
        if obj is None:
            return None
        if obj.kind == "mapping":
            return dict(obj.attrs)
        if obj.cls is None or obj.cls.node is None or not _declares_fields(obj.cls.node):
            return None
        fields: dict[str, Value] = {}
        for cls in reversed(self._lineage(obj.cls)):
            for statement in cls.node.body if cls.node is not None else ():
                if not (
                    isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name)
                ):
                    continue
                name = statement.target.id
                given = obj.attrs.get(name, Unknown())
                if statement.value is None or isinstance(statement.value, ast.Call):
                    fields[name] = given  # required, or `field(...)`: as the instance holds it
                    continue
                default = self._class_expr(cls, statement.value)
                if given != default:
                    fields[name] = given
                    continue
                text = f"`{name}` defaults to {ast.unparse(statement.value)} in `{cls.name}`"
                fields[name] = _with_why(default, (Why(cls.path, statement.lineno, text),))
        return fields

    def _lineage(self, cls: ClassRef) -> list[ClassRef]:
        """The class and the program's classes it derives from, nearest first."""
        found, todo = [], [cls]
        while todo and len(found) < 16:
            current = todo.pop(0)
            if any(c.node is current.node for c in found):
                continue
            found.append(current)
            todo.extend(self._bases(current))
        return found

    # -- a framework that fits a LightningModule ------------------------------------------------
    def _fits_lightning_module(self, func: Value, args, kwargs, at, node, frame) -> None:
        """``trainer.fit(model, ...)`` where ``trainer`` is an object the evaluator did not
        follow (made by a call outside the program, or of a class derived from one) and
        ``model`` a LightningModule with its own ``training_step``: a framework owns the step.
        What it trains on is not decided: "cannot tell" at the line that made the object."""
        model = args[0] if args else kwargs.get("model")
        obj = self.heap.get(model.id) if isinstance(model, Ref) else None
        owner = node.func.value
        given = (
            node.args[0]
            if node.args
            else next((k.value for k in node.keywords if k.arg == "model"), None)
        )
        if obj is not None and obj.kind == "model" and obj.cls is not None:
            if not isinstance(self._class_attr(obj.cls, "training_step"), Function):
                return
        elif not (
            self._annotated(given, frame).endswith(".LightningModule")
            or self._annotated(owner, frame).startswith(_LIGHTNING_TRAINERS)
        ):
            return  # the object and what it fits are not known to be Lightning's
        made = func.at if isinstance(func, Unknown) and func.at else at
        if isinstance(func, Bound) and isinstance(func.target, Ref):
            made = self.heap[func.target.id].built or at
        reason = _reason(func) or "an object the evaluator did not follow"
        why = f"what it is is not decided: {reason}"
        detail = f"?{_code(owner, frame, self)}: {why}|{made}"
        self._event("framework", frame, node, detail)

    def _annotated(self, node: ast.expr | None, frame) -> str:
        """The library class a name is annotated with where the running function (or module)
        binds it (`model: LightningModule = hydra.utils.instantiate(cfg.model)`), or ""."""
        if not isinstance(node, ast.Name):
            return ""
        scope = frame.function.node if frame.function is not None else self.modules.tree(frame.path)
        for statement in ast.walk(scope) if scope is not None else ():
            if (
                isinstance(statement, ast.AnnAssign)
                and isinstance(statement.target, ast.Name)
                and statement.target.id == node.id
            ):
                return self._name_of(statement.annotation, frame)
        return ""

    # -- configuration files of the repository -------------------------------------------------
    def _config_text(self, given: Value | None, at: str) -> tuple[str, Const] | Unknown:
        """The configuration file a decided path names, read (`open(a.config)`)."""
        if not isinstance(given, Const) or not isinstance(given.value, str):
            return Unknown(at=at, reason=_reason(given) if given is not None else "")
        # A relative path is read from the folder the script is launched in: that of its launch
        # lines, or its own where none launches it.
        folders = {
            posixpath.dirname(line.split(": ", 1)[0])
            for line in self.launch_lines.get(self.entry, ())
        } or {posixpath.dirname(self.entry)}
        if len(folders) > 1:
            return Unknown(at=at, reason=f"`{given.value}` is read from where it is launched")
        path = config_path(folders.pop(), given.value)
        if path is None or self.read_config is None:
            return Unknown(
                at=at, reason=f"`{given.value}` is not a configuration file of the repository"
            )
        if path not in self.configs_read:
            self.configs_read[path] = self.read_config(path)
        text = self.configs_read[path]
        if text is None:
            return Unknown(at=at, reason=f"`{path}` is not in the repository")
        why = (*given.why, Why(path, 1, READ_FROM + path))
        return path, Const(value=text, why=why)

    def _opened(self, args: list[Value], kwargs: dict[str, Value], at: str) -> Value:
        given = args[0] if args else kwargs.get("file")
        mode = args[1] if len(args) > 1 else kwargs.get("mode", Const(value="r"))
        if not isinstance(mode, Const) or mode.value not in ("r", "rt"):
            return Unknown(at=at)
        found = self._config_text(given, at)
        if isinstance(found, Unknown):
            return found
        return self._new(Obj("file", attrs={"__text__": found[1]}, built=at))

    def _config_data(self, name: str, given: Value, at: str) -> Value:
        """What `json.load(f)`, `json.loads(text)`, `yaml.safe_load(f)` or
        `OmegaConf.load(path)` returns for a configuration file read on the launch path."""
        if name.startswith("omegaconf."):
            found = self._config_text(given, at)
            if isinstance(found, Unknown):
                return found
            text = found[1]
        else:
            if isinstance(given, Ref) and self.heap.get(given.id, Obj("")).kind == "file":
                given = self.heap[given.id].attrs["__text__"]
            text = given
        read = [w.path for w in text.why if w.text.startswith(READ_FROM)]
        if not isinstance(text, Const) or not isinstance(text.value, str) or not read:
            return Unknown(at=at, reason=_reason(given))
        data = parse(read[-1], text.value, at, "json" if name.startswith("json.") else "yaml")
        if name.startswith("omegaconf."):
            return self._mapping(data, at)  # a DictConfig: its keys are also its attributes
        return data

    def _mapping(self, data: Value, at: str) -> Value:
        """A dict whose keys are also its attributes, at every level (`cfg.trainer.gpus`): an
        OmegaConf `DictConfig`, an `EasyDict`."""
        if isinstance(data, Dict):
            items = {k: self._mapping(v, at) for k, v in data.items if isinstance(k, str)}
            return self._new(Obj("mapping", attrs=items, built=at))
        return data


def _declares_fields(node: ast.ClassDef) -> bool:
    """A dataclass (Hydra's structured configs are dataclasses or attrs classes)."""
    return any(
        (dotted(d.func if isinstance(d, ast.Call) else d) or "").endswith(("dataclass", "define"))
        for d in node.decorator_list
    )


# Executors that run a callable as a cluster job (submitit/auto/auto.py, slurm/slurm.py, local/
# local.py at 1.5): `executor.submit(fn, *args)` calls `fn(*args)` in the job.
# yacs 0.1.8's configuration node and those derived from it (fvcore, detectron2).
_YACS_NODES = frozenset(
    {
        "yacs.config.CfgNode",
        "yacs.config.CN",
        "fvcore.common.config.CfgNode",
        "detectron2.config.CfgNode",
        "detectron2.config.config.CfgNode",
    }
)
_YACS_METHODS = frozenset(
    {"clone", "merge_from_file", "merge_from_list", "merge_from_other_cfg", "freeze", "defrost"}
)
_NO_OBJ = Obj("")


def _nested(data: Dict, prefix: str = "") -> list[tuple[str, Value]]:
    """A YAML mapping's keys as dotted paths, each with its value."""
    found: list[tuple[str, Value]] = []
    for key, value in data.items:
        if isinstance(value, Dict):
            found += _nested(value, f"{prefix}{key}.")
        else:
            found.append((f"{prefix}{key}", value))
    return found


def _literal(value: Const) -> Value:
    """A value as yacs reads one from a list (`ast.literal_eval`, else the string)."""
    try:
        return Const(value=ast.literal_eval(str(value.value)), why=value.why)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return value


# stable-baselines3's buffers (stable_baselines3/common/buffers.py, 2.x): what `sample()` or
# `get()` gives is on the device the buffer was built with.
_REPLAY_BUFFERS = frozenset(
    f"stable_baselines3.common.buffers.{name}"
    for name in ("ReplayBuffer", "DictReplayBuffer", "RolloutBuffer", "DictRolloutBuffer")
)

_JOB_EXECUTORS = frozenset(
    {"submitit.AutoExecutor", "submitit.SlurmExecutor", "submitit.LocalExecutor"}
)


def _models_in(params: Value) -> list[Ref]:
    """The models whose parameters ``params`` holds: `model.parameters()`, a list of them, or
    those of each model an undecided condition chose (`self.unet`, one of four U-Nets)."""
    if isinstance(params, Ref):
        return [params]
    if isinstance(params, Seq):
        return [r for item in params.items for r in _models_in(item)]
    if isinstance(params, Each):
        return _models_in(params.item)
    if isinstance(params, Dict):  # a parameter group: `{"params": [value], "lr": lr * 2}`
        return [r for key, value in params.items if key == "params" for r in _models_in(value)]
    if isinstance(params, OneOf):
        found = [r for choice in params.choices for r in _models_in(choice)]
        return list({r.id: r for r in found}.values())
    return []


def _moves_to_device(node: ast.AST | None) -> bool:
    """A function that moves a tensor with `.to(...)`, `.cuda()` or `.type(...)`."""
    return node is not None and any(
        isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute)
        and n.func.attr in ("to", "cuda", "type")
        for n in ast.walk(node)
    )


def _item_tensors(item: Value) -> list[Tensor] | None:
    """The tensors of a dataset's item (a tensor, or a tuple, list or mapping of tensors and
    host data); None where any part of it is undecided."""
    if isinstance(item, Tensor):
        return [item]
    if isinstance(item, Seq | Dict):
        found: list[Tensor] = []
        for part in item.items if isinstance(item, Seq) else (v for _, v in item.items):
            tensors = _item_tensors(part)
            if tensors is None:
                return None
            found += tensors
        return found
    if isinstance(item, Const) or isinstance(item, Unknown) and item.host:
        return []
    return None


def _joined_tensors(given: Value) -> Tensor | None:
    """What `torch.cat`/`torch.stack` of ``given`` makes: a tensor where every tensor of the list
    is (a list comprehension's element), else None (a list of tensors in two places raises)."""
    if isinstance(given, Each):
        return given.item if isinstance(given.item, Tensor) else None
    if not isinstance(given, Seq) or not given.items:
        return None
    if not all(isinstance(item, Tensor) for item in given.items):
        return None
    places = {_place_key(item.place) for item in given.items}  # type: ignore[union-attr]
    return given.items[0] if len(places) == 1 and None not in places else None  # type: ignore[return-value]


def _place_key(place: Value) -> str | None:
    return place.kind if isinstance(place, Device) else None


def _chosen_by_availability(place: Device) -> bool:
    """``place`` is the CPU only because a CUDA availability check is False on the target
    (`torch.device("cuda" if torch.cuda.is_available() else "cpu")`): the port makes the
    check's device the accelerator."""
    return place.kind == "cpu" and any(
        "is_available" in why.text and why.text.endswith("is False on the target")
        for why in place.why
    )
