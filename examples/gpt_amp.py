"""A small GPT trained with CUDA mixed precision, gradient clipping and checkpoints (nanoGPT style).

Demonstrates the AMP-era patterns trncodemod has to deal with: `torch.autocast("cuda",
dtype=torch.float16, enabled=use_amp)` and `torch.cuda.amp.GradScaler(enabled=use_amp)` (both
disabled when CUDA is absent, so the script also runs on CPU), `clip_grad_norm_` after
`scaler.unscale_`, pinned `.cuda(non_blocking=True)` batch copies guarded by the device type,
a progress print with `loss.item()`, an eval pass, and `torch.save({...}, path)`.

Runs on CPU without downloads:  python examples/gpt_amp.py --steps 3
"""

import argparse
import math
import os
import tempfile
import time
from dataclasses import asdict, dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class GPTConfig:
    block_size: int = 32
    vocab_size: int = 64
    n_layer: int = 2
    n_head: int = 4
    n_embd: int = 64


class Block(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.n_head = cfg.n_head
        self.ln_1 = nn.LayerNorm(cfg.n_embd)
        self.c_attn = nn.Linear(cfg.n_embd, 3 * cfg.n_embd)
        self.c_proj = nn.Linear(cfg.n_embd, cfg.n_embd)
        self.ln_2 = nn.LayerNorm(cfg.n_embd)
        self.mlp = nn.Sequential(
            nn.Linear(cfg.n_embd, 4 * cfg.n_embd), nn.GELU(), nn.Linear(4 * cfg.n_embd, cfg.n_embd)
        )
        mask = torch.tril(torch.ones(cfg.block_size, cfg.block_size))
        self.register_buffer("bias", mask.view(1, 1, cfg.block_size, cfg.block_size))

    def attention(self, x):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(C, dim=2)
        q, k, v = (t.view(B, T, self.n_head, C // self.n_head).transpose(1, 2) for t in (q, k, v))
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float("-inf"))
        y = F.softmax(att, dim=-1) @ v
        return self.c_proj(y.transpose(1, 2).contiguous().view(B, T, C))

    def forward(self, x):
        x = x + self.attention(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class GPT(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.wte = nn.Embedding(cfg.vocab_size, cfg.n_embd)
        self.wpe = nn.Embedding(cfg.block_size, cfg.n_embd)
        self.blocks = nn.ModuleList(Block(cfg) for _ in range(cfg.n_layer))
        self.ln_f = nn.LayerNorm(cfg.n_embd)
        self.lm_head = nn.Linear(cfg.n_embd, cfg.vocab_size, bias=False)
        self.lm_head.weight = self.wte.weight  # weight tying
        for module in self.modules():
            if isinstance(module, (nn.Linear, nn.Embedding)):
                nn.init.normal_(module.weight, mean=0.0, std=0.02)

    def forward(self, idx, targets=None):
        pos = torch.arange(idx.size(1), device=idx.device)
        x = self.wte(idx) + self.wpe(pos)
        for block in self.blocks:
            x = block(x)
        logits = self.lm_head(self.ln_f(x))
        if targets is None:
            return logits, None
        return logits, F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))


def main():
    parser = argparse.ArgumentParser(description="Small GPT with AMP on a synthetic corpus")
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--grad-clip", type=float, default=1.0)
    parser.add_argument("--eval-iters", type=int, default=2)
    parser.add_argument("--log-interval", type=int, default=5)
    parser.add_argument("--out", default=None, help="folder for the checkpoint (default: temp)")
    args = parser.parse_args()

    torch.manual_seed(1337)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    use_amp = device.type == "cuda"
    cfg = GPTConfig()

    # A corpus with structure to learn: each token is mostly the previous one plus one.
    noise = torch.randint(0, 4, (20_000,)) == 0
    corpus = torch.cumsum(torch.where(noise, torch.randint(0, cfg.vocab_size, (20_000,)), 1), 0)
    corpus = corpus % cfg.vocab_size
    data = {"train": corpus[:18_000], "val": corpus[18_000:]}

    def get_batch(name):
        source = data[name]
        ix = torch.randint(len(source) - cfg.block_size - 1, (args.batch_size,))
        x = torch.stack([source[i : i + cfg.block_size] for i in ix])
        y = torch.stack([source[i + 1 : i + 1 + cfg.block_size] for i in ix])
        if device.type == "cuda":
            return x.pin_memory().cuda(non_blocking=True), y.pin_memory().cuda(non_blocking=True)
        return x.to(device), y.to(device)

    model = GPT(cfg).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, betas=(0.9, 0.95))
    scaler = torch.cuda.amp.GradScaler(enabled=use_amp)

    @torch.no_grad()
    def estimate_loss():
        model.eval()
        out = {}
        for name in ("train", "val"):
            total = 0.0
            for _ in range(args.eval_iters):
                x, y = get_batch(name)
                with torch.autocast("cuda", dtype=torch.float16, enabled=use_amp):
                    _, loss = model(x, y)
                total += loss.item()
            out[name] = total / args.eval_iters
        model.train()
        return out

    t0 = time.time()
    for iter_num in range(args.steps):
        x, y = get_batch("train")
        with torch.autocast("cuda", dtype=torch.float16, enabled=use_amp):
            _, loss = model(x, y)
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)
        torch.nn.utils.clip_grad_norm_(model.parameters(), args.grad_clip)
        scaler.step(optimizer)
        scaler.update()
        optimizer.zero_grad(set_to_none=True)
        if iter_num % args.log_interval == 0:
            dt, t0 = time.time() - t0, time.time()
            print(f"iter {iter_num}/{args.steps}: loss {loss.item():.4f}, {dt * 1000:.0f}ms")

    losses = estimate_loss()
    print(f"train loss {losses['train']:.4f}, val loss {losses['val']:.4f}")
    out = args.out or tempfile.mkdtemp(prefix="gpt_amp_")
    os.makedirs(out, exist_ok=True)
    checkpoint = {
        "model": model.state_dict(),
        "optimizer": optimizer.state_dict(),
        "scaler": scaler.state_dict(),
        "iter_num": args.steps,
        "config": asdict(cfg),
        "val_loss": losses["val"],
    }
    path = os.path.join(out, "ckpt.pt")
    torch.save(checkpoint, path)
    print(f"Saved {path}")


if __name__ == "__main__":
    main()
