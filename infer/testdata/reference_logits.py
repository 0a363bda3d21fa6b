"""A second implementation of ndb's model, in plain PyTorch, for infer's tests.

Reads a checkpoint folder written by infer.Model.Save (config.json with Hugging
Face's Llama field names; model.safetensors or an index and its shards) and prints
the logits of a token sequence as JSON, one list per checkpoint given:
[[[vocab floats] per token] per checkpoint].

    /usr/bin/python3.11 reference_logits.py CHECKPOINT_DIR 1,2,3,... [DIR TOKENS ...]

It does not use transformers (not installed here): it implements Hugging Face's
LlamaForCausalLM forward pass from its definition, including the rotate_half
rotary convention, and reads safetensors with the standard library.
"""

import json
import os
import struct
import sys

import torch

DTYPES = {"F32": torch.float32, "F16": torch.float16, "BF16": torch.bfloat16, "F64": torch.float64}


def read_safetensors(path):
    with open(path, "rb") as f:
        buf = f.read()
    (n,) = struct.unpack("<Q", buf[:8])
    header = json.loads(buf[8 : 8 + n])
    data = buf[8 + n :]
    out = {}
    for name, e in header.items():
        if name == "__metadata__":
            continue
        b, end = e["data_offsets"]
        t = torch.frombuffer(bytearray(data[b:end]), dtype=DTYPES[e["dtype"]])
        out[name] = t.reshape(e["shape"]).float()
    return out


def read_weights(folder):
    index = os.path.join(folder, "model.safetensors.index.json")
    if not os.path.exists(index):
        return read_safetensors(os.path.join(folder, "model.safetensors"))
    with open(index) as f:
        weight_map = json.load(f)["weight_map"]
    out = {}
    for shard in sorted(set(weight_map.values())):
        out.update(read_safetensors(os.path.join(folder, shard)))
    return out


def rms_norm(x, w, eps):
    return w * (x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps))


def rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


def forward(cfg, w, tokens):
    dim = cfg["hidden_size"]
    nh = cfg["num_attention_heads"]
    nkv = cfg.get("num_key_value_heads") or nh
    hd = dim // nh
    eps = cfg.get("rms_norm_eps", 1e-6)
    theta = cfg.get("rope_theta", 10000.0)
    t = len(tokens)

    inv_freq = 1.0 / (theta ** (torch.arange(0, hd, 2, dtype=torch.int64).float() / hd))
    freqs = torch.outer(torch.arange(t, dtype=torch.float32), inv_freq)  # [T, hd/2]
    emb = torch.cat((freqs, freqs), dim=-1)  # [T, hd]
    cos, sin = emb.cos(), emb.sin()
    causal = torch.full((t, t), float("-inf")).triu(1)  # [T, T]

    x = w["model.embed_tokens.weight"][torch.tensor(tokens)]  # [T, dim]
    for i in range(cfg["num_hidden_layers"]):
        p = f"model.layers.{i}."
        h = rms_norm(x, w[p + "input_layernorm.weight"], eps)
        q = (h @ w[p + "self_attn.q_proj.weight"].T).view(t, nh, hd).transpose(0, 1)  # [nh, T, hd]
        k = (h @ w[p + "self_attn.k_proj.weight"].T).view(t, nkv, hd).transpose(0, 1)  # [nkv, T, hd]
        v = (h @ w[p + "self_attn.v_proj.weight"].T).view(t, nkv, hd).transpose(0, 1)  # [nkv, T, hd]
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        k = k.repeat_interleave(nh // nkv, dim=0)  # [nh, T, hd]
        v = v.repeat_interleave(nh // nkv, dim=0)  # [nh, T, hd]
        att = torch.softmax(q @ k.transpose(1, 2) / hd**0.5 + causal, dim=-1)  # [nh, T, T]
        y = (att @ v).transpose(0, 1).reshape(t, nh * hd)  # [T, dim]
        x = x + y @ w[p + "self_attn.o_proj.weight"].T
        h = rms_norm(x, w[p + "post_attention_layernorm.weight"], eps)
        g = torch.nn.functional.silu(h @ w[p + "mlp.gate_proj.weight"].T)
        u = h @ w[p + "mlp.up_proj.weight"].T
        x = x + (g * u) @ w[p + "mlp.down_proj.weight"].T
    x = rms_norm(x, w["model.norm.weight"], eps)
    head = w["model.embed_tokens.weight"] if cfg.get("tie_word_embeddings") else w["lm_head.weight"]
    return x @ head.T  # [T, vocab]


def main():
    args = sys.argv[1:]
    if not args or len(args) % 2:
        sys.exit("usage: reference_logits.py CHECKPOINT_DIR TOKENS [CHECKPOINT_DIR TOKENS ...]")
    torch.set_num_threads(os.cpu_count() or 1)
    out = []
    for folder, ids in zip(args[::2], args[1::2]):
        with open(os.path.join(folder, "config.json")) as f:
            cfg = json.load(f)
        with torch.no_grad():
            logits = forward(cfg, read_weights(folder), [int(s) for s in ids.split(",")])
        out.append(logits.tolist())
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
