"""Hypothesis strategies that write PyTorch training scripts the way people write them.

Each program is assembled from the shapes the passes look for (device moves, optimizer steps,
gradient accumulation, ``.item()`` in logging, accumulators and conditions, DataLoaders,
tokenizer calls, AMP, float64) in varied spellings and nestings, and always compiles: the
properties test the tool, not the generator. ``plain_loops`` writes the same shapes with no
PyTorch in them, which the tool must leave byte-identical.
"""

from __future__ import annotations

from hypothesis import strategies as st

INDENT = "    "

# (import lines, how `torch`, `torch.nn`, `torch.optim` and `DataLoader` are spelt after them)
IMPORT_STYLES = (
    (
        "import torch\nfrom torch.utils.data import DataLoader, TensorDataset\n",
        {"torch": "torch", "nn": "torch.nn", "optim": "torch.optim", "DL": "DataLoader"},
    ),
    (
        "import torch as th\nimport torch.utils.data as tud\nfrom torch.utils.data import TensorDataset\n",
        {"torch": "th", "nn": "th.nn", "optim": "th.optim", "DL": "tud.DataLoader"},
    ),
    (
        "import torch\nfrom torch import nn, optim\nfrom torch.utils.data import DataLoader as DL, TensorDataset\n",
        {"torch": "torch", "nn": "nn", "optim": "optim", "DL": "DL"},
    ),
)

DEVICE_LINES = (
    'device = {torch}.device("cuda" if {torch}.cuda.is_available() else "cpu")',
    'device = "cuda"',
    "device = {torch}.device('cuda:0')",
    'device = {torch}.device("cuda", 0)',
)

MODEL_MOVES = ("model = model.cuda()", "model.to(device)", "model = model.to(device)", "")

OPTIMIZERS = (
    "optimizer = {optim}.AdamW(model.parameters(), lr={lr})",
    "optimizer = {optim}.SGD(model.parameters(), lr={lr}, momentum=0.9)",
    "optimizer = {optim}.Adam(model.parameters(), lr={lr}, fused=True)",
)

DATASETS = (
    "dataset = TensorDataset({torch}.randn({n}, 8), {torch}.randint(0, 2, ({n},)))",
    "dataset = TensorDataset({torch}.randn({n}, 8, dtype={torch}.float64), {torch}.randint(0, 2, ({n},)))",
    "dataset = TensorDataset({torch}.tensor(features, dtype={torch}.double), {torch}.tensor(labels))",
)

LOADERS = (
    "loader = {DL}(dataset, batch_size={bs}, shuffle=True)",
    "loader = {DL}(dataset, batch_size={bs}, shuffle=True, drop_last=True, num_workers=2)",
    "loader = {DL}(dataset, {bs})",
)

# Statements of one training step; each is a list of lines, "+" opening a nested block.
BATCH_MOVES = (
    ["x, y = x.to(device), y.to(device)"],
    ["x = x.cuda()", "y = y.cuda(non_blocking=True)"],
    ["x = x.to(device, dtype={torch}.float32)", "y = y.to(device)"],
    ["x = x.to('cuda')", "y = y.cuda()"],
)

STEP_BODIES = (
    ["optimizer.zero_grad()", "loss = loss_fn(model(x), y)", "loss.backward()", "optimizer.step()"],
    [
        "loss = loss_fn(model(x), y) / accum",
        "loss.backward()",
        "if (step + 1) % accum == 0:",
        "+optimizer.step()",
        "+optimizer.zero_grad(set_to_none=True)",
    ],
    [
        "with {torch}.autocast('cuda', dtype={torch}.bfloat16):",
        "+loss = loss_fn(model(x), y)",
        "loss.backward()",
        "{torch}.nn.utils.clip_grad_norm_(model.parameters(), 1.0)",
        "optimizer.step()",
        "optimizer.zero_grad()",
    ],
    [
        "with {torch}.cuda.amp.autocast():",
        "+loss = loss_fn(model(x), y)",
        "scaler.scale(loss).backward()",
        "scaler.step(optimizer)",
        "scaler.update()",
        "optimizer.zero_grad()",
    ],
)

STEP_EXTRAS = (
    ["running += loss.item()"],
    ["losses.append(loss.item())"],
    ["if step % 10 == 0:", '+print(f"step {{step}} loss {{loss.item():.4f}}")'],
    ["if loss.item() < 1e-3:", "+break"],
    ["if not {torch}.isfinite(loss):", "+continue"],
    ["correct += (model(x).argmax(1) == y).sum().item()"],
    ["total += float(loss)"],
    ['print("lr", scheduler.get_last_lr()[0], "loss", int(loss.detach().cpu().item()))'],
    ["{torch}.cuda.synchronize()"],
    ["if step >= max_steps:", "+break"],
    ["step += 1"],
    ["scheduler.step()"],
    ["def log(value):", '+print("loss", value.item())', "log(loss)"],
    ["seq = tokenizer(texts, padding=True, truncation=True, return_tensors='pt')"],
    ["w = {torch}.zeros(3, dtype={torch}.float64).cuda()"],
    ["mem = {torch}.cuda.memory_allocated()"],
)

LOOP_HEADERS = (
    ["for step, (x, y) in enumerate(loader):"],
    ["for x, y in loader:"],
    ["for step, batch in enumerate(loader, start=1):", "+x, y = batch"],
    ["it = iter(loader)", "while step < max_steps:", "+x, y = next(it)"],
)

