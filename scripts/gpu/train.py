"""ndb's training recipe in plain PyTorch, for the GPU bundle (docs/gpu-training.md).

Trains the project's model (Hugging Face's LlamaForCausalLM layout and parameter
names, built here from its own short definition, so neither transformers nor
safetensors is needed) on token shards that generators write while it runs, with the
recipe of train/loop.go: AdamW (0.9, 0.95, weight decay 0.1), linear warmup then
cosine to zero, here over a time budget; gradient-norm clip 1.0; packed windows that
start at a trajectory's first token and run on into the next ones, with no loss on
source-context targets (train/batches.go). It then writes a checkpoint that the Go
loader (infer.Load) and transformers both read: config.json, safetensors shards of
at most MAX_SHARD_MB with model.safetensors.index.json, tokenizer.json, and
train_state.json.

    python3 train.py --data DIR --tokenizer tokenizer.json --out DIR [options]
    torchrun --nproc_per_node=N train.py ...   (or python3 -m torch.distributed.run)

Under torchrun (RANK, WORLD_SIZE, LOCAL_RANK set) every rank trains a replica with
DistributedDataParallel (nccl on CUDA, gloo on the CPU): --batch is the global batch,
each rank draws the same global batch of window positions from the shared seed and
trains its own 1/N slice, and the loss is scaled so that the averaged gradient is the
one-process gradient of the whole batch; N ranks with batch B/N each take the steps of
one process with batch B. Rank 0 decides the schedule's position, the stop and the
evaluations (one small all-reduce a step), logs, and writes the checkpoint.

DIR holds one folder per finished generator round (train.bin, eval.bin and a DONE
marker, written by ndb-datagen); new folders are picked up as they appear. Runs on
CUDA in bf16 autocast, or on the CPU in fp32 (the dry run; PyTorch 1.13 is enough).
"""

import argparse
import contextlib
import json
import math
import os
import struct
import sys
import time

import numpy as np
import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel

from llama import Llama, save_checkpoint  # beside this file

IGNORE = -100  # infer.IgnoreIndex, PyTorch's default ignore_index

# name: (hidden_size, layers, heads, intermediate_size)
PRESETS = {
    "tiny": (64, 2, 4, 176),
    "small": (256, 4, 8, 704),  # the shipped CPU model's shape (train.DefaultModel)
    "15m": (384, 7, 6, 1024),
}


# ---------------------------------------------------------------- data


def read_shard(path):
    """A token shard (NDBTOKS1, train/corpus/shards.go) as an int32 array; None while
    its header is not yet written."""
    with open(path, "rb") as f:
        hdr = f.read(32)
        if len(hdr) < 32 or hdr[:8] != b"NDBTOKS1":
            return None
        _, vocab, tb, _, n = struct.unpack("<IIIIQ", hdr[8:32])
        ids = np.fromfile(f, dtype="<u2" if tb == 2 else "<u4", count=n)
    return ids.astype(np.int32), vocab


