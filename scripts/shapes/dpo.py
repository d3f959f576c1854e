#!/usr/bin/env python3
"""DPO for the shapes policy: where TRL's DPOTrainer stands for a real model, this trains the tiny policy.

    python3 scripts/shapes/dpo.py --pairs PAIRS.jsonl --policy models/shapes-policy --out OUT [--seed 1]
    python3 scripts/shapes/dpo.py --sft-only --dialogues DIALOGUES.json --policy DIR --out OUT [--seed 1]   # FIRE's SFT
        [--ref DIR] [--beta 0.1] [--lr 5e-5] [--epochs 2] [--batch-size 32] [--max-steps N] [--threads 2] [--json] [--save-epochs]
        [--reference auto|stored|compute] [--write-reference FILE]

It reads the file `rlaifv pull --format trl` writes (TRL's conversational vision DPO rows: `images`, `prompt`,
`chosen`, `rejected`), loads the policy folder's ONNX weights back into the build's PyTorch modules (exactly), and
trains with DPO's sigmoid loss on the answers' summed token log-probs, the starting checkpoint (or --ref) frozen as the
reference. Rows that carry `ref_chosen_logps` and `ref_rejected_logps` (`rlaifv pull --reference-logprobs`, or this
trainer's own --write-reference) give the reference log-probs, and the reference pass is skipped. It writes a model folder in the layout of models/shapes-policy (transformers.js loads it as rlaifv's local
policy), plus train.json and a model card: the parent checkpoint and its SHA-256, the pairs file's SHA-256, every
hyperparameter, loss / reward accuracy / reward margin per epoch. The folder appears whole (written beside --out,
then renamed). The same inputs and seed give the same bytes.

Exit 2 with a message naming the file, line and field for unusable input (a missing, empty or non-TRL pairs file, an
image that cannot be read, an existing --out); 1 for anything else.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import shutil
import sys
import time
import types

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from debian_python import use_debian_python  # noqa: E402

use_debian_python()

from dpo_input import (  # noqa: E402,F401 - grpo.py and the tests take these from dpo
    ONNX_FILES, REF_FIELDS, InputError, answer_text, encode, jsonl_rows, prompt_text, read_image, reference_source, span_weights, utf16_offsets,
)
from dpo_input import read_dialogues as read_dialogues_arrays, read_pairs as read_pairs_arrays  # noqa: E402
from tokenizer import load_tokenizer  # noqa: E402


def parse_args() -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pairs", help="TRL JSONL file, as `rlaifv pull --format trl` writes it (DPO; required without --sft-only)")
    ap.add_argument("--sft-only", action="store_true",
                    help="supervised fine-tuning on refinement dialogues instead of DPO (FIRE's student training): needs --dialogues")
    ap.add_argument("--dialogues", help="--sft-only: the dialogues file `rlaifv export --format fire` writes (.json or .jsonl)")
    ap.add_argument("--policy", required=True, help="the checkpoint folder to start from")
    ap.add_argument("--out", required=True, help="the new checkpoint folder (must not exist)")
    ap.add_argument("--ref", help="the reference checkpoint (default: --policy)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--beta", type=float, default=0.1)
    ap.add_argument("--lr", type=float, default=5e-5)
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--max-steps", type=int, default=None, help="stop after this many optimiser steps")
    ap.add_argument("--sft-weight", type=float, default=0.0,
                    help="add this times the chosen answers' mean token NLL to the loss (RPO); 0 = plain DPO")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--json", action="store_true", help="print a one-line JSON summary on stdout at the end")
    ap.add_argument("--token-weight", type=float, default=1.0,
                    help="γ of RLHF-V's DDPO: tokens inside the claim spans the labeler rejected weigh γ in each answer's "
                         "summed log-prob (needs chosen_spans/rejected_spans: rlaifv pull --spans); 1: plain DPO")
    ap.add_argument("--reference", choices=["auto", "stored", "compute"], default="auto",
                    help="the reference log-probs: auto, the pairs file's ref_chosen_logps/ref_rejected_logps when it has them "
                         "(and the reference is the policy, γ 1), else its own pass; stored: the file's, or exit 2; compute: its own pass")
    ap.add_argument("--write-reference", metavar="FILE",
                    help="write the pairs file again with this pass's reference log-probs (ref_chosen_logps, ref_rejected_logps)")
    ap.add_argument("--save-epochs", action="store_true",
                    help="also write each epoch's weights as {out}/checkpoint-<epoch> (for the loop's loop.select: best)")
    return ap.parse_args()


def check_input(a: argparse.Namespace) -> types.SimpleNamespace:
    """Every check of the arguments, the folders and the pairs or dialogues file (InputError: exit 2), without torch:
    the tokens and images as dpo_input reads them, and where the reference log-probs come from."""
    if a.sft_only and not a.dialogues:
        raise InputError("--sft-only needs --dialogues (rlaifv export --format fire --out FILE)")
    if a.sft_only and a.pairs:
        raise InputError("--sft-only trains on --dialogues, not --pairs; give one")
    if not a.sft_only and not a.pairs:
        raise InputError("--pairs is required (or --sft-only with --dialogues)")
    out = os.path.abspath(a.out)
    if os.path.exists(out):
        raise InputError(f"{out} already exists; give another --out (the trainer never overwrites a checkpoint)")
    if not os.path.isdir(os.path.dirname(out)):
        raise InputError(f"{os.path.dirname(out)}: the folder for --out does not exist")
    policy = os.path.abspath(a.policy)
    ref_dir = os.path.abspath(a.ref or a.policy)
    for d in {policy, ref_dir}:
        missing = [f for f in ONNX_FILES + ["config.json", "tokenizer.json", "build.json"] if not os.path.exists(os.path.join(d, f))]
        if missing:
            raise InputError(f"{d}: not a shapes policy folder (missing {', '.join(missing)})")
    tok = load_tokenizer(policy)
    c = types.SimpleNamespace(args=a, out=out, policy=policy, ref_dir=ref_dir)
    if a.sft_only:
        max_positions = json.load(open(os.path.join(policy, "config.json")))["text_config"]["max_position_embeddings"]
        c.rows, c.images, c.counts = read_dialogues_arrays(a.dialogues, tok, max_positions)
        return c
    if a.token_weight <= 0:
        raise InputError(f"--token-weight must be positive, got {a.token_weight}")
    c.pairs, c.images = read_pairs_arrays(a.pairs, tok, a.token_weight)
    c.source = reference_source(a, c.pairs, ref_dir == policy)
    return c


if __name__ == "__main__":
    # Every input check runs before torch is imported (about 2.6 s of CPU), so a bad input fails at once.
    try:
        CHECKED = check_input(parse_args())
    except InputError as e:
        print(f"dpo.py: {e}", file=sys.stderr)
        sys.exit(2)

import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402
from PIL import Image  # noqa: E402,F401

from model import IMAGE_TOKENS  # noqa: E402,F401
from onnx_weights import load_model  # noqa: E402
from package_model import write_model_folder  # noqa: E402
from tokenizer import EOS, IMAGE, PAD  # noqa: E402,F401
from train import IMAGE_START, to_pixels  # noqa: E402


def sha256_file(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def sha256_folder(folder: str) -> str:
    """As rlaifv's hashCheckpoint: over every file in path order, each as path NUL size NUL bytes."""
    files = []
    for root, _dirs, names in os.walk(folder):
        for n in names:
            files.append(os.path.relpath(os.path.join(root, n), folder).replace(os.sep, "/"))
    h = hashlib.sha256()
    for rel in sorted(files):
        data = open(os.path.join(folder, rel), "rb").read()
        h.update(f"{rel}\0{len(data)}\0".encode())
        h.update(data)
    return h.hexdigest()


