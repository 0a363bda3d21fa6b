"""ndb's model in plain PyTorch, and its checkpoint writer (for train.py).

The model is Hugging Face's LlamaForCausalLM, from its own short definition (no
transformers needed), with its parameter names (model.embed_tokens.weight,
model.layers.N.self_attn.q_proj.weight, ..., lm_head.weight), as infer.New builds
it. save_checkpoint writes what the Go loader (infer.Load) and transformers read:
config.json as infer.Config.MarshalJSON writes it, safetensors shards (written here,
without the safetensors package) with model.safetensors.index.json, tokenizer.json.
"""

import json
import math
import os
import struct

import torch
import torch.nn as nn
import torch.nn.functional as F

# ---------------------------------------------------------------- the model


class RMSNorm(nn.Module):
    def __init__(self, dim, eps):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.eps = eps

    def forward(self, x):
        h = x.float()
        h = h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + self.eps)
        return self.weight * h.to(x.dtype)


def rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


class Attention(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.nh, self.nkv, self.hd = c["heads"], c["kv_heads"], c["dim"] // c["heads"]
        self.q_proj = nn.Linear(c["dim"], self.nh * self.hd, bias=False)
        self.k_proj = nn.Linear(c["dim"], self.nkv * self.hd, bias=False)
        self.v_proj = nn.Linear(c["dim"], self.nkv * self.hd, bias=False)
        self.o_proj = nn.Linear(self.nh * self.hd, c["dim"], bias=False)

    def forward(self, x, cos, sin):
        b, t, _ = x.shape
        q = self.q_proj(x).view(b, t, self.nh, self.hd).transpose(1, 2)  # [B, nh, T, hd]
        k = self.k_proj(x).view(b, t, self.nkv, self.hd).transpose(1, 2)
        v = self.v_proj(x).view(b, t, self.nkv, self.hd).transpose(1, 2)
        q = (q * cos + rotate_half(q) * sin).to(v.dtype)
        k = (k * cos + rotate_half(k) * sin).to(v.dtype)
        if self.nkv != self.nh:
            k = k.repeat_interleave(self.nh // self.nkv, dim=1)
            v = v.repeat_interleave(self.nh // self.nkv, dim=1)
        if hasattr(F, "scaled_dot_product_attention"):
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        else:  # PyTorch 1.13
            s = (q @ k.transpose(-1, -2)) / math.sqrt(self.hd)
            mask = torch.ones(t, t, dtype=torch.bool, device=x.device).triu(1)
            y = torch.softmax(s.masked_fill(mask, float("-inf")).float(), dim=-1).to(v.dtype) @ v
        return self.o_proj(y.transpose(1, 2).reshape(b, t, self.nh * self.hd))


class MLP(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.gate_proj = nn.Linear(c["dim"], c["hidden"], bias=False)
        self.up_proj = nn.Linear(c["dim"], c["hidden"], bias=False)
        self.down_proj = nn.Linear(c["hidden"], c["dim"], bias=False)

    def forward(self, x):
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


class Layer(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.input_layernorm = RMSNorm(c["dim"], c["eps"])
        self.self_attn = Attention(c)
        self.post_attention_layernorm = RMSNorm(c["dim"], c["eps"])
        self.mlp = MLP(c)

    def forward(self, x, cos, sin):
        x = x + self.self_attn(self.input_layernorm(x), cos, sin)
        return x + self.mlp(self.post_attention_layernorm(x))


class Body(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.embed_tokens = nn.Embedding(c["vocab"], c["dim"])
        self.layers = nn.ModuleList(Layer(c) for _ in range(c["layers"]))
        self.norm = RMSNorm(c["dim"], c["eps"])


class Llama(nn.Module):
    """LlamaForCausalLM: parameters model.embed_tokens.weight, model.layers.N.*,
    model.norm.weight, lm_head.weight (untied), as infer.New names them."""

    def __init__(self, c):
        super().__init__()
        self.c = c
        self.model = Body(c)
        self.lm_head = nn.Linear(c["dim"], c["vocab"], bias=False)
        for m in self.modules():  # transformers' init, as infer.New does
            if isinstance(m, (nn.Linear, nn.Embedding)):
                nn.init.normal_(m.weight, std=0.02)
        hd = c["dim"] // c["heads"]
        inv = 1.0 / (c["theta"] ** (torch.arange(0, hd, 2).float() / hd))
        freqs = torch.outer(torch.arange(c["max_seq"]).float(), inv)
        emb = torch.cat((freqs, freqs), dim=-1)
        self.register_buffer("cos", emb.cos(), persistent=False)
        self.register_buffer("sin", emb.sin(), persistent=False)

    def forward(self, ids):
        t = ids.shape[1]
        cos, sin = self.cos[:t], self.sin[:t]
        x = self.model.embed_tokens(ids)
        for layer in self.model.layers:
            x = layer(x, cos, sin)
        return self.lm_head(self.model.norm(x))


def hf_config(c, dtype):
    """config.json exactly as infer.Config.MarshalJSON writes it."""
    return {
        "architectures": ["LlamaForCausalLM"],
        "model_type": "llama",
        "vocab_size": c["vocab"],
        "hidden_size": c["dim"],
        "intermediate_size": c["hidden"],
        "num_hidden_layers": c["layers"],
        "num_attention_heads": c["heads"],
        "num_key_value_heads": c["kv_heads"],
        "head_dim": c["dim"] // c["heads"],
        "max_position_embeddings": c["max_seq"],
        "rms_norm_eps": c["eps"],
        "rope_theta": c["theta"],
        "tie_word_embeddings": False,
        "hidden_act": "silu",
        "initializer_range": 0.02,
        "attention_bias": False,
        "mlp_bias": False,
        "torch_dtype": dtype,
        "bos_token_id": None,
        "eos_token_id": None,
        "use_cache": True,
    }


# ---------------------------------------------------------------- checkpoints

ST_DTYPES = {torch.float32: "F32", torch.bfloat16: "BF16"}


def tensor_bytes(t):
    t = t.detach().cpu().contiguous()
    if t.dtype == torch.bfloat16:  # numpy has no bfloat16: its bits as int16
        return t.view(torch.int16).numpy().tobytes()
    return t.numpy().astype("<f4").tobytes()


def write_safetensors(path, tensors):
    """tensors: list of (name, tensor); the format is an 8-byte header length, the
    JSON header (padded with spaces to 8 bytes), then the little-endian data."""
    header, blobs, off = {"__metadata__": {"format": "pt"}}, [], 0
    for name, t in tensors:
        b = tensor_bytes(t)
        header[name] = {"dtype": ST_DTYPES[t.dtype], "shape": list(t.shape), "data_offsets": [off, off + len(b)]}
        blobs.append(b)
        off += len(b)
    h = json.dumps(header, separators=(",", ":")).encode()
    h += b" " * (-len(h) % 8)
    with open(path + ".tmp", "wb") as f:
        f.write(struct.pack("<Q", len(h)))
        f.write(h)
        for b in blobs:
            f.write(b)
    os.replace(path + ".tmp", path)


def save_checkpoint(model, out, tokenizer, dtype, max_shard):
    """Writes config.json, shards of at most max_shard data bytes (plus a header of a
    few KB) with model.safetensors.index.json, and tokenizer.json."""
    os.makedirs(out, exist_ok=True)
    dt = torch.bfloat16 if dtype == "bfloat16" else torch.float32
    named = [(n, p.detach().to(dt)) for n, p in model.named_parameters()]
    shards, size = [], 0
    for n, t in named:
        b = t.numel() * t.element_size()
        if not shards or (size + b > max_shard and size > 0):
            shards.append([])
            size = 0
        shards[-1].append((n, t))
        size += b
    weight_map, total = {}, 0
    for i, s in enumerate(shards):
        file = "model-%05d-of-%05d.safetensors" % (i + 1, len(shards))
        write_safetensors(os.path.join(out, file), s)
        for n, t in s:
            weight_map[n] = file
            total += t.numel() * t.element_size()
    with open(os.path.join(out, "model.safetensors.index.json"), "w") as f:
        json.dump({"metadata": {"total_size": total}, "weight_map": weight_map}, f, indent=2)
    with open(os.path.join(out, "config.json"), "w") as f:
        json.dump(hf_config(model.c, dtype), f, indent=2)
    with open(tokenizer, "rb") as src, open(os.path.join(out, "tokenizer.json"), "wb") as dst:
        dst.write(src.read())