class Stream:
    """Token ids of many shards, one after the other, indexed as train/batches.go
    does: where each trajectory starts, and which ids are in a source context (from
    <|trace_context_start|> to the direction token, both included)."""

    def __init__(self, start, directions):
        self.start, self.directions = start, directions
        self.parts = []  # (ids, in_ctx) of each shard
        self.ids = np.zeros(0, np.int32)
        self.in_ctx = np.zeros(0, bool)
        self.starts = np.zeros(0, np.int64)

    def add(self, ids):
        """Appends a shard's ids; a shard starts at a trajectory's first token, so
        its context flags do not depend on what came before."""
        if len(ids) == 0:
            return
        idx = np.arange(len(ids))
        last_start = np.maximum.accumulate(np.where(ids == self.start, idx, -1))
        last_dir = np.maximum.accumulate(np.where(np.isin(ids, self.directions), idx, -1))
        before = np.concatenate(([-1], last_dir[:-1]))  # the last direction token before i
        self.parts.append((ids, last_start > before))
        self.ids = np.concatenate([p[0] for p in self.parts])
        self.in_ctx = np.concatenate([p[1] for p in self.parts])
        self.starts = np.flatnonzero(self.ids == self.start)

    def sample(self, rng, b, t, context_loss=False, part=slice(None)):
        """A batch of b packed windows of t+1 ids starting at trajectory starts; a
        window whose last target is in a context is drawn again (up to 16 times).
        part selects this rank's windows of the batch; the draws (and so rng's state
        after them) do not depend on it."""
        n = len(self.ids)
        at = self.starts[rng.integers(len(self.starts), size=b)]
        if not context_loss:
            for _ in range(16):
                bad = self.in_ctx[(at + t) % n]
                if not bad.any():
                    break
                at = np.where(bad, self.starts[rng.integers(len(self.starts), size=b)], at)
        at = at[part]
        pos = (at[:, None] + np.arange(t + 1)[None, :]) % n  # [b, t+1]
        x = self.ids[pos[:, :-1]].astype(np.int64)
        y = self.ids[pos[:, 1:]].astype(np.int64)
        if not context_loss:
            y[self.in_ctx[pos[:, 1:]]] = IGNORE
        return torch.from_numpy(x), torch.from_numpy(y)


class Shards:
    """Watches a folder of generator rounds and adds each finished one (a DONE
    marker beside train.bin and eval.bin) to the train and eval streams."""

    def __init__(self, root, start, directions, vocab):
        self.root, self.vocab = root, vocab
        self.train, self.eval = Stream(start, directions), Stream(start, directions)
        self.seen = set()

    def poll(self):
        try:
            names = sorted(os.listdir(self.root))
        except FileNotFoundError:
            return 0
        added = 0
        for name in names:
            d = os.path.join(self.root, name)
            if name in self.seen or not os.path.exists(os.path.join(d, "DONE")):
                continue
            self.seen.add(name)
            for split, stream in (("train.bin", self.train), ("eval.bin", self.eval)):
                r = read_shard(os.path.join(d, split))
                if r is None:
                    continue
                if r[1] != self.vocab:
                    sys.exit(f"{d}/{split}: vocabulary {r[1]}, the tokenizer has {self.vocab}")
                stream.add(r[0])
            added += 1
        return added


# ---------------------------------------------------------------- ranks


class Ranks:
    """The processes of a torchrun launch (RANK, WORLD_SIZE, LOCAL_RANK), or the one
    process of a plain run, where every collective is the identity."""

    def __init__(self):
        env = os.environ.get
        self.world = int(env("WORLD_SIZE", "1"))
        self.rank = int(env("RANK", "0"))
        self.local = int(env("LOCAL_RANK", "0"))
        self.local_world = int(env("LOCAL_WORLD_SIZE", str(self.world)))
        self.on = self.world > 1
        self.main = self.rank == 0

    def start(self, cuda):
        """Joins the process group: nccl between GPUs, gloo between CPU processes.
        The small per-step messages go through a gloo group on the CPU, so they never
        wait for the GPU."""
        self.ctl = None
        if self.on:
            dist.init_process_group("nccl" if cuda else "gloo")
            self.ctl = dist.new_group(backend="gloo") if cuda else dist.group.WORLD

    def part(self, batch):
        """This rank's windows of a global batch."""
        per = batch // self.world
        return slice(self.rank * per, (self.rank + 1) * per)

    def sum(self, values):
        """values (floats) summed over the ranks."""
        if not self.on:
            return [float(v) for v in values]
        t = torch.tensor([float(v) for v in values], dtype=torch.float64)
        dist.all_reduce(t, group=self.ctl)
        return t.tolist()

    def stop(self):
        if self.on:
            dist.barrier()
            dist.destroy_process_group()


# ---------------------------------------------------------------- training


def lr_at(frac, warmup, peak):
    """train.LearningRate over the elapsed share of the time budget."""
    if frac < warmup:
        return peak * max(frac, 1e-3 * warmup) / warmup
    if frac >= 1:
        return 0.0
    return peak * 0.5 * (1 + math.cos(math.pi * (frac - warmup) / max(1 - warmup, 1e-9)))


