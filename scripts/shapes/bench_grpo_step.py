#!/usr/bin/env python3
"""One GRPO step's CPU time, before and after the two speed-ups of grpo.py, in one run (steps interleaved):

    python3 scripts/shapes/bench_grpo_step.py [--policy DIR] [--prompts FILE] [--steps 4] [--prompts-per-step 32] [--g 8]

- sampling: `sample_batch` (ended rows leave the batch) against `sample_batch_plain` (every row decoded to the batch's
  end), same seeds, checked to draw the same answers;
- the update (the reference's forward, the policy's forward and backward, micro-batches of 64 as grpo.py runs them):
  `token_logps` (each distinct prompt and its image run once, its answers continue its keys and values) against
  `token_logps_plain` with one image copy per row (each row run whole, the vision tower once per row: as before).
Prints one JSON line: process CPU seconds of each part, before and after, and the ratio of the whole step.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

import dpo  # noqa: F401 - first: it re-executes under Debian's python3 when torch is missing

import torch

import grpo
from dpo import load_image
from onnx_weights import load_model

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def update(model, ref, rows, pixels, per_row: bool) -> float:
    """The step's reference forward and policy forward/backward; per_row: as before, each row run whole (prompt and
    answer) with its own image copy, else as grpo.py runs it now."""
    logps = grpo.token_logps_plain if per_row else grpo.token_logps
    if per_row:
        pixels = pixels[torch.tensor([r[0] for r in rows])]
        rows = [(i, p, a) for i, (_, p, a) in enumerate(rows)]
    order = sorted(range(len(rows)), key=lambda i: len(rows[i][1]) + len(rows[i][2]))
    chunks = [order[i: i + 64] for i in range(0, len(rows), 64)]
    t0 = time.process_time()
    with torch.no_grad():
        for c in chunks:
            logps(ref, [rows[i] for i in c], pixels)
    for c in chunks:
        lp, m = logps(model, [rows[i] for i in c], pixels)
        (lp * m).sum().backward()
    model.zero_grad(set_to_none=True)
    return time.process_time() - t0


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--policy", default=os.path.join(ROOT, "models", "shapes-policy"))
    ap.add_argument("--prompts", default=os.path.join(ROOT, "data", "shapes", "dev", "prompts.jsonl"))
    ap.add_argument("--steps", type=int, default=4)
    ap.add_argument("--prompts-per-step", type=int, default=32)
    ap.add_argument("--g", type=int, default=8)
    a = ap.parse_args()
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    model, tok, _ = load_model(a.policy)
    ref = load_model(a.policy)[0]
    prompts = grpo.read_prompts(a.prompts, tok)
    cpu = {"sample_before": 0.0, "sample_after": 0.0, "update_before": 0.0, "update_after": 0.0}
    same, tokens = True, 0
    for s in range(a.steps):
        batch = [prompts[(s * a.prompts_per_step + k) % len(prompts)] for k in range(a.prompts_per_step)]
        pixels = torch.stack([load_image(r["image"], r["where"]) for r in batch])
        ids = [r["ids"] for r in batch]
        model.eval()
        t0 = time.process_time()
        plain = grpo.sample_batch_plain(model, pixels, ids, a.g, 96, torch.Generator().manual_seed(s))
        t1 = time.process_time()
        fast = grpo.sample_batch(model, pixels, ids, a.g, 96, torch.Generator().manual_seed(s))
        t2 = time.process_time()
        cpu["sample_before"] += t1 - t0
        cpu["sample_after"] += t2 - t1
        same &= plain == fast
        tokens += sum(len(x) for x in fast)
        rows = [(k, r["ids"], ans) for k, r in enumerate(batch) for ans in fast[k * a.g: (k + 1) * a.g]]
        model.train()
        cpu["update_before"] += update(model, ref, rows, pixels, per_row=True)
        cpu["update_after"] += update(model, ref, rows, pixels, per_row=False)
    before = cpu["sample_before"] + cpu["update_before"]
    after = cpu["sample_after"] + cpu["update_after"]
    print(json.dumps({"steps": a.steps, "answers": a.steps * a.prompts_per_step * a.g, "answer_tokens": tokens, "same_answers": same,
                      **{k: round(v, 2) for k, v in cpu.items()}, "sample_ratio": round(cpu["sample_after"] / cpu["sample_before"], 3),
                      "update_ratio": round(cpu["update_after"] / cpu["update_before"], 3), "step_ratio": round(after / before, 3)}))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
