"""Loads a shapes model folder's ONNX weights back into the build's PyTorch TinyLlava, exactly, and writes a trained
model's weights into a copy of its parent's ONNX graphs (the inverse), which skips tracing the export again.

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
from dpo_input import ONNX_FILES
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


def _matmul_names(graph) -> list[str]:
    names = [i.name for i in graph.initializer if i.name.startswith("onnx::MatMul_")]
    return sorted(names, key=lambda n: int(re.sub(r"\D", "", n)))


def _weights_for(graph, file: str, sd: dict[str, torch.Tensor]) -> dict[str, np.ndarray]:
    """Each initializer's new value by name: the inverse of load_model's mapping."""
    arr = lambda x: x.detach().to(torch.float32).contiguous().numpy() if x.is_floating_point() else x.detach().contiguous().numpy()
    out: dict[str, np.ndarray] = {}
    for i in graph.initializer:
        if i.name.startswith("m."):
            key = i.name[2:]
            key = "decoder.embed.weight" if key == "vision.concepts.embed.weight" else key
            if key not in sd:
                raise ValueError(f"{file}: initializer {i.name} has no place in the model")
            out[i.name] = arr(sd[key])
    mm = _matmul_names(graph)
    if file == "vision_encoder.onnx":
        for name, key in zip(mm[:4], ["vision.flat.weight", "vision.proj.1.weight", "vision.proj.3.weight", "vision.aux.weight"]):
            out[name] = arr(sd[key].T)
        e, empty = sd["decoder.embed.weight"], sd["vision.concepts.empty"]
        for k, (name, ids_key) in enumerate(zip(mm[4:], ["vision.concepts.shape_ids", "vision.concepts.color_ids", "vision.concepts.size_ids"])):
            out[name] = arr(torch.cat([empty[k][None], e[sd[ids_key]]]))  # the folded concept table, as the tracer makes it
    elif file == "decoder_model_merged.onnx":
        keys = [f"decoder.blocks.{i}.{part}.weight" for i in range(len(mm) // 4) for part in ["qkv", "out", "ff.0", "ff.2"]]
        for name, key in zip(mm, keys + ["decoder.head.weight"]):
            out[name] = arr(sd[key].T)
    missing = [i.name for i in graph.initializer if i.name not in out]
    if missing:
        raise ValueError(f"{file}: no weight for {', '.join(missing)}")
    return out


def write_onnx_like(m: TinyLlava, parent: str, out_dir: str) -> None:
    """The model's ONNX files as the parent folder's graphs with m's weights in place of the parent's.

    A checkpoint trained from `parent` has the parent's architecture, so its traced export differs from the parent's
    only in the initializers' values: with the same torch, the files are byte for byte those export_onnx writes
    (tests/loop/trainer.test.ts checks it), without tracing (about 0.4 s of CPU per export). Raises ValueError where an
    initializer's name, shape or type does not fit the model.
    """
    sd = m.state_dict()
    os.makedirs(out_dir, exist_ok=True)
    for rel in ONNX_FILES:
        file = os.path.basename(rel)
        proto = onnx.load(os.path.join(parent, rel))
        new = _weights_for(proto.graph, file, sd)
        for i in proto.graph.initializer:
            a = new[i.name]
            if tuple(i.dims) != a.shape or numpy_helper.to_array(i).dtype != a.dtype or not i.raw_data:
                raise ValueError(f"{file}: initializer {i.name} is {tuple(i.dims)}, the model's weight {a.shape} {a.dtype}")
            i.raw_data = a.tobytes()
        onnx.save(proto, os.path.join(out_dir, file))
