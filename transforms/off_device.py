"""Objects that cannot live on the XLA device, in model and training code: a recurrent module
called on a ``PackedSequence`` (TRN028) and sparse tensors (TRN029). Each raises at the step on
torch-xla 2.9 where the same program ran on the CPU or CUDA, so each is a blocker at its cause:
the entry point that reaches it does not run (``trncodemod.analysis.verdict.with_blockers``).

The facts are data, per backend (``data/device_facts.toml``: ``recurrent_modules``,
``packing_calls``, ``sparse_calls``, ``sparse_methods``), measured by ``benchmarks/xla_facts.py``
(``packed_sequences``, ``sparse_tensors``); none is claimed for ``neuron``. Keeping only the
sparse tensor on the CPU does not make the step run (``torch.spmm`` of a CPU sparse tensor and a
device tensor raises too, measured), so the program is kept on the CPU instead: every module
that only training entry points which stop run is left as it is, each rewrite reported as not
applied (``ModuleView.off_device``, from ``analysis.off_device_scan``; the port must never crash
where the original runs). Which form replaces the packing or the sparse product is a person's
choice (see each rule's docs).
"""

from __future__ import annotations

import libcst as cst
from libcst.metadata import PositionProvider

from trncodemod.analysis.device_facts import Facts, facts_for
from trncodemod.analysis.facts import FileFacts
from trncodemod.analysis.model_code import model_code, walk
from trncodemod.analysis.nodes import find
from trncodemod.findings import Rule, Safety, Severity
from trncodemod.passes import Pass
from trncodemod.targets import Target


class PackedSequenceRnn(Rule):
    """## What it does
    Reports a recurrent module (`nn.LSTM`, `nn.GRU`, `nn.RNN`) of model or training code called
    on a `PackedSequence`: the result of `pack_padded_sequence(...)` or `pack_sequence(...)`,
    passed directly or through a name the same function bound to it. The module is one built
    by a recurrent class, by a parameter whose default is one (`rnn_type=nn.LSTM`), or by a
    name every binding of which is one (`rnn = nn.GRU` in one branch, `nn.LSTM` in another).
    XLA targets only.

    ## Why
    On torch 2.9.0 + torch-xla 2.9.0 an `nn.LSTM` or `nn.RNN` on the XLA device called on a
    `PackedSequence` raises `RuntimeError: The tensor has a non-zero number of elements, but its
    data is not allocated yet`, and an `nn.GRU` raises `AssertionError: PackedSequence is not
    supported`; the same modules on the padded batch run (measured [measured-packed-sequences]).
    The step would stop at this call: a blocker. The tool keeps the program on the CPU, where it
    runs: the modules that only training entry points reaching this call run are left as they
    are, each of their rewrites reported as not applied, so the port never crashes where the
    original ran. Which form replaces the packing changes what the model computes, so a person
    chooses it; then the tool ports the program.

    ## Example
    ```python
    packed = pack_padded_sequence(embeddings, lengths, batch_first=True)
    hiddens, _ = self.lstm(packed)
    outputs = self.linear(hiddens[0])
    ```

    ## Use instead
    ```python
    # the padded batch, and the loss masked to the real positions (a unidirectional LSTM's
    # outputs at real positions are the same; its final state is not, take it at lengths - 1)
    hiddens, _ = self.lstm(embeddings)
    outputs = self.linear(hiddens[mask])  # or keep the padded shape and mask the loss
    ```
    """

    code = "TRN028"
    name = "packed-sequence-on-device"
    summary = "a recurrent module called on a PackedSequence raises on the XLA device (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.BLOCKER
    sources = ("measured-packed-sequences",)


