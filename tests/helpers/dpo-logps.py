#!/usr/bin/env python3
"""Reference numbers for the sequence-scorer tests: each answer's summed token log-prob as scripts/shapes/dpo.py
computes it for DPO (its own prompt_text, encode, load_image and batch_logps, on the folder's ONNX weights loaded back
into PyTorch).

    echo '{"model": DIR, "items": [{"image": PNG, "question": Q, "history": [...], "answers": [...]}]}' | python3 dpo-logps.py

prints [[{"sum": S, "tokens": N, "per_token": [...]}, ...], ...] (per item, per answer); per_token is each counted
token's log-prob from the same forward pass (its sum in float64 may differ from S, float32, in the last bits).
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts", "shapes"))

import dpo  # noqa: E402  (re-executes this script with /usr/bin/python3 when the python3 on the path has no torch)
import torch  # noqa: E402
from onnx_weights import load_model  # noqa: E402
from model import IMAGE_TOKENS  # noqa: E402,F401
from tokenizer import EOS, PAD  # noqa: E402
from train import IMAGE_START  # noqa: E402


def messages(question, history):
    turns = [*history, {"role": "user", "content": question}]
    first, rest = turns[0], turns[1:]
    return [{"role": "user", "content": [{"type": "image"}, {"type": "text", "text": first["content"]}]}, *rest]


def token_logps(model, prompt, answers, pixels):
    """Each answer's per-token log-probs as dpo.batch_logps computes them (one batch of the answers, right-padded)."""
    rows = [prompt + a for a in answers]
    L = max(len(r) for r in rows)
    ids = torch.full((len(rows), L), PAD, dtype=torch.long)
    mask = torch.zeros((len(rows), L), dtype=torch.long)
    for b, r in enumerate(rows):
        ids[b, : len(r)] = torch.tensor(r)
        mask[b, : len(r)] = 1
    logits = model.forward_train(pixels[[0] * len(rows)], ids, mask, IMAGE_START)
    logp = torch.gather(logits[:, :-1].log_softmax(-1), 2, ids[:, 1:, None])[..., 0]
    # Token t is predicted at position t - 1.
    return [[float(v) for v in logp[b, len(prompt) - 1: len(prompt) - 1 + len(a)]] for b, a in enumerate(answers)]


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
            per = token_logps(model, prompt, answers, pixels)
            out.append([{"sum": float(c), "tokens": len(a), "per_token": t} for c, a, t in zip(chosen, answers, per)])
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