# ------------------------------------------------------------------------------------------------ reading the pairs

def load_image(path: str, where: str) -> torch.Tensor:
    """The image as the model's input (normalised float [3, 64, 64]); InputError naming `where` if unreadable."""
    return to_pixels(read_image(path, where)[None])[0]


def read_pairs(path: str, tok, token_weight: float = 1.0) -> tuple[list[dict], list[torch.Tensor]]:
    """dpo_input.read_pairs with the images as the model's input."""
    pairs, images = read_pairs_arrays(path, tok, token_weight)
    return pairs, [to_pixels(x[None])[0] for x in images]


def read_dialogues(path: str, tok, max_positions: int) -> tuple[list[dict], list[torch.Tensor], dict]:
    """dpo_input.read_dialogues with the images as the model's input."""
    rows, images, counts = read_dialogues_arrays(path, tok, max_positions)
    return rows, [to_pixels(x[None])[0] for x in images], counts



def sft_logps(model, rows: list[dict], pixels: torch.Tensor) -> torch.Tensor:
    """Summed log-prob of each row's answer (incl. </s>) given its image and conversation."""
    L = max(len(r["prompt"]) + len(r["answer"]) for r in rows)
    ids = torch.full((len(rows), L), PAD, dtype=torch.long)
    mask = torch.zeros((len(rows), L), dtype=torch.long)
    sel = torch.zeros((len(rows), L), dtype=torch.bool)
    for b, r in enumerate(rows):
        seq = r["prompt"] + r["answer"]
        ids[b, : len(seq)] = torch.tensor(seq)
        mask[b, : len(seq)] = 1
        sel[b, len(r["prompt"]): len(seq)] = True
    img = pixels[torch.tensor([r["image"] for r in rows])]
    logits = model.forward_train(img, ids, mask, IMAGE_START, repeat=1)
    logp = torch.gather(logits[:, :-1].log_softmax(-1), 2, ids[:, 1:, None])[..., 0]
    return (logp * sel[:, 1:]).sum(1)


