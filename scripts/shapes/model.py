"""The tiny LLaVA-style model: a CNN vision tower + projector, and a small decoder-only transformer.

Exported as the three ONNX graphs transformers.js runs for `LlavaForConditionalGeneration`:
vision_encoder (pixel_values -> image_features), embed_tokens (input_ids -> inputs_embeds) and
decoder_model_merged (inputs_embeds, attention_mask, position_ids, past_key_values.* -> logits, present.*).
"""
from __future__ import annotations

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from tokenizer import IMAGE_TOKENS  # noqa: E402,F401 - kept there, torch-free, for dpo_input.py
CELL = 21


class VisionTower(nn.Module):
    """A small CNN shared by the nine 21x21 cells, so each image token sees one grid cell."""

    def __init__(self, hidden: int, width: int = 64):
        super().__init__()
        c = width
        self.convs = nn.Sequential(
            nn.Conv2d(3, 24, 3, 2, 1), nn.GELU(),          # 11x11
            nn.Conv2d(24, 48, 3, 2, 1), nn.GELU(),         # 6x6
            nn.Conv2d(48, c, 3, 2, 1), nn.GELU(),          # 3x3
        )
        self.flat = nn.Linear(c * 9, c)
        self.pos = nn.Parameter(torch.zeros(1, IMAGE_TOKENS, c))
        # Probe: each cell token predicts its cell's shape, colour and size (trained with an auxiliary loss).
        self.aux = nn.Linear(c, 5 + 7 + 3)
        self.concepts = None  # set by TinyLlava when the concept bottleneck is on
        # use_concepts(only=True): each token IS its cell's concepts (words only, so the decoder can match a question's
        # words against it), plus the projector's output behind a learned gate that starts at 0.
        self.concept_gate = None
        # LLaVA-1.5's projector: Linear -> GELU -> Linear.
        self.proj = nn.Sequential(nn.GELU(), nn.Linear(c, hidden), nn.GELU(), nn.Linear(hidden, hidden))

    def forward(self, pixel_values: torch.Tensor) -> torch.Tensor:
        b = pixel_values.shape[0]
        x = pixel_values[:, :, : 3 * CELL, : 3 * CELL]
        x = x.reshape(b, 3, 3, CELL, 3, CELL).permute(0, 2, 4, 1, 3, 5).reshape(b * 9, 3, CELL, CELL)
        x = self.convs(x).reshape(b, 9, -1)
        x = self.flat(x)
        self.last_cells = x
        out = self.proj(x + self.pos)
        if self.concept_gate is not None:
            return self.concepts(self.aux(x)) + self.concept_gate * out
        if self.concepts is not None:
            out = out + self.concepts(self.aux(x))
        return out


class Concepts(nn.Module):
    """Concept bottleneck: the probe's soft prediction of a cell, written in the decoder's own word embeddings
    ("red", "circle", "large") plus the cell's position words ("top", "left"), so that matching a question's words
    against the image is close to a dot product for the decoder."""

    def __init__(self, embed: nn.Embedding, shape_ids, color_ids, size_ids, cell_word_ids):
        super().__init__()
        self.embed = embed
        self.register_buffer("shape_ids", torch.tensor(shape_ids))
        self.register_buffer("color_ids", torch.tensor(color_ids))
        self.register_buffer("size_ids", torch.tensor(size_ids))
        self.register_buffer("cell_ids", torch.tensor(cell_word_ids))   # [9, 2]
        hidden = embed.weight.shape[1]
        self.empty = nn.Parameter(torch.zeros(3, hidden))  # "no shape", "no colour", "no size"

    def forward(self, logits):
        e = self.embed.weight
        table = lambda ids, k: torch.cat([self.empty[k:k + 1], e[ids]], 0)
        c = (logits[..., :5].softmax(-1) @ table(self.shape_ids, 0)
             + logits[..., 5:12].softmax(-1) @ table(self.color_ids, 1)
             + logits[..., 12:].softmax(-1) @ table(self.size_ids, 2))
        return c + e[self.cell_ids].sum(1)