def loss_of(model, x, y, device, amp, reduction="mean"):
    x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
    with torch.autocast("cuda", dtype=torch.bfloat16) if amp else contextlib.nullcontext():
        logits = model(x)
    return F.cross_entropy(logits.float().view(-1, logits.shape[-1]), y.view(-1), ignore_index=IGNORE, reduction=reduction)


def trained(y):
    """The number of targets with a loss."""
    return int((y != IGNORE).sum())


@torch.no_grad()
def eval_loss(model, batches, device, amp, ranks):
    """The mean loss over every trained target of the fixed held-out batches (each
    rank evaluates its part of them)."""
    model.eval()
    total = sum(loss_of(model, x, y, device, amp, "sum").item() for x, y in batches)
    model.train()
    total, count = ranks.sum([total, sum(trained(y) for _, y in batches)])
    return total / max(count, 1)


def special_ids(tokenizer):
    with open(tokenizer) as f:
        tok = json.load(f)
    ids = {a["content"]: a["id"] for a in tok.get("added_tokens", [])}
    vocab = max([*tok["model"]["vocab"].values(), *ids.values()]) + 1
    return ids["<|trace_context_start|>"], [ids["<|forward|>"], ids["<|inverse|>"]], vocab


def parse_model(s):
    if s in PRESETS:
        return PRESETS[s]
    dim, layers, heads, hidden = (int(v) for v in s.split(","))
    return dim, layers, heads, hidden


