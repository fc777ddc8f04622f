"""What calls of libraries do, for the evaluator of the migrated program (issue 34): the facts'
calls (`torch.cuda.is_available()`, `torch_xla.device()`), `torch.device`, argparse (options,
defaults, the values launch lines give), `os.environ.get`, models and tensors moved by
`.to()`/`.cuda()`/`.cpu()`/`.type()`, optimizers, loaders (a `MpDeviceLoader` cuts the step),
wrappers (torch FSDP, DDP keeping `device_ids`), engines and launchers that run a function
(ignite's `Engine`, `mp.spawn`, `torch_xla.launch`), accelerate, transformers' `Trainer`.
A mix-in of ``analysis.evaluate.Evaluator``."""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import replace

from trncodemod.analysis.abstract_values import (
    Bound,
    ClassRef,
    Const,
    Device,
    Each,
    External,
    ModelCall,
    Obj,
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

# Calls that run a function once per process: `torch_xla.launch(fn)`, `xmp.spawn(fn, args)`.
_LAUNCHES = frozenset(
    {"torch_xla.launch", "torch_xla.distributed.xla_multiprocessing.spawn"}
    | {"torch.multiprocessing.spawn", "torch.multiprocessing.start_processes"}
)


# tqdm's progress bars hand on what they wrap, whichever front end a script or notebook imports.
_PROGRESS_BARS = frozenset(
    f"tqdm.{front}tqdm" for front in ("", "std.", "auto.", "notebook.", "autonotebook.")
) | {"tqdm"}
_ITERATORS = frozenset({"enumerate", "zip", "iter", "list"}) | _PROGRESS_BARS


_WRAPPERS = frozenset({"DistributedDataParallel", "DataParallel", "XlaFullyShardedDataParallel"})


_ENGINES = ("ignite.engine.Engine", "ignite.engine.engine.Engine")


_FRAMEWORK_CLASSES = frozenset({"Trainer", "Seq2SeqTrainer", "SFTTrainer"})


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


def _is_loss(obj: Obj) -> bool:
    """A loss module: `nn.CrossEntropyLoss()`, a class of the program named `*Loss`/`*Criterion`."""
    name = obj.cls.name if obj.cls is not None else obj.spelled.split("(", 1)[0]
    return name.rsplit(".", 1)[-1].endswith(("Loss", "Criterion", "Loss2d"))


# `pack_padded_sequence(input, lengths)` takes its lengths on the CPU ("must be on the CPU if
# provided as a tensor", torch.nn.utils.rnn at v2.9.0; it moves a device tensor back itself,
# measured in benchmarks/xla_facts.py `packed_sequences`): a value used only there is no input
# the step needs on the device.
_HOST_LENGTHS = frozenset({"pack_padded_sequence"})


def _forward_params(cls: ClassRef | None) -> tuple[list[str], frozenset[str]]:
    """The positional parameters of the class's own ``forward`` (after ``self``), and those of
    them it uses only as the ``lengths`` of a packing call (``x.cpu()``/``x.tolist()`` there
    included)."""
    node = cls.node if cls is not None else None
    forward = next(
        (
            s
            for s in (node.body if node is not None else ())
            if isinstance(s, ast.FunctionDef) and s.name == "forward"
        ),
        None,
    )
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
        return [(spelled, value)]
    if isinstance(value, Seq):
        return [item for v in value.items for item in _tensors(v, spelled)]
    return []


def _typed(text: str, kind: Value | None) -> Value:
    if isinstance(kind, External) and kind.name in ("int", "float"):
        try:
            return Const(value=_BUILTIN_TYPES[kind.name](text))
        except ValueError:
            return Unknown()
    if text.startswith(("$", "`", "<", "{", "[")) or text.endswith((">", "}", "]")):
        # `$LR`, `<TYPE>`, `{gan_type}`: a placeholder, set where the command is run
        return Unknown(reason=f"`{text}` is set outside the program")
    return Const(value=text.strip("\"'"))


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

    def _model_call(self, ref: Ref, obj: Obj, args, kwargs, at, node, frame) -> Value:
        inputs = []
        params, host_only = _forward_params(obj.cls)
        for index, value in enumerate(args):
            if index < len(params) and params[index] in host_only:
                continue
            spelled = _code(node.args[index], frame, self) if index < len(node.args) else "*args"
            inputs.extend(_tensors(value, spelled))
        for key, value in kwargs.items():
            if key not in host_only:
                inputs.extend(_tensors(value, key))
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
            )
        )
        return Tensor(place=obj.place or Unknown(at=at))

    def _tensor_method(self, target: Tensor, name, args, kwargs, at, node, frame) -> Value:
        if name == "to":
            goal = kwargs.get("device", args[0] if args else None)
            if goal is None:
                return target
            place = self._move(target, goal, at, node, frame)
            return (
                target
                if isinstance(place, Device) and place.kind == "dtype"
                else Tensor(place=place)
            )
        if name == "cuda":
            return Tensor(place=Device(kind="cuda", spelled=".cuda()"))
        if name == "cpu":
            return Tensor(place=Device(kind="cpu", spelled=".cpu()"))
        if name == "type" and args:
            kind = args[0]
            if isinstance(kind, TensorType):
                return Tensor(place=Device(kind=kind.kind, spelled=kind.spelled, why=kind.why))
            return Tensor(place=Unknown(at=at, reason=_reason(kind)))
        if name in ("item", "tolist", "numpy"):
            return Unknown(at=at)
        return target

    def _object_method(self, ref: Ref, obj: Obj, name, args, kwargs, at, node, frame) -> Value:
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
                why = (*frame.under, Why(*_split(at), f"`{_code(node, frame, self)}`"))
                obj.place = (
                    replace(goal, why=_keep((*goal.why, *why)))
                    if isinstance(goal, Device)
                    else goal
                )
                self._place_submodules(obj, {ref.id})
                return ref
            if name in ("parameters", "named_parameters"):
                return Seq(items=(ref,))  # the model's parameters, for an optimizer
            if name in _CHAINING:
                return ref
            return Unknown(at=at)
        if obj.kind == "parser":
            return self._parser_method(ref, obj, name, args, kwargs, at, frame)
        if obj.kind == "optimizer" and name == "step":
            self._event("optimizer", frame, node)
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
        if obj.kind == "process" and name == "start":
            callback = obj.attrs.get("__target__")
            params = obj.attrs.get("__args__")
            if callback is not None:
                items = list(params.items) if isinstance(params, Seq) else []
                self._apply(callback, items, {}, at, node, frame)
            return Const()
        if obj.kind == "framework" and name in ("train", "fit"):
            self._event("framework", frame, node, obj.spelled)
            return Unknown(at=at)
        if obj.kind == "accelerator" and name == "prepare":
            return self._prepared(args, at)
        if obj.kind == "accelerator" and name == "backward":
            self._event("backward", frame, node)
            return Const()
        return Unknown(at=at)

    def _place_submodules(self, obj: Obj, seen: set[int]) -> None:
        """``module.to(device)`` moves every module it holds (`self.encoder = nn.Sequential(...)`
        built in ``__init__``, a list of blocks): they take its place."""
        for value in obj.attrs.values():
            for item in value.items if isinstance(value, Seq) else (value,):
                if not isinstance(item, Ref) or item.id in seen:
                    continue
                seen.add(item.id)
                child = self.heap.get(item.id)
                if child is not None and child.kind == "model":
                    child.place = obj.place
                    self._place_submodules(child, seen)

    def _prepared(self, args: list[Value], at: str) -> Value:
        """``accelerator.prepare(...)``: the models and loaders on the accelerator's device."""
        device = Device(kind="accelerator", spelled="accelerator.device")
        out = []
        for value in args:
            obj = self.heap.get(value.id) if isinstance(value, Ref) else None
            if obj is not None and obj.kind in ("model", "loader"):
                obj.place = device
                if obj.kind == "loader" and self.facts.cut_loaders:
                    # accelerate wraps a loader in its MpDeviceLoaderWrapper on XLA
                    # (accelerate/data_loader.py, DistributedType.XLA): each batch cuts.
                    obj.attrs["__cuts__"] = Const(value=True)
            out.append(value)
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

    def _launched(self, flags, action, default, kind, at) -> Value:
        """An option's value on the known launches: the default where no launch line sets it,
        the value the launch lines give where they all agree, else undecided."""
        flag_text = "/".join(flags)
        lines = self.launch_lines.get(self.entry, ())
        values = []
        for line in lines:
            words = line.split(": ", 1)[-1].split()
            value: Value = default
            for index, word in enumerate(words):
                name, eq, rest = word.partition("=")
                if name not in flags:
                    continue
                if action == "store_true":
                    value = Const(value=True)
                elif action == "store_false":
                    value = Const(value=False)
                elif eq:
                    value = _typed(rest, kind)
                elif index + 1 < len(words):
                    value = _typed(words[index + 1], kind)
            values.append((line, value))
        path, line_no = _split(at)
        if not values:
            text = f"`{flag_text}` defaults to {_show(default)}"
            text += " and no launch line sets it" if not lines else ""
            return _with_why(default, (Why(path, line_no, text),))
        first = values[0][1]
        if isinstance(first, Unknown) and not first.at:
            first = replace(first, at=at)
        if all(
            v == first or isinstance(v, Unknown) and isinstance(first, Unknown) for _, v in values
        ):
            shown = "; ".join(line for line, _ in values[:2])
            text = f"`{flag_text}` is {_show(first)} on every launch line ({shown})"
            return _with_why(first, (Why(path, line_no, text),))
        plain = [line for line, v in values if v == default and not isinstance(v, Unknown)]
        if plain and isinstance(default, Const):
            # `python main.py` and `python main.py --no-accel`: the documented run is the one
            # with the default; the others opt out on purpose.
            text = f"`{flag_text}` is {_show(default)} as {plain[0]} launches it"
            return _with_why(default, (Why(path, line_no, text),))
        return Unknown(at=at, reason=f"the launch lines give `{flag_text}` different values")

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

    def _external(self, name, args, kwargs, at, node, frame) -> Value:
        facts = self.facts
        path, line = _split(at)
        spelled = f"`{_code(node, frame, self)}`"
        if name in facts.false_calls:
            return Const(value=False, why=(Why(path, line, f"{spelled} is False on the target"),))
        if name in facts.true_calls:
            return Const(value=True, why=(Why(path, line, f"{spelled} is True on the target"),))
        if name in facts.accelerator_calls:
            return Device(kind="accelerator", spelled=spelled)
        if name in facts.cut_calls:
            self._event("cut", frame, node, name)
            return Const()
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
            return _with_why(default, (Why(path, line, text),))
        if name == "argparse.ArgumentParser":
            return self._new(Obj("parser", built=at))
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
        if name == "next" and args:
            return self._element(args[0])
        if name in ("isinstance", "hasattr", "callable", "len", "print", "range"):
            return Unknown(at=at)
        if name in ("torch.autograd.Variable", "torch.autograd.variable.Variable"):
            return args[0] if args else Unknown(at=at)
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
            return self._new(Obj("loader", place=Device(kind="cpu"), built=at, spelled=spelled))
        if name.startswith("torch.optim.") and name[12:13].isupper() or ".optim." in name:
            params = args[0] if args else kwargs.get("params", Seq())
            models = [
                v for v in (params.items if isinstance(params, Seq) else ()) if isinstance(v, Ref)
            ]
            self.trained.update(v.id for v in models)
            return self._new(Obj("optimizer", built=at))
        if name.startswith(_ENGINES):
            obj = Obj("engine", built=at)
            if args:
                obj.attrs["__process__"] = args[0]
            return self._new(obj)
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
        if name in _LAUNCHES and args:
            rest = kwargs.get("args", Seq())
            items = list(rest.items) if isinstance(rest, Seq) else []
            self._apply(args[0], [Unknown(at=at, reason="the rank"), *items], {}, at, node, frame)
            return Const()
        if name in ("torch.multiprocessing.spawn", "torch.multiprocessing.start_processes"):
            if args:
                rest = kwargs.get("args", Seq())
                items = list(rest.items) if isinstance(rest, Seq) else []
                self._apply(
                    args[0], [Unknown(at=at, reason="the rank"), *items], {}, at, node, frame
                )
            return Const()
        if name == "accelerate.Accelerator":
            return self._new(Obj("accelerator", built=at))
        if name in ("transformers.TrainingArguments", "transformers.Seq2SeqTrainingArguments"):
            return self._new(Obj("namespace", attrs=dict(kwargs), built=at))
        if name.rsplit(".", 1)[-1] in _FRAMEWORK_CLASSES:
            owns = name in facts.owning_frameworks
            options = kwargs.get("args", args[1] if len(args) > 1 else None)
            held = self.heap.get(options.id) if isinstance(options, Ref) else None
            for flag in ("use_cpu", "no_cuda"):
                value = held.attrs.get(flag) if held is not None else None
                if value is not None and truth(value):
                    # The framework is told to train on the CPU.
                    spelled = f"!{name}: its arguments set `{flag}=True` ({at})"
                    return self._new(Obj("framework", built=at, spelled=spelled))
            obj = Obj("framework", built=at, spelled=name if owns else "?" + name)
            return self._new(obj)
        if name.startswith(_TENSOR_FACTORIES_PREFIX) and name.rsplit(".", 1)[-1] in _FACTORIES:
            device = kwargs.get("device")
            if device is None:
                return Tensor(place=Device(kind="cpu", why=(Why(path, line, spelled),)))
            return Tensor(place=self._move(Const(), device, at, node, frame))
        if _builds_model(name):
            place = Device(kind="cpu", why=(Why(path, line, spelled),))
            return self._new(Obj("model", place=place, built=at, spelled=spelled))
        if name.startswith("torch.") and args and isinstance(args[0], Tensor):
            return args[0]
        return Unknown(at=at, reason=f"{spelled} is outside the program")
