"""Loads a shapes model folder's ONNX weights back into the build's PyTorch TinyLlava, exactly.

The exporter keeps most parameters under their module names; the weights of linear layers become transposed MatMul
initializers with generated names (onnx::MatMul_N), numbered in the order the forward pass uses them, and the concept
tables (an "empty" row followed by the shape / colour / size words' embeddings) are folded into constants. Each is
put back where it came from, and the folded tables are checked against the embeddings they were made of.
"""
from __future__ import annotations

import json
import os
import re

import numpy as np
import onnx
import torch
from onnx import numpy_helper

import world as w
from model import TinyLlava
from tokenizer import Tokenizer, load_tokenizer  # noqa: F401 - load_tokenizer lives there, torch-free (dpo.py checks its input with it)


def _initializers(path: str) -> dict[str, np.ndarray]:
    return {i.name: numpy_helper.to_array(i).copy() for i in onnx.load(path).graph.initializer}


def _matmuls(inits: dict[str, np.ndarray]) -> list[np.ndarray]:
    """The generated MatMul weights in the order the forward pass made them."""
    names = [n for n in inits if n.startswith("onnx::MatMul_")]
    return [inits[n] for n in sorted(names, key=lambda n: int(re.sub(r"\D", "", n)))]


def load_model(folder: str) -> tuple[TinyLlava, Tokenizer, dict]:
    """The folder's model as a PyTorch TinyLlava (eval mode), its tokenizer and its build.json hyperparameters."""
    build = json.load(open(os.path.join(folder, "build.json")))
    hp = build["hyperparameters"]
    cfg = json.load(open(os.path.join(folder, "config.json")))["text_config"]
    tok = load_tokenizer(folder)
    m = TinyLlava(len(tok), hidden=hp["hidden"], layers=hp["layers"], heads=hp["heads"], ffn=hp["ffn"],
                  max_pos=cfg["max_position_embeddings"], rope=hp.get("rope", False))
    if hp.get("concepts"):
        ids = lambda words: [tok.stoi[x] for x in words]
        m.use_concepts(ids(w.SHAPES), ids(w.COLOR_NAMES), ids(w.SIZES),
                       [ids(p.split(" ")) if " " in p else ids([p, p]) for p in w.POSITIONS], only=hp["concepts"] == "only")
    if hp.get("concepts") != "only" or not hp.get("rope"):
        raise ValueError(f"{folder}: only the shipped architecture (concepts 'only', rotary positions) can be loaded back")

    onnx_dir = os.path.join(folder, "onnx")
    vis = _initializers(os.path.join(onnx_dir, "vision_encoder.onnx"))
    dec = _initializers(os.path.join(onnx_dir, "decoder_model_merged.onnx"))
    sd = {k: v.clone() for k, v in m.state_dict().items()}
    t = lambda a: torch.from_numpy(np.ascontiguousarray(a))

    for name, arr in list(vis.items()) + list(dec.items()):
        if name.startswith("m."):
            key = name[2:]
            if key == "vision.concepts.embed.weight":
                key = "decoder.embed.weight"  # the same tensor: the concepts read the decoder's word embeddings
            if key not in sd:
                raise ValueError(f"{onnx_dir}: initializer {name} has no place in the model")
            if tuple(sd[key].shape) != arr.shape:
                raise ValueError(f"{onnx_dir}: {name} has shape {arr.shape}, the model wants {tuple(sd[key].shape)}")
            sd[key] = t(arr).to(sd[key].dtype)

    vm = _matmuls(vis)  # flat, proj.1, proj.3, aux (transposed), then the three concept tables
    if [a.shape for a in vm] != [(576, 64), (64, hp["hidden"]), (hp["hidden"], hp["hidden"]), (64, 15), (5, hp["hidden"]), (7, hp["hidden"]), (3, hp["hidden"])]:
        raise ValueError(f"{onnx_dir}/vision_encoder.onnx: unexpected MatMul weights {[a.shape for a in vm]}")
    for key, arr in zip(["vision.flat.weight", "vision.proj.1.weight", "vision.proj.3.weight", "vision.aux.weight"], vm[:4]):
        sd[key] = t(arr.T)
    e = sd["decoder.embed.weight"]
    empty = torch.zeros_like(sd["vision.concepts.empty"])
    for k, (table, ids_key) in enumerate(zip(vm[4:], ["vision.concepts.shape_ids", "vision.concepts.color_ids", "vision.concepts.size_ids"])):
        if not torch.equal(t(table[1:]), e[sd[ids_key]]):
            raise ValueError(f"{onnx_dir}: concept table {k} does not match the word embeddings it was made of")
        empty[k] = t(table[0])
    sd["vision.concepts.empty"] = empty

    dm = _matmuls(dec)  # per block: qkv, out, ff.0, ff.2 (transposed); then the head
    n = hp["layers"]
    if len(dm) != 4 * n + 1:
        raise ValueError(f"{onnx_dir}/decoder_model_merged.onnx: {len(dm)} MatMul weights, expected {4 * n + 1}")
    for i in range(n):
        for j, part in enumerate(["qkv", "out", "ff.0", "ff.2"]):
            sd[f"decoder.blocks.{i}.{part}.weight"] = t(dm[4 * i + j].T)
    sd["decoder.head.weight"] = t(dm[-1].T)
    m.load_state_dict(sd)
    return m.eval(), tok, build
