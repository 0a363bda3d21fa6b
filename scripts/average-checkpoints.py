#!/usr/bin/env python3
"""Average the weights of checkpoints of one model (checkpoint averaging, a "soup").

    scripts/average-checkpoints.py --out DIR CKPT CKPT... [--weights 0.5,0.5]

Every checkpoint must have the same config.json and tokenizer.json (runs fine-tuned from
one another do) and a model.safetensors of float32 tensors with the same names and
shapes; the output folder gets their weighted mean in model.safetensors, the shared
config and tokenizer, and averaged.json naming the sources and weights. The optimizer
state is not averaged: the result is for inference and evaluation, not to resume.
Pure Python (no numpy: this machine's first Python has none), a few seconds for 5M
parameters.
"""

import argparse
import array
import json
import os
import struct
import sys

WEIGHTS = "model.safetensors"
SHARED = ("config.json", "tokenizer.json")


def read_safetensors(path):
    with open(path, "rb") as f:
        data = f.read()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8 : 8 + n])
    meta = header.pop("__metadata__", None)
    tensors = {}
    for name, e in header.items():
        if e["dtype"] != "F32":
            raise SystemExit(f"{path}: {name} is {e['dtype']}, only F32 is averaged")
        start, end = e["data_offsets"]
        a = array.array("f")
        a.frombytes(data[8 + n + start : 8 + n + end])
        if sys.byteorder != "little":
            a.byteswap()
        tensors[name] = (e["shape"], a)
    return meta, tensors


def write_safetensors(path, meta, tensors):
    header, offset, blobs = {}, 0, []
    for name in sorted(tensors):
        shape, a = tensors[name]
        if sys.byteorder != "little":
            a = array.array("f", a)
            a.byteswap()
        blob = a.tobytes()
        header[name] = {"dtype": "F32", "shape": shape, "data_offsets": [offset, offset + len(blob)]}
        offset += len(blob)
        blobs.append(blob)
    if meta:
        header["__metadata__"] = meta
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    with open(path + ".tmp", "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for blob in blobs:
            f.write(blob)
    os.replace(path + ".tmp", path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--weights", help="comma-separated, one a checkpoint (default: equal)")
    ap.add_argument("checkpoints", nargs="+")
    args = ap.parse_args()
    ckpts = args.checkpoints
    if len(ckpts) < 2:
        raise SystemExit("averaging needs at least two checkpoints")
    if args.weights:
        weights = [float(w) for w in args.weights.split(",")]
        if len(weights) != len(ckpts) or any(w < 0 for w in weights) or sum(weights) <= 0:
            raise SystemExit(f"--weights: {len(ckpts)} non-negative numbers, not all zero")
    else:
        weights = [1.0] * len(ckpts)
    total = sum(weights)
    weights = [w / total for w in weights]
    for name in SHARED:
        first = open(os.path.join(ckpts[0], name), "rb").read()
        for c in ckpts[1:]:
            if open(os.path.join(c, name), "rb").read() != first:
                raise SystemExit(f"{c}/{name} differs from {ckpts[0]}'s: not checkpoints of one model")
    meta, mean = read_safetensors(os.path.join(ckpts[0], WEIGHTS))
    for name, (_, a) in mean.items():
        for i in range(len(a)):
            a[i] *= weights[0]
    for c, w in zip(ckpts[1:], weights[1:]):
        _, tensors = read_safetensors(os.path.join(c, WEIGHTS))
        if set(tensors) != set(mean):
            raise SystemExit(f"{c}: other tensor names than {ckpts[0]}")
        for name, (shape, a) in tensors.items():
            shape0, m = mean[name]
            if shape != shape0:
                raise SystemExit(f"{c}: {name} is {shape}, {ckpts[0]} has {shape0}")
            for i in range(len(m)):
                m[i] += w * a[i]
    os.makedirs(args.out, exist_ok=True)
    write_safetensors(os.path.join(args.out, WEIGHTS), meta, mean)
    for name in SHARED:
        with open(os.path.join(ckpts[0], name), "rb") as f, open(os.path.join(args.out, name), "wb") as g:
            g.write(f.read())
    with open(os.path.join(args.out, "averaged.json"), "w") as f:
        json.dump({"checkpoints": ckpts, "weights": weights}, f, indent=2)
        f.write("\n")
    print(f"wrote {args.out}: {sum(len(a) for _, a in mean.values())} parameters averaged from {len(ckpts)} checkpoints")


if __name__ == "__main__":
    main()
