#!/usr/bin/env python3
"""Reference numbers for the sequence-scorer tests: each answer's summed token log-prob as scripts/shapes/dpo.py
computes it for DPO (its own prompt_text, encode, load_image and batch_logps, on the folder's ONNX weights loaded back
into PyTorch).

    echo '{"model": DIR, "items": [{"image": PNG, "question": Q, "history": [...], "answers": [...]}]}' | python3 dpo-logps.py

prints [[{"sum": S, "tokens": N}, ...], ...] (per item, per answer).
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts", "shapes"))

import dpo  # noqa: E402  (re-executes this script with /usr/bin/python3 when the python3 on the path has no torch)
import torch  # noqa: E402
from onnx_weights import load_model  # noqa: E402
from tokenizer import EOS  # noqa: E402


def messages(question, history):
    turns = [*history, {"role": "user", "content": question}]
    first, rest = turns[0], turns[1:]
    return [{"role": "user", "content": [{"type": "image"}, {"type": "text", "text": first["content"]}]}, *rest]


def main():
    req = json.load(sys.stdin)
    torch.set_num_threads(1)
    model, tok, _ = load_model(req["model"])
    model.eval()
    out = []
    with torch.no_grad():
        for it in req["items"]:
            pixels = torch.stack([dpo.load_image(it["image"], "image")])
            prompt = dpo.encode(tok, dpo.prompt_text(messages(it["question"], it.get("history", [])), "prompt"))
            answers = [dpo.encode(tok, " " + a) + [EOS] for a in it["answers"]]
            pairs = [{"image": 0, "prompt": prompt, "chosen": a, "rejected": a} for a in answers]
            chosen, _ = dpo.batch_logps(model, pairs, pixels)
            out.append([{"sum": float(c), "tokens": len(a)} for c, a in zip(chosen, answers)])
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