class Block(nn.Module):
    def __init__(self, hidden: int, heads: int, ffn: int):
        super().__init__()
        self.heads, self.hd = heads, hidden // heads
        self.ln1, self.ln2 = nn.LayerNorm(hidden), nn.LayerNorm(hidden)
        self.qkv = nn.Linear(hidden, 3 * hidden)
        self.out = nn.Linear(hidden, hidden)
        self.ff = nn.Sequential(nn.Linear(hidden, ffn), nn.GELU(), nn.Linear(ffn, hidden))

    def forward(self, x, mask_bias, past_k=None, past_v=None, rope=None):
        b, s, h = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(h, dim=-1)
        q = q.view(b, s, self.heads, self.hd).transpose(1, 2)
        k = k.view(b, s, self.heads, self.hd).transpose(1, 2)
        v = v.view(b, s, self.heads, self.hd).transpose(1, 2)
        if rope is not None:  # rotary positions (as Llama): the cache holds rotated keys
            cos, sin = rope
            q, k = _rotate(q, cos, sin), _rotate(k, cos, sin)
        if past_k is not None:
            k = torch.cat([past_k, k], dim=2)
            v = torch.cat([past_v, v], dim=2)
        att = (q @ k.transpose(-1, -2)) / math.sqrt(self.hd) + mask_bias
        y = att.softmax(-1) @ v
        y = y.transpose(1, 2).reshape(b, s, h)
        x = x + self.out(y)
        x = x + self.ff(self.ln2(x))
        return x, k, v


def _rotate(x, cos, sin):
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2:]
    return x * cos + torch.cat([-x2, x1], -1) * sin


class Decoder(nn.Module):
    def __init__(self, vocab: int, hidden: int, layers: int, heads: int, ffn: int, max_pos: int, rope: bool = False):
        """rope: rotary positions on queries and keys (as Llama) instead of learned absolute positions, so that
        "the word just before the question mark" is one relative offset from the answer position, whatever the
        question's length. The inputs, outputs and cache shapes are the same either way."""
        super().__init__()
        self.rope = rope
        self.hd = hidden // heads
        self.embed = nn.Embedding(vocab, hidden)
        self.pos = nn.Embedding(max_pos, hidden)
        self.blocks = nn.ModuleList(Block(hidden, heads, ffn) for _ in range(layers))
        self.ln = nn.LayerNorm(hidden)
        self.head = nn.Linear(hidden, vocab, bias=False)
        # GPT-2's init: with nn.Embedding's default N(0, 1) the word and position embeddings (norm ~11) drown the
        # projected image features (norm ~1) and the decoder takes thousands of steps to learn to look at the image.
        nn.init.normal_(self.embed.weight, std=0.02)
        nn.init.normal_(self.pos.weight, std=0.02)

    def forward(self, inputs_embeds, attention_mask, position_ids, past=None):
        """past: list of (k, v) per layer or None. Returns logits and the new (k, v) per layer."""
        b, s, _ = inputs_embeds.shape
        past_len = past[0][0].shape[2] if past is not None else 0
        rope = None
        if self.rope:
            x = inputs_embeds
            inv = 1.0 / (10000.0 ** (torch.arange(0, self.hd, 2, dtype=torch.float32) / self.hd))
            ang = position_ids.to(torch.float32)[:, None, :, None] * inv                # [b, 1, s, hd/2]
            ang = torch.cat([ang, ang], -1)
            rope = (ang.cos(), ang.sin())
        else:
            x = inputs_embeds + self.pos(position_ids)
        q_idx = torch.arange(s, device=x.device) + past_len
        k_idx = torch.arange(past_len + s, device=x.device)
        causal = k_idx[None, :] <= q_idx[:, None]                       # [s, total]
        keep = causal[None, None, :, :] & (attention_mask[:, None, None, :] > 0)
        mask_bias = torch.where(keep, torch.zeros((), dtype=x.dtype), torch.full((), -1e9, dtype=x.dtype))
        presents = []
        self.hidden = []
        for i, blk in enumerate(self.blocks):
            pk, pv = (past[i] if past is not None else (None, None))
            x, k, v = blk(x, mask_bias, pk, pv, rope)
            presents.append((k, v))
            self.hidden.append(x)  # read by the training's circuit probes (never exported)
        return self.head(self.ln(x)), presents