class SparseOnDevice(Rule):
    """## What it does
    Reports sparse tensors in model and training code on XLA targets: the calls that make or
    multiply them (`torch.sparse_coo_tensor`, the legacy `torch.sparse.FloatTensor`,
    `torch.spmm`, `torch.sparse.mm`, ...) and `x.to_sparse()`. A sparse tensor made and made dense
    in one expression (`torch.sparse_coo_tensor(...).to_dense()`) is not reported.

    ## Why
    The XLA backend has no sparse tensors: on torch 2.9.0 + torch-xla 2.9.0 moving a sparse COO
    tensor to the device (`torch.sparse_coo_tensor`, `torch.sparse.FloatTensor`,
    `.to_sparse()`) raises `NotImplementedError: Could not run
    'aten::_sparse_coo_tensor_with_dims_and_tensors' with arguments from the 'SparseXLA'
    backend`, and `torch.spmm` of a sparse tensor kept on the CPU and a device tensor raises the
    same for `aten::mm`; the same adjacency made dense and multiplied with `torch.mm` on the
    device runs (measured [measured-sparse-tensors]). So keeping only the sparse tensor on the
    CPU does not make the step run either: the tool keeps the whole program on the CPU, where it
    runs (the modules that only training entry points reaching a sparse product run are left as
    they are, each of their rewrites reported as not applied), and reports this line, a
    blocker. Dense memory is the cost of the fix: an n×n adjacency of n = 2708 nodes is 29 MB in
    float32.

    ## Example
    ```python
    adj = torch.sparse.FloatTensor(indices, values, shape)
    ...
    output = torch.spmm(adj, support)
    ```

    ## Use instead
    ```python
    adj = torch.sparse.FloatTensor(indices, values, shape).to_dense()
    ...
    output = torch.mm(adj, support)
    ```
    """

    code = "TRN029"
    name = "sparse-on-device"
    summary = "sparse tensors cannot live on the XLA device: the step raises (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.BLOCKER
    sources = ("measured-sparse-tensors",)


class PackedSequenceBackward(Rule):
    """## What it does
    Reports `pack_padded_sequence(...)` or `pack_sequence(...)` in a function that runs
    `backward()`, the training step, where the packed tensor is not given to a recurrent module
    (that is TRN028): a decoder's scores and targets packed to drop the padding before the loss
    (`criterion(pack_padded_sequence(scores, lengths, batch_first=True).data, targets)`). XLA
    targets only.

    ## Why
    On torch 2.9.0 + torch-xla 2.9.0 the packing itself runs on the XLA device, but its backward
    raises `RuntimeError: The tensor has a non-zero number of elements, but its data is not
    allocated yet`; without gradients (an evaluation under `torch.no_grad()`) it runs (measured
    [measured-packed-sequences]). The step would stop at `loss.backward()`: a blocker. As for
    TRN028, the tool keeps the program on the CPU, where it runs, until a person replaces the
    packing.

    ## Example
    ```python
    scores = pack_padded_sequence(scores, decode_lengths, batch_first=True).data
    targets = pack_padded_sequence(targets, decode_lengths, batch_first=True).data
    loss = criterion(scores, targets)
    loss.backward()
    ```

    ## Use instead
    ```python
    # the padded scores, and the loss masked to the real positions
    mask = torch.arange(scores.size(1), device=scores.device)[None, :] < lengths[:, None]
    loss = criterion(scores[mask], targets[mask])  # or reduction="none", times the mask
    loss.backward()
    ```
    """

    code = "TRN062"
    name = "packed-sequence-backward"
    summary = "a PackedSequence in a step that runs backward: its backward raises on the XLA device"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.BLOCKER
    sources = ("measured-packed-sequences",)


RULES: tuple[type[Rule], ...] = (PackedSequenceRnn, SparseOnDevice, PackedSequenceBackward)


def _is_backward(call: cst.Call) -> bool:
    """`loss.backward()`, `accelerator.backward(loss)`, `scaler.scale(loss).backward()`."""
    return isinstance(call.func, cst.Attribute) and call.func.attr.value == "backward"


def _own_calls(scope: cst.FunctionDef | cst.For | cst.While) -> list[cst.Call]:
    """The calls of ``scope``'s body, not of the functions defined inside it."""
    found: list[cst.Call] = []
    stack: list[cst.CSTNode] = [scope.body]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.FunctionDef | cst.Lambda | cst.ClassDef):
            continue
        if isinstance(node, cst.Call):
            found.append(node)
        stack.extend(node.children)
    return found


# Methods that move, cast or reshape a tensor: what they return carries what it did.
_DATA_METHODS = frozenset(
    {"to", "cuda", "cpu", "long", "float", "int", "half", "detach", "contiguous", "view"}
    | {"reshape", "squeeze", "unsqueeze", "transpose", "permute", "clone"}
)


def _backend(target: Target) -> Facts:
    return facts_for("xla" if target.is_xla else "neuron")


def _code(node: cst.CSTNode) -> str:
    return cst.Module(body=[]).code_for_node(node)