def main():
    env = os.environ.get
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", required=True, help="folder of generator rounds")
    ap.add_argument("--tokenizer", required=True)
    ap.add_argument("--out", required=True, help="checkpoint folder to write")
    ap.add_argument("--model", default=env("MODEL", "15m"), help="preset (%s) or dim,layers,heads,hidden" % ", ".join(PRESETS))
    ap.add_argument("--time-budget", type=float, default=float(env("TIME_BUDGET", "420")), help="seconds of training (0: save the initial model)")
    ap.add_argument("--steps", type=int, default=int(env("STEPS", "0")), help="a step budget instead of the time budget: the schedule runs over these steps")
    ap.add_argument("--batch", type=int, default=int(env("BATCH", "0")), help="sequences per step over all ranks (default 64 per GPU on CUDA, 4 on the CPU)")
    ap.add_argument("--seq-len", type=int, default=int(env("SEQ_LEN", "0")), help="tokens per sequence (default 1024 on CUDA, 256 on the CPU)")
    ap.add_argument("--lr", type=float, default=float(env("LR", "1e-3")))
    ap.add_argument("--warmup", type=float, default=float(env("WARMUP", "0.05")), help="share of the time budget")
    ap.add_argument("--eval-batches", type=int, default=int(env("EVAL_BATCHES", "8")))
    ap.add_argument("--eval-every", type=float, default=float(env("EVAL_EVERY", "60")), help="seconds")
    ap.add_argument("--max-seq", type=int, default=1024, help="max_position_embeddings")
    ap.add_argument("--dtype", default=env("DTYPE", "auto"), help="float32, bfloat16, or auto (float32 when it fits 60 MiB)")
    ap.add_argument("--max-shard-mb", type=float, default=float(env("MAX_SHARD_MB", "15.5")))
    ap.add_argument("--min-rounds", type=int, default=int(env("MIN_ROUNDS", "1")), help="finished rounds to wait for before the start (the held-out windows come from them)")
    ap.add_argument("--wait", type=float, default=float(env("WAIT", "240")), help="seconds to wait for the first data")
    ap.add_argument("--device", default=env("DEVICE", "auto"))
    ap.add_argument("--compile", type=int, default=int(env("COMPILE", "0")), help="torch.compile the model (CUDA)")
    ap.add_argument("--seed", type=int, default=int(env("SEED", "1")))
    ap.add_argument("--context-loss", type=int, default=int(env("CONTEXT_LOSS", "1")), help="1: train on the source context's tokens too (the recipe of make train, docs/model.md); the held-out loss is measured after it either way")
    ap.add_argument("--loss-curve", type=int, default=int(env("LOSS_CURVE", "0")), help="1: every step's training loss in train_state.json")
    a = ap.parse_args()

    ranks = Ranks()
    device = a.device if a.device != "auto" else ("cuda" if torch.cuda.is_available() else "cpu")
    cuda = device.startswith("cuda")
    if cuda and ranks.on:
        device = f"cuda:{ranks.local}"
        torch.cuda.set_device(device)
    ranks.start(cuda)
    batch = a.batch or (64 * ranks.world if cuda else 4)
    if batch % ranks.world:
        sys.exit(f"train.py: the batch {batch} does not split over {ranks.world} ranks")
    part = ranks.part(batch)
    seq = a.seq_len or (1024 if cuda else 256)
    threads = int(env("TORCH_THREADS", "0")) or (2 if cuda else max((os.cpu_count() or 1) // ranks.local_world, 1))
    torch.set_num_threads(threads)
    torch.manual_seed(a.seed)  # the same initial weights on every rank
    if cuda:
        torch.backends.cuda.matmul.allow_tf32 = True
        torch.backends.cudnn.allow_tf32 = True
    start_id, directions, vocab = special_ids(a.tokenizer)
    dim, layers, heads, hidden = parse_model(a.model)
    c = dict(vocab=vocab, dim=dim, layers=layers, heads=heads, kv_heads=heads, hidden=hidden,
             max_seq=max(a.max_seq, seq), eps=1e-5, theta=10000.0)
    model = Llama(c).to(device)
    params = sum(p.numel() for p in model.parameters())
    dtype = a.dtype
    if dtype == "auto":
        dtype = "float32" if params * 4 <= 60 * 2**20 else "bfloat16"

    def log(*m):
        if ranks.main:
            print("train.py:", *m, flush=True)

    log(f"{params / 1e6:.2f}M parameters {c}, device {device}, batch {batch}x{seq}, "
        f"lr {a.lr}, budget {f'{a.steps} steps' if a.steps else f'{a.time_budget:.0f}s'}, torch {torch.__version__}, {threads} threads"
        + (f", {ranks.world} ranks ({dist.get_backend()}) of {batch // ranks.world} sequences" if ranks.on else ""))

    data = Shards(a.data, start_id, directions, vocab)
    t0 = time.time()
    while True:
        data.poll()
        if len(data.seen) >= a.min_rounds and len(data.train.starts) and len(data.eval.starts):
            break
        if time.time() - t0 > a.wait:
            sys.exit(f"train.py: no finished generator round with train and eval tokens in {a.data} after {a.wait:.0f}s")
        time.sleep(0.5)
    log(f"first data after {time.time() - t0:.1f}s: {len(data.seen)} rounds, "
        f"{len(data.train.ids)} train and {len(data.eval.ids)} eval tokens")
    # The held-out windows are fixed once, from the first rounds' eval split.
    erng = np.random.default_rng(0xE7A1)
    eval_batches = [data.eval.sample(erng, batch, seq, part=part) for _ in range(a.eval_batches)]
    amp = cuda
    fwd = model
    if ranks.on:
        fwd = DistributedDataParallel(model, device_ids=[ranks.local] if cuda else None)
    if a.compile and cuda:
        fwd = torch.compile(fwd)
    decay = dict(lr=a.lr, betas=(0.9, 0.95), weight_decay=0.1)
    try:
        opt = torch.optim.AdamW(model.parameters(), fused=cuda, **decay)
    except TypeError:
        opt = torch.optim.AdamW(model.parameters(), **decay)
    initial = eval_loss(model, eval_batches, device, amp, ranks)
    log(f"initial held-out loss {initial:.4f}")
    # Every rank draws the whole global batch from the same stream and keeps its part.
    rng = np.random.default_rng(a.seed)
    step, tokens, smooth, last_eval, ev = 0, 0, 0.0, time.time(), initial
    curve = []
    start = time.time()
    while a.time_budget > 0 or a.steps > 0:
        x, y = data.train.sample(rng, batch, seq, context_loss=bool(a.context_loss), part=part)
        # Rank 0's clock decides where the schedule is, the stop and the evaluations;
        # the sum over the ranks brings them, and the number of trained targets of
        # the global batch, to every rank.
        frac = step / a.steps if a.steps else (time.time() - start) / a.time_budget
        due = time.time() - last_eval >= a.eval_every
        count, frac, due = ranks.sum([trained(y), frac if ranks.main else 0, due if ranks.main else 0])
        if frac >= 1:
            break
        for g in opt.param_groups:
            g["lr"] = lr_at(frac, a.warmup, a.lr)
        # DDP averages the ranks' gradients: each rank's loss sum over the global
        # count, times N, averages to the mean loss of the global batch.
        loss = loss_of(fwd, x, y, device, amp, "sum") * (ranks.world / max(count, 1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        step += 1
        tokens += batch * seq
        if a.loss_curve:
            curve.append(loss.detach())
        if step % 20 == 0 or step < 5:
            v = ranks.sum([loss.item()])[0] / ranks.world
            if not math.isfinite(v):
                sys.exit(f"train.py: step {step}: the loss is {v} (lower LR)")
            smooth = v if smooth == 0 else 0.9 * smooth + 0.1 * v
        if step % 50 == 0:
            if data.poll():
                log(f"data: {len(data.seen)} rounds, {len(data.train.ids) / 1e6:.1f}M train tokens")
            if due:
                ev, last_eval = eval_loss(model, eval_batches, device, amp, ranks), time.time()
                el = time.time() - start
                log(f"step {step} {el:.0f}s loss {smooth:.4f} held-out {ev:.4f} "
                    f"lr {opt.param_groups[0]['lr']:.2e} {tokens / el:.0f} tok/s, "
                    f"{tokens / max(len(data.train.ids), 1):.1f} passes")
    seconds = time.time() - start
    final = eval_loss(model, eval_batches, device, amp, ranks) if step else initial
    if curve:
        curve = [v / ranks.world for v in ranks.sum(torch.stack(curve).tolist())]
    log(f"done: {step} steps, {tokens} tokens in {seconds:.0f}s, held-out loss {initial:.4f} -> {final:.4f}")
    if ranks.main:
        save(model, a, data, device, dtype, params, ranks, batch, seq,
             dict(step=step, tokens=tokens, train_loss=smooth, eval_loss=final, seconds=seconds,
                  initial_eval_loss=initial, losses=curve))
        log(f"wrote {a.out} ({dtype}, {len(os.listdir(a.out))} files)")
    ranks.stop()


def save(model, a, data, device, dtype, params, ranks, batch, seq, run):
    """Writes the checkpoint and train_state.json (rank 0 only)."""
    save_checkpoint(model, a.out, a.tokenizer, dtype, int(a.max_shard_mb * 2**20))
    # A probe for the Go side: the loss of the first eval window, all targets counted.
    probe = data.eval.ids[: min(64, len(data.eval.ids))].astype(np.int64)
    with torch.no_grad():
        model.eval()
        pl = model(torch.from_numpy(probe[None, :-1]).to(device)).float()
        probe_loss = F.cross_entropy(pl[0], torch.from_numpy(probe[1:]).to(device)).item()
    losses = run.pop("losses")
    state = {
        **run, "params": params, "dtype": dtype, "model": a.model,
        "batch": batch, "seq_len": seq, "lr": a.lr, "device": device, "torch": torch.__version__,
        "world_size": ranks.world, "steps_budget": a.steps,
        "rounds": len(data.seen), "train_tokens": int(len(data.train.ids)), "eval_tokens": int(len(data.eval.ids)),
        "probe_tokens": probe.tolist(), "probe_loss": probe_loss,
    }
    if losses:
        state["losses"] = losses
    with open(os.path.join(a.out, "train_state.json"), "w") as f:
        json.dump(state, f, indent=2)


if __name__ == "__main__":
    main()