class TinyLlava(nn.Module):
    def __init__(self, vocab: int, hidden=128, layers=3, heads=4, ffn=512, max_pos=160, vision_width=64, rope=False):
        super().__init__()
        self.cfg = dict(vocab=vocab, hidden=hidden, layers=layers, heads=heads, ffn=ffn, max_pos=max_pos,
                        vision_width=vision_width)
        self.vision = VisionTower(hidden, vision_width)
        self.decoder = Decoder(vocab, hidden, layers, heads, ffn, max_pos, rope=rope)

    def use_concepts(self, shape_ids, color_ids, size_ids, cell_word_ids, only: bool = False) -> None:
        self.vision.concepts = Concepts(self.decoder.embed, shape_ids, color_ids, size_ids, cell_word_ids)
        if only:
            self.vision.concept_gate = nn.Parameter(torch.zeros(()))

    def merged_embeds(self, pixel_values, input_ids, image_token_id):
        """Token embeddings with the image features written over the <image> positions (as transformers.js does)."""
        emb = self.decoder.embed(input_ids)
        feats = self.vision(pixel_values)                               # [B, 16, H]
        is_img = input_ids == image_token_id
        emb = emb.clone()
        emb[is_img] = feats.reshape(-1, feats.shape[-1]).to(emb.dtype)
        return emb

    def forward_train(self, pixel_values, input_ids, attention_mask, image_start: int, repeat: int = 1, image_of=None):
        """Training forward for right-padded rows whose image tokens all sit at the same positions.

        Concatenation instead of a masked scatter: the scatter is slow under deterministic algorithms.
        image_of: row -> index into pixel_values (a long tensor), so that rows sharing an image (GRPO's group) run the
        vision tower once per image, not once per row; the rows' gradients add up on the shared features.
        """
        emb = self.decoder.embed(input_ids)
        if image_of is not None:
            uniq, inv = torch.unique(image_of, return_inverse=True)
            feats = self.vision(pixel_values[uniq])[inv]
        else:
            feats = self.vision(pixel_values).repeat_interleave(repeat, 0)
        n = feats.shape[1]
        emb = torch.cat([emb[:, :image_start], feats, emb[:, image_start + n:]], 1)
        pos = torch.arange(input_ids.shape[1]).expand_as(input_ids)
        logits, _ = self.decoder(emb, attention_mask, pos)
        return logits

    def forward(self, pixel_values, input_ids, attention_mask, image_token_id):
        emb = self.merged_embeds(pixel_values, input_ids, image_token_id)
        pos = (attention_mask.long().cumsum(-1) - 1).clamp(min=0)
        logits, _ = self.decoder(emb, attention_mask, pos)
        return logits


# ---------------------------------------------------------------- ONNX wrappers

class _Vision(nn.Module):
    def __init__(self, m): super().__init__(); self.m = m
    def forward(self, pixel_values): return self.m.vision(pixel_values)


class _Embed(nn.Module):
    def __init__(self, m): super().__init__(); self.m = m
    def forward(self, input_ids): return self.m.decoder.embed(input_ids)


class _Dec(nn.Module):
    def __init__(self, m): super().__init__(); self.m = m; self.n = len(m.decoder.blocks)
    def forward(self, inputs_embeds, attention_mask, position_ids, *flat_past):
        past = [(flat_past[2 * i], flat_past[2 * i + 1]) for i in range(self.n)]
        logits, presents = self.m.decoder(inputs_embeds, attention_mask, position_ids, past)
        out = [logits]
        for k, v in presents:
            out += [k, v]
        return tuple(out)


def export_onnx(m: TinyLlava, out_dir: str, opset: int = 17) -> None:
    import os
    os.makedirs(out_dir, exist_ok=True)
    m = m.eval()
    c = m.cfg
    with torch.no_grad():
        torch.onnx.export(_Vision(m), (torch.zeros(1, 3, 64, 64),), f"{out_dir}/vision_encoder.onnx",
                          input_names=["pixel_values"], output_names=["image_features"],
                          dynamic_axes={"pixel_values": {0: "batch_size"}, "image_features": {0: "batch_size"}},
                          opset_version=opset)
        torch.onnx.export(_Embed(m), (torch.zeros(1, 4, dtype=torch.long),), f"{out_dir}/embed_tokens.onnx",
                          input_names=["input_ids"], output_names=["inputs_embeds"],
                          dynamic_axes={"input_ids": {0: "batch_size", 1: "sequence_length"},
                                        "inputs_embeds": {0: "batch_size", 1: "sequence_length"}},
                          opset_version=opset)
        n, hd = c["layers"], c["hidden"] // c["heads"]
        b, s, p = 2, 3, 5
        past = []
        names_in = ["inputs_embeds", "attention_mask", "position_ids"]
        names_out = ["logits"]
        dyn = {"inputs_embeds": {0: "batch_size", 1: "sequence_length"},
               "attention_mask": {0: "batch_size", 1: "total_sequence_length"},
               "position_ids": {0: "batch_size", 1: "sequence_length"},
               "logits": {0: "batch_size", 1: "sequence_length"}}
        for i in range(n):
            for kv in ("key", "value"):
                past.append(torch.zeros(b, c["heads"], p, hd))
                names_in.append(f"past_key_values.{i}.{kv}")
                names_out.append(f"present.{i}.{kv}")
                dyn[f"past_key_values.{i}.{kv}"] = {0: "batch_size", 2: "past_sequence_length"}
                dyn[f"present.{i}.{kv}"] = {0: "batch_size", 2: "total_sequence_length"}
        args = (torch.zeros(b, s, c["hidden"]), torch.ones(b, p + s, dtype=torch.long),
                torch.arange(p, p + s).repeat(b, 1), *past)
        torch.onnx.export(_Dec(m), args, f"{out_dir}/decoder_model_merged.onnx", input_names=names_in,
                          output_names=names_out, dynamic_axes=dyn, opset_version=opset)