class OffDevice(Pass):
    name = "off-device"
    rules = RULES
    needles = ("pack_padded_sequence", "pack_sequence", "sparse", "spmm", "smm(")

    @classmethod
    def candidate(cls, facts: FileFacts, target: Target) -> bool:
        known = _backend(target)
        return facts.reaches(*known.packing_calls, *known.sparse_calls) or (
            bool(known.sparse_methods) and not facts.calls.isdisjoint(known.sparse_methods)
        )

    def visit_Module(self, node: cst.Module) -> bool:
        self.known = _backend(self.target)
        if not self.known.packing_calls and not self.known.sparse_calls:
            return False
        self._recurrent = self._recurrent_names(node)
        self._fed: set[cst.Call] = set()  # packing calls a recurrent module is called on
        self._packing_reported: set[cst.Call] = set()
        roots = model_code(self, node)
        for found in walk(roots):
            if isinstance(found, cst.FunctionDef):
                self._packed_calls(found)
            elif isinstance(found, cst.Call):
                self._sparse(found)
        for root in roots:
            if isinstance(root, cst.For | cst.While):  # a step loop of a function not itself walked
                self._packed_backward(root)
        return False

    # -- TRN029 --------------------------------------------------------------------------------
    def _sparse(self, call: cst.Call) -> None:
        qualified = self.qualified_names(call.func)
        names = {
            n
            for n in qualified
            if n in self.known.sparse_calls or n.startswith(tuple(self.known.sparse_prefixes))
        }
        method = call.func.attr.value if isinstance(call.func, cst.Attribute) else None
        if names:
            spelled = f"`{min(names)}`"
        elif method in self.known.sparse_methods:
            spelled = f"`.{method}()`"
        else:
            return
        parent = self.get_metadata(cst.metadata.ParentNodeProvider, call, None)
        if isinstance(parent, cst.Attribute) and parent.attr.value == "to_dense":
            return  # made dense at once: the twin
        self.report(
            call,
            SparseOnDevice,
            f"{spelled} makes or multiplies a sparse tensor, and sparse tensors cannot live on the XLA"
            " device (moving one there raises `NotImplementedError` on the 'SparseXLA' backend; a CPU "
            "sparse tensor times a device tensor raises the same): the step stops here; make the "
            "tensor dense before it moves (`.to_dense()`) and multiply with `torch.mm`",
            False,
        )

    # -- TRN028 --------------------------------------------------------------------------------
    def _recurrent_names(self, module: cst.Module) -> set[str]:
        """What the file binds to a recurrent module: `self.lstm` (as "lstm") or `rnn`."""
        bound: set[str] = set()
        for assign in find(module, cst.Assign):
            value = assign.value  # type: ignore[attr-defined]
            if not isinstance(value, cst.Call):
                continue
            if not (
                self.qualified_names(value.func) & self.known.recurrent_modules
                or self._recurrent_parameter(assign, value.func)
                or self._recurrent_alias(value.func)
            ):
                continue
            for target in assign.targets:  # type: ignore[attr-defined]
                if isinstance(target.target, cst.Name):
                    bound.add(target.target.value)
                elif isinstance(target.target, cst.Attribute):
                    bound.add(target.target.attr.value)
        return bound

    def _recurrent_alias(self, func: cst.BaseExpression) -> bool:
        """``func`` is a name every binding of which is a recurrent module's class: `rnn =
        nn.GRU` in one branch, `rnn = nn.LSTM` in another, then `self.encoder = rnn(...)`."""
        if not isinstance(func, cst.Name):
            return False
        values = self.bound_values(func)
        return bool(values) and all(
            bool(self.qualified_names(v) & self.known.recurrent_modules) for v in values
        )

    def _recurrent_parameter(self, assign: cst.CSTNode, func: cst.BaseExpression) -> bool:
        """``func`` is a parameter of the function around ``assign`` whose default is a
        recurrent module's class: `def __init__(self, ..., rnn_type=nn.LSTM)` then
        `self.rnn = rnn_type(...)` (nn.LSTM, nn.GRU and nn.RNN all raise on a PackedSequence)."""
        if not isinstance(func, cst.Name):
            return False
        node: cst.CSTNode | None = assign
        while node is not None and not isinstance(node, cst.FunctionDef):
            node = self.get_metadata(cst.metadata.ParentNodeProvider, node, None)
        if node is None:
            return False
        params = [*node.params.params, *node.params.kwonly_params]
        return any(
            p.name.value == func.value
            and p.default is not None
            and bool(self.qualified_names(p.default) & self.known.recurrent_modules)
            for p in params
        )

    def _is_packing(self, node: cst.BaseExpression) -> bool:
        return isinstance(node, cst.Call) and bool(
            self.qualified_names(node.func) & self.known.packing_calls
        )

    def _packed_calls(self, function: cst.FunctionDef) -> None:
        self._fed |= self._packed_rnn_calls(function)
        self._packed_backward(function)

    def _line_column(self, node: cst.CSTNode) -> tuple[int, int]:
        start = self.get_metadata(PositionProvider, node).start
        return start.line, start.column

    def _packed_backward(self, scope: cst.FunctionDef | cst.For | cst.While) -> None:
        """TRN062: a packing call, not fed to a recurrent module, where ``scope`` runs
        `backward()`."""
        calls = _own_calls(scope)
        if not any(_is_backward(c) for c in calls):
            return
        for call in sorted(calls, key=self._line_column):
            if not self._is_packing(call) or call in self._fed or not call.args:
                continue
            if not self._computed(call.args[0].value, scope):
                continue  # the batch's own labels, packed to flatten the loss's targets
            if call not in self._packing_reported:
                self._packing_reported.add(call)
                self.report(
                    call,
                    PackedSequenceBackward,
                    f"`{_code(call.func)}(...)` packs a tensor in a step that runs `backward()`: "
                    "on the XLA device the packing's backward raises ('its data is not "
                    "allocated yet'; without gradients it runs): the step stops at the "
                    "backward; keep the padded batch and mask the padded positions out of the loss",
                    False,
                )
            return  # one cause a step

    def _computed(self, value: cst.BaseExpression, scope: cst.CSTNode, depth: int = 0) -> bool:
        """Whether ``value`` is what a call of the program's or a library's model returns
        (`scores` of `scores, lengths = decoder(imgs, caps)`, `self.embed(x)`), which may carry
        gradients; not a batch the loop took, nor a tensor torch made (`torch.randint(...)`),
        moved, cast or sliced. A parameter, or a name bound otherwise, is not."""
        while True:
            if isinstance(value, cst.Attribute | cst.Subscript):
                value = value.value
            elif (
                isinstance(value, cst.Call)
                and isinstance(value.func, cst.Attribute)
                and value.func.attr.value in _DATA_METHODS
            ):
                value = value.func.value
            else:
                break
        if isinstance(value, cst.Call):
            return not any(n.startswith("torch.") for n in self.qualified_names(value.func))
        if not isinstance(value, cst.Name) or depth > 3:
            return False
        for assign in find(scope, cst.Assign):
            for target in assign.targets:  # type: ignore[attr-defined]
                names = {n.value for n in find(target.target, cst.Name)}
                if value.value in names and target.target is not None:
                    return self._computed(assign.value, scope, depth + 1)  # type: ignore[attr-defined]
        return False

    def _packed_rnn_calls(self, function: cst.FunctionDef) -> set[cst.Call]:
        """Report each recurrent module called on a packing (TRN028); the packing calls it
        was fed, as written."""
        fed: set[cst.Call] = set()
        if not self._recurrent:
            return fed
        packed: dict[str, list[cst.Call]] = {}
        for assign in find(function, cst.Assign):
            if self._is_packing(assign.value):  # type: ignore[attr-defined]
                for target in assign.targets:  # type: ignore[attr-defined]
                    if isinstance(target.target, cst.Name):
                        packed.setdefault(target.target.value, []).append(assign.value)  # type: ignore[attr-defined]
        for call in find(function, cst.Call):
            func = call.func  # type: ignore[attr-defined]
            name = (
                func.value
                if isinstance(func, cst.Name)
                else func.attr.value
                if isinstance(func, cst.Attribute)
                else None
            )
            if name not in self._recurrent or not call.args:  # type: ignore[attr-defined]
                continue
            first = call.args[0].value  # type: ignore[attr-defined]
            if self._is_packing(first) or (isinstance(first, cst.Name) and first.value in packed):
                if self._is_packing(first):
                    fed.add(first)
                else:
                    fed.update(packed[first.value])  # type: ignore[union-attr]
                self.report(
                    call,
                    PackedSequenceRnn,
                    f"`{_code(func)}` is a recurrent module called on a PackedSequence "
                    f"(`{_code(first)[:60]}`), which raises on the XLA device (`nn.LSTM`/`nn.RNN`: "
                    "'its data is not allocated yet'; `nn.GRU`: 'PackedSequence is not "
                    "supported'): the step stops here; run it on the padded batch and mask the "
                    "padded positions out of the loss (and take a final state at `lengths - 1`)",
                    False,
                )
        return fed