def schedule(model, n: int, a):
    """Both modes' optimisation: the steps (a.epochs over n rows in batches of a.batch_size, at most a.max_steps),
    the learning rate at a step (linear warm-up over the first 10% of steps, then linear decay: TRL's default), AdamW
    without weight decay, and the generator that orders each epoch (seeded). Puts the model in training mode."""
    steps_per_epoch = math.ceil(n / a.batch_size)
    total = steps_per_epoch * a.epochs if a.max_steps is None else min(a.max_steps, steps_per_epoch * a.epochs)
    warm = max(1, total // 10)
    lr_at = lambda step: a.lr * ((step + 1) / warm if step < warm else max(0.0, (total - step) / max(1, total - warm)))
    model.train()
    return total, lr_at, torch.optim.AdamW(model.parameters(), lr=a.lr, weight_decay=0.0), np.random.default_rng(a.seed)


def sft_train(model, rows, pixels, a) -> list[dict]:
    """The SFT mode's loop: each answer's mean token NLL, AdamW with the DPO mode's schedule, clip 1.0."""
    n = len(rows)
    total, lr_at, opt, g = schedule(model, n, a)
    history, step = [], 0
    for epoch in range(a.epochs):
        if step >= total:
            break
        order = g.permutation(n)
        loss_sum, seen = 0.0, 0
        for s in range(0, n, a.batch_size):
            if step >= total:
                break
            idx = order[s: s + a.batch_size]
            for pg in opt.param_groups:
                pg["lr"] = lr_at(step)
            batch = [rows[i] for i in idx]
            lp = sft_logps(model, batch, pixels)
            n_tok = torch.tensor([len(r["answer"]) for r in batch], dtype=lp.dtype)
            loss = (-lp / n_tok).mean()
            opt.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            loss_sum += loss.item() * len(idx)
            seen += len(idx)
            step += 1
        history.append({"epoch": epoch + 1, "steps": step, "rows_seen": seen, "loss": round(loss_sum / seen, 6)})
        print(f"epoch {epoch + 1}: SFT loss {history[-1]['loss']:.4f} ({step}/{total} steps)", file=sys.stderr, flush=True)
    model.eval()
    return history


# ------------------------------------------------------------------------------------------------ the DPO step

def batch_logps(model, pairs: list[dict], pixels: torch.Tensor, plain: list | None = None) -> tuple[torch.Tensor, torch.Tensor]:
    """Summed log-probs of each pair's chosen and rejected answer (incl. </s>) given its image and prompt; with token
    weights in the pairs (--token-weight) each token's log-prob counts with its weight, and the unweighted chosen sums
    are appended to `plain` when given."""
    rows = []
    for p in pairs:
        rows.append((p["prompt"] + p["chosen"], len(p["prompt"])))
        rows.append((p["prompt"] + p["rejected"], len(p["prompt"])))
    L = max(len(r[0]) for r in rows)
    ids = torch.full((len(rows), L), PAD, dtype=torch.long)
    mask = torch.zeros((len(rows), L), dtype=torch.long)
    sel = torch.zeros((len(rows), L), dtype=torch.bool)
    for b, (seq, start) in enumerate(rows):
        ids[b, : len(seq)] = torch.tensor(seq)
        mask[b, : len(seq)] = 1
        sel[b, start: len(seq)] = True
    img = pixels[torch.tensor([p["image"] for p in pairs])]
    logits = model.forward_train(img, ids, mask, IMAGE_START, repeat=2)
    logp = torch.gather(logits[:, :-1].log_softmax(-1), 2, ids[:, 1:, None])[..., 0]
    total = (logp * sel[:, 1:]).sum(1)
    if plain is not None:
        plain.append(total[0::2])
    if "chosen_w" in pairs[0]:
        # --token-weight: the same sum with each answer token weighted (γ inside rejected spans).
        w = torch.zeros((len(rows), L), dtype=logp.dtype)
        for b, p in enumerate(pairs):
            for side, row in (("chosen", 2 * b), ("rejected", 2 * b + 1)):
                start = len(p["prompt"])
                w[row, start: start + len(p[side])] = torch.tensor(p[f"{side}_w"], dtype=logp.dtype)
        total = (logp * w[:, 1:]).sum(1)
    return total[0::2], total[1::2]


def train(model, ref_c, ref_r, pairs, pixels, a, on_epoch=None) -> list[dict]:
    """AdamW, linear warm-up over the first 10% of steps then linear decay (TRL's default schedule), clip 1.0.
    on_epoch(epoch) is called after each epoch (the model still in training mode)."""
    n = len(pairs)
    total, lr_at, opt, g = schedule(model, n, a)
    history, step = [], 0
    for epoch in range(a.epochs):
        if step >= total:
            break
        order = g.permutation(n)
        sums = {"loss": 0.0, "acc": 0.0, "margin": 0.0, "chosen": 0.0, "rejected": 0.0, "n": 0}
        for s in range(0, n, a.batch_size):
            if step >= total:
                break
            idx = order[s: s + a.batch_size]
            for pg in opt.param_groups:
                pg["lr"] = lr_at(step)
            plain: list = []
            pc, pr = batch_logps(model, [pairs[i] for i in idx], pixels, plain)
            it = torch.from_numpy(idx)
            rc, rr = a.beta * (pc - ref_c[it]), a.beta * (pr - ref_r[it])
            loss = -F.logsigmoid(rc - rr).mean()
            if a.sft_weight:
                # RPO's term: the chosen answers' per-token negative log-likelihood keeps the language from drifting
                # (unweighted: the token weights shape the preference, not the likelihood).
                pc_plain = plain[0]
                n_tok = torch.tensor([len(pairs[i]["chosen"]) for i in idx], dtype=pc.dtype)
                loss = loss + a.sft_weight * (-pc_plain / n_tok).mean()
            opt.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            k = len(idx)
            sums["loss"] += loss.item() * k
            sums["acc"] += (rc > rr).float().sum().item()
            sums["margin"] += (rc - rr).sum().item()
            sums["chosen"] += rc.sum().item()
            sums["rejected"] += rr.sum().item()
            sums["n"] += k
            step += 1
        m = sums["n"]
        history.append({"epoch": epoch + 1, "steps": step, "pairs_seen": m, "loss": round(sums["loss"] / m, 6),
                        "reward_accuracy": round(sums["acc"] / m, 6), "reward_margin": round(sums["margin"] / m, 6),
                        "reward_chosen": round(sums["chosen"] / m, 6), "reward_rejected": round(sums["rejected"] / m, 6)})
        print(f"epoch {epoch + 1}: loss {history[-1]['loss']:.4f}, reward accuracy {history[-1]['reward_accuracy']:.3f}, "
              f"margin {history[-1]['reward_margin']:.4f} ({step}/{total} steps)", file=sys.stderr, flush=True)
        if on_epoch is not None:
            on_epoch(epoch + 1)
    model.eval()
    return history


@torch.no_grad()
def reference_logps(model, pairs, pixels, bs: int) -> tuple[torch.Tensor, torch.Tensor]:
    cs, rs = [], []
    for s in range(0, len(pairs), bs):
        c, r = batch_logps(model, pairs[s: s + bs], pixels)
        cs.append(c)
        rs.append(r)
    return torch.cat(cs), torch.cat(rs)



def write_reference(src: str, dst: str, ref_c: torch.Tensor, ref_r: torch.Tensor) -> None:
    """The pairs file again, each row with this pass's reference log-probs. A float32 value printed by Python's repr
    reads back as the same float32, so training on the new file with the stored values repeats this run exactly."""
    if os.path.exists(dst):
        raise InputError(f"{dst} already exists; give another --write-reference")
    tmp = f"{dst}.tmp-{os.getpid()}"
    k = 0
    with open(src, encoding="utf-8") as f, open(tmp, "w", encoding="utf-8") as out:
        for line in f:
            if not line.strip():
                continue
            row = json.loads(line)
            row["ref_chosen_logps"], row["ref_rejected_logps"] = float(ref_c[k]), float(ref_r[k])
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
            k += 1
    os.rename(tmp, dst)


def sft_card(info: dict) -> str:
    hp = info["hyperparameters"]
    d = info["dialogues"]
    rows = "\n".join(f"| {h['epoch']} | {h['steps']} | {h['loss']:.4f} |" for h in info["epochs"])
    return f"""# {info['name']}

The shapes policy after supervised fine-tuning on refinement dialogues (`scripts/shapes/dpo.py --sft-only`, as FIRE
trained its student): each dialogue whose last revision the labeler found clean, the loss on that revision given the
whole conversation (the image, the instruction, the earlier answers and the teacher's comments).

| | |
|---|---|
| parent checkpoint | `{info['parent']['path']}` |
| parent SHA-256 (over its files) | `{info['parent']['sha256']}` |
| dialogues file | `{d['path']}` |
| dialogues file SHA-256 | `{d['sha256']}` |
| dialogues | {d['dialogues']} in the file, {d['rows']} learnt from ({d['not_clean']} without a clean last revision, {d['too_long']} longer than the context) |
| loss | the last revision's mean token NLL (its `</s>` included) |
| optimiser | AdamW, lr {hp['lr']}, weight decay 0, linear warm-up over 10% of the steps then linear decay, gradient clip 1.0 |
| epochs, batch size, steps | {hp['epochs']}, {hp['batch_size']}, {info['steps']} |
| seed, threads | {hp['seed']}, {hp['threads']} |
| torch | {info['torch']} |

| epoch | steps | SFT loss |
|---|---|---|
{rows}

`train.json` holds the same, machine-readable. The same dialogues, parent and seed give byte-identical files.
"""


def model_card(info: dict) -> str:
    hp = info["hyperparameters"]
    rows = "\n".join(f"| {h['epoch']} | {h['steps']} | {h['loss']:.4f} | {h['reward_accuracy']:.3f} | {h['reward_margin']:.4f} |" for h in info["epochs"])
    return f"""# {info['name']}

The shapes policy after one round of DPO with `scripts/shapes/dpo.py` (rlaifv's stand-in for TRL's DPOTrainer).
Same architecture, tokenizer, ONNX interface and configs as its parent; transformers.js loads it as
`LlavaForConditionalGeneration`, and rlaifv uses it as a local policy (`--policy` this folder).

| | |
|---|---|
| parent checkpoint | `{info['parent']['path']}` |
| parent SHA-256 (over its files) | `{info['parent']['sha256']}` |
| reference model | `{info['reference']['path']}` (frozen) |
| pairs file | `{info['pairs']['path']}` |
| pairs file SHA-256 | `{info['pairs']['sha256']}` |
| pairs | {info['pairs']['count']} |
| loss | DPO sigmoid, β {hp['beta']}, on summed token log-probs of the answer (its `</s>` included){f" + {hp['sft_weight']} × the chosen answers' mean token NLL (RPO)" if hp['sft_weight'] else ''} |
| optimiser | AdamW, lr {hp['lr']}, weight decay 0, linear warm-up over 10% of the steps then linear decay, gradient clip 1.0 |
| epochs, batch size, steps | {hp['epochs']}, {hp['batch_size']}, {info['steps']}{' (capped by --max-steps)' if hp['max_steps'] is not None else ''} |
| seed, threads | {hp['seed']}, {hp['threads']} |
| torch | {info['torch']} |

Per epoch (rewards are β·(log π − log π_ref) of the answers, averaged over the pairs seen):

| epoch | steps | loss | reward accuracy | reward margin |
|---|---|---|---|---|
{rows}

`train.json` holds the same, machine-readable. The same pairs, parent and seed give byte-identical files.
"""


def write_checkpoint(out: str, model, tok, info: dict, build: dict, card: str, extra=None) -> None:
    """The new checkpoint folder: the model in the policy folder's layout, build.json, train.json and its card (and
    whatever `extra(tmp)` adds), written beside `out` and renamed into place, so it appears whole or not at all. The
    ONNX files are the parent's graphs with the trained weights (package_model.write_model_folder)."""
    tmp = f"{out}.tmp-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    try:
        write_model_folder(model, tok, tmp, info["name"], parent=info["parent"]["path"])
        for name, obj in (("build.json", build), ("train.json", info)):
            with open(os.path.join(tmp, name), "w") as f:
                json.dump(obj, f, indent=2)
                f.write("\n")
        with open(os.path.join(tmp, "README.md"), "w") as f:
            f.write(card)
        if extra is not None:
            extra(tmp)
        os.rename(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def sft_main(a, model, tok, build, policy: str, out: str, t0: float, rows: list[dict], pixels: torch.Tensor, counts: dict) -> int:
    """--sft-only: the refinement dialogues' clean last revisions by supervised fine-tuning; the same folder layout."""
    print(f"{len(rows)} dialogues to learn from ({counts['dialogues']} in the file, {counts['not_clean']} not clean, "
          f"{counts['too_long']} too long), {len(pixels)} images", file=sys.stderr, flush=True)
    history = sft_train(model, rows, pixels, a)
    dialogues_sha = sha256_file(a.dialogues)
    parent_sha = sha256_folder(policy)
    hp = {"mode": "sft", "lr": a.lr, "epochs": a.epochs, "batch_size": a.batch_size, "max_steps": a.max_steps, "seed": a.seed, "threads": a.threads}
    ident = hashlib.sha256(json.dumps([parent_sha, dialogues_sha, hp]).encode()).hexdigest()[:12]
    info = {
        "name": f"rlaifv/shapes-policy-sft-{ident}",
        "parent": {"path": policy, "sha256": parent_sha, "name": json.load(open(os.path.join(policy, "config.json"))).get("_name_or_path")},
        "dialogues": {"path": os.path.abspath(a.dialogues), "sha256": dialogues_sha, "rows": len(rows), **counts, "images": len(pixels)},
        "hyperparameters": hp,
        "steps": history[-1]["steps"] if history else 0,
        "epochs": history,
        "torch": torch.__version__,
    }
    write_checkpoint(out, model, tok, info, {**build, "sft": {"parent": info["parent"], "dialogues_sha256": dialogues_sha, "hyperparameters": hp}}, sft_card(info))
    secs = time.time() - t0
    print(f"wrote {out} ({info['steps']} steps, {secs:.1f}s)", file=sys.stderr, flush=True)
    if a.json:
        print(json.dumps({"out": out, "mode": "sft", "steps": info["steps"], "seconds": round(secs, 2), "rows": len(rows), **counts, "epochs": history}))
    return 0


def main(c: types.SimpleNamespace) -> int:
    """Trains on the checked input (check_input): DPO on the pairs, or --sft-only on the dialogues."""
    a, out, policy, ref_dir = c.args, c.out, c.policy, c.ref_dir
    t0 = time.time()
    torch.set_num_threads(a.threads)
    torch.use_deterministic_algorithms(True)
    torch.manual_seed(a.seed)
    model, tok, build = load_model(policy)
    pixels = torch.stack([to_pixels(x[None])[0] for x in c.images])
    if a.sft_only:
        return sft_main(a, model, tok, build, policy, out, t0, c.rows, pixels, c.counts)
    pairs, source = c.pairs, c.source
    t_ref = time.time()
    if source == "stored":
        # As the pass gives them: float32, one per pair.
        ref_c = torch.tensor([p["ref"][0] for p in pairs], dtype=torch.float32)
        ref_r = torch.tensor([p["ref"][1] for p in pairs], dtype=torch.float32)
    else:
        ref = model if ref_dir == policy else load_model(ref_dir)[0]
        ref_c, ref_r = reference_logps(ref, pairs, pixels, a.batch_size)
        del ref
    ref_seconds = time.time() - t_ref
    if a.write_reference:
        write_reference(a.pairs, a.write_reference, ref_c, ref_r)
    print(f"{len(pairs)} pairs, {len(pixels)} images; reference log-probs ({source}) in {ref_seconds:.1f}s", file=sys.stderr, flush=True)
    # --save-epochs: the weights after each epoch, written as {out}/checkpoint-<epoch> (the layout Hugging Face
    # trainers leave), so the loop's checkpoint selection (loop.select: best) can pick one on a validation split.
    snapshots = []
    on_epoch = (lambda e: snapshots.append((e, {k: v.detach().clone() for k, v in model.state_dict().items()}))) if a.save_epochs else None
    history = train(model, ref_c, ref_r, pairs, pixels, a, on_epoch)

    pairs_sha = sha256_file(a.pairs)
    parent_sha = sha256_folder(policy)
    hp = {"beta": a.beta, "lr": a.lr, "epochs": a.epochs, "batch_size": a.batch_size, "max_steps": a.max_steps, "sft_weight": a.sft_weight,
          "seed": a.seed, "threads": a.threads, **({"token_weight": a.token_weight} if a.token_weight != 1.0 else {})}
    ident = hashlib.sha256(json.dumps([parent_sha, pairs_sha, hp]).encode()).hexdigest()[:12]
    info = {
        "name": f"rlaifv/shapes-policy-dpo-{ident}",
        "parent": {"path": policy, "sha256": parent_sha, "name": json.load(open(os.path.join(policy, "config.json"))).get("_name_or_path")},
        "reference": {"path": ref_dir, "sha256": parent_sha if ref_dir == policy else sha256_folder(ref_dir)},
        "pairs": {"path": os.path.abspath(a.pairs), "sha256": pairs_sha, "count": len(pairs), "images": len(pixels)},
        "hyperparameters": hp,
        "steps": history[-1]["steps"] if history else 0,
        "epochs": history,
        "torch": torch.__version__,
    }
    def epochs(tmp: str) -> None:
        # --save-epochs: each epoch's weights beside the final ones.
        if not snapshots:
            return
        final = {k: v.detach().clone() for k, v in model.state_dict().items()}
        for e, state in snapshots:
            model.load_state_dict(state)
            sub = os.path.join(tmp, f"checkpoint-{e}")
            write_model_folder(model, tok, sub, f"{info['name']}-epoch{e}", parent=policy)
            with open(os.path.join(sub, "build.json"), "w") as f:
                json.dump({**build, "dpo": {"parent": info["parent"], "pairs_sha256": pairs_sha, "hyperparameters": hp, "epoch": e}}, f, indent=2)
                f.write("\n")
        model.load_state_dict(final)

    write_checkpoint(out, model, tok, info, {**build, "dpo": {"parent": info["parent"], "pairs_sha256": pairs_sha, "hyperparameters": hp}},
                     model_card(info), epochs)
    secs = time.time() - t0
    print(f"wrote {out} ({info['steps']} steps, {secs:.1f}s)", file=sys.stderr, flush=True)
    if a.json:
        print(json.dumps({"out": out, "steps": info["steps"], "seconds": round(secs, 2), "reference": source,
                          "reference_seconds": round(ref_seconds, 3), "epochs": history}))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(CHECKED))
    except InputError as e:
        print(f"dpo.py: {e}", file=sys.stderr)
        sys.exit(2)