SETUP = """\
model = {nn}.Sequential({nn}.Linear(8, 16), {nn}.ReLU(), {nn}.Linear(16, 2))
loss_fn = {nn}.CrossEntropyLoss()
scaler = {torch}.cuda.amp.GradScaler()
features, labels = [[0.0] * 8] * {n}, [0] * {n}
texts = ["a b", "c"]
accum, max_steps, step, running, total, correct, losses = {accum}, {steps}, 0, 0.0, 0.0, 0, []
"""


def _indent(lines: list[str], depth: int) -> list[str]:
    """Lines whose leading '+' marks one more level than the statement before them."""
    return [
        INDENT * (depth + len(line) - len(line.lstrip("+"))) + line.lstrip("+") for line in lines
    ]


@st.composite
def training_scripts(draw: st.DrawFn) -> str:
    """A complete GPU training script: imports, device, data, model, optimizer, loop(s)."""
    imports, names = draw(st.sampled_from(IMPORT_STYLES))
    values = {
        **names,
        "n": draw(st.integers(4, 64)),
        "bs": draw(st.sampled_from((1, 4, 8, 32))),
        "lr": draw(st.sampled_from(("1e-3", "0.1", "3e-4"))),
        "accum": draw(st.integers(1, 8)),
        "steps": draw(st.integers(1, 100)),
    }
    tokenizer = draw(
        st.sampled_from(
            (
                "tokenizer = str.split\n",
                "from transformers import AutoTokenizer\ntokenizer = AutoTokenizer.from_pretrained('bert-base-uncased')\n",
            )
        )
    )
    head = [imports + tokenizer + draw(st.sampled_from(DEVICE_LINES)), SETUP]
    head.append(draw(st.sampled_from(DATASETS)))
    head.append(draw(st.sampled_from(LOADERS)))
    head.append(draw(st.sampled_from(MODEL_MOVES)))
    head.append(draw(st.sampled_from(OPTIMIZERS)))
    head.append("scheduler = {optim}.lr_scheduler.StepLR(optimizer, step_size=1)")

    step: list[str] = list(draw(st.sampled_from(LOOP_HEADERS)))
    body = [*draw(st.sampled_from(BATCH_MOVES)), *draw(st.sampled_from(STEP_BODIES))]
    extras = draw(st.lists(st.sampled_from(STEP_EXTRAS), max_size=5))
    order = draw(st.permutations(range(len(extras) + 1)))
    chunks = [body, *extras]
    for index in order:
        body_or_extra = chunks[index]
        step.extend("+" + line for line in body_or_extra)
    if draw(st.booleans()):  # an outer epoch loop
        step = ["for epoch in range(2):", *("+" + line for line in step)]
    if draw(st.booleans()):  # an eval loop after training
        step += [
            "with {torch}.no_grad():",
            "+for x, y in loader:",
            "++correct += (model(x.to(device)).argmax(1) == y.to(device)).sum().item()",
        ]

    wrap = draw(st.sampled_from(("module", "function", "nested", "method")))
    if wrap == "module":
        lines = _indent(step, 0)
    elif wrap == "function":
        lines = [
            "def train(model, loader, optimizer):",
            *_indent(step, 1),
            "",
            "train(model, loader, optimizer)",
        ]
    elif wrap == "nested":
        lines = [
            "def main():",
            *_indent(["def run_epoch():", *("+" + line for line in step)], 1),
            INDENT + "run_epoch()",
        ]
    else:
        lines = [
            "class Trainer:",
            INDENT + "def fit(self, model, loader, optimizer):",
            *_indent(step, 2),
        ]
    # `step`, `running`... are assigned inside functions too: make them local there.
    if wrap != "module":
        prologue = "accum, max_steps, step, running, total, correct, losses = {accum}, {steps}, 0, 0.0, 0.0, 0, []"
        depth = {"function": 1, "nested": 2, "method": 2}[wrap]
        lines.insert(depth, INDENT * depth + prologue)
    text = "\n".join([*head, *lines]) + "\n"
    return text.format(**values)


# `optimizer.step()` / `model.backward(v)` on objects of another library are left out here: the
# step-marker pass rewrites them (test_properties.py pins that bug with a strict xfail).
PLAIN_BODIES = (
    ["total += stats.item()"],
    ["if value.item() > 3:", "+break"],
    ["print(f'{step}: {float(value)}')"],
    ["tokens = tokenizer(text)"],
    ["count = int(value) + len(tokens)"],
    ["if step % 2:", "+continue"],
    ["values = numpy.asarray(values, dtype=numpy.float32)"],
    ["def helper(v):", "+return v.tolist()", "helper(values)"],
)


@st.composite
def plain_loops(draw: st.DrawFn) -> str:
    """Training-loop shapes with no PyTorch at all: nothing for the tool to migrate."""
    body: list[str] = []
    for chunk in draw(st.lists(st.sampled_from(PLAIN_BODIES), min_size=1, max_size=6)):
        body.extend(chunk)
    header = draw(
        st.sampled_from(
            (
                ["for step, value in enumerate(loader):"],
                ["step = 0", "while step < 10:", "+value = loader[step]", "+step += 1"],
            )
        )
    )
    loop = [*header, *("+" + line for line in body)]
    text = "\n".join(
        [
            "import numpy",
            "from mylib import DataLoader, Optimizer, tokenizer",
            "loader = DataLoader(range(10), batch_size=2)",
            "optimizer, model, stats, total, text, tokens = Optimizer(), object(), loader, 0, 'a b', []",
            "values = [1.0, 2.0]",
            *_indent(loop, 0),
        ]
    )
    return text + draw(st.sampled_from(("\n", "", "\n\n# end\n")))
