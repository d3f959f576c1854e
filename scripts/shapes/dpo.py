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

try:
    import torch  # noqa: F401
except ImportError:  # pyenv and friends shadow Debian's python3, which is where python3-torch lives
    if os.path.exists("/usr/bin/python3") and os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3"):
        os.execv("/usr/bin/python3", ["/usr/bin/python3", *sys.argv])
    raise

import numpy as np
import torch
import torch.nn.functional as F
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from model import IMAGE_TOKENS  # noqa: E402
from onnx_weights import load_model  # noqa: E402
from package_model import write_model_folder  # noqa: E402
from tokenizer import EOS, IMAGE, PAD  # noqa: E402
from train import IMAGE_START, to_pixels  # noqa: E402

ONNX_FILES = ["onnx/vision_encoder.onnx", "onnx/embed_tokens.onnx", "onnx/decoder_model_merged.onnx"]
# TRL's names for precomputed reference log-probs (summed over each answer's tokens and its end token).
REF_FIELDS = ("ref_chosen_logps", "ref_rejected_logps")


class InputError(Exception):
    """Unusable input: exit 2 with the message."""


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

def _text_of(content, where: str, allow_image: bool) -> tuple[str, int]:
    """A message's text (its text parts joined) and how many image parts it has."""
    if isinstance(content, str):
        return content, 0
    if not isinstance(content, list):
        raise InputError(f"{where}.content: must be a string or a list of parts")
    texts, images = [], 0
    for k, part in enumerate(content):
        if not isinstance(part, dict) or part.get("type") not in ("text", "image"):
            raise InputError(f"{where}.content.{k}: must be {{\"type\": \"text\", \"text\": …}} or {{\"type\": \"image\"}}")
        if part["type"] == "image":
            if not allow_image:
                raise InputError(f"{where}.content.{k}: an image part belongs in the prompt's first user message")
            images += 1
        else:
            if not isinstance(part.get("text"), str):
                raise InputError(f"{where}.content.{k}.text: must be a string")
            texts.append(part["text"])
    return "".join(texts), images


def prompt_text(messages, where: str) -> str:
    """The prompt as the policy's chat template renders it (LLaVA-1.5: USER: <image>\\n… ASSISTANT: …</s> …), plus the
    generation prompt; rlaifv's local generator feeds the policy exactly this."""
    if not isinstance(messages, list) or not messages:
        raise InputError(f"{where}: must be a non-empty list of messages")
    out, images = [], 0
    for i, msg in enumerate(messages):
        at = f"{where}.{i}"
        if not isinstance(msg, dict) or msg.get("role") not in ("user", "assistant"):
            raise InputError(f"{at}.role: must be \"user\" or \"assistant\"")
        text, n = _text_of(msg.get("content"), at, allow_image=(i == 0 and msg["role"] == "user"))
        images += n
        if msg["role"] == "user":
            out.append("USER: " + ("<image>\n" * n) + text + " ")
        else:
            out.append("ASSISTANT: " + text + "</s> ")
    if messages[-1]["role"] != "user":
        raise InputError(f"{where}: the last message must be the user's (the turn the answers answer)")
    if images != 1:
        raise InputError(f"{where}: needs exactly one image part, in the first user message (found {images})")
    return "".join(out) + "ASSISTANT:"


def answer_text(messages, where: str) -> str:
    if not isinstance(messages, list) or len(messages) != 1 or not isinstance(messages[0], dict) or messages[0].get("role") != "assistant":
        raise InputError(f"{where}: must be a list of one assistant message")
    text, _ = _text_of(messages[0].get("content"), f"{where}.0", allow_image=False)
    return text


def encode(tok, text: str) -> list[int]:
    """Token ids with the image token expanded to the model's image tokens and </s> as the end token."""
    ids: list[int] = []
    for k, part in enumerate(text.split("</s>")):
        if k:
            ids.append(EOS)
        ids.extend(tok.encode(part.replace("<image>", "<image>" * IMAGE_TOKENS)))
    return ids


def load_image(path: str, where: str) -> torch.Tensor:
    try:
        img = Image.open(path)
        img.load()
    except Exception as e:  # noqa: BLE001 - any reason the image cannot be had is the input's fault
        raise InputError(f"{where}: cannot read image {path} ({e})") from None
    img = img.convert("RGB")
    if img.size != (64, 64):
        # As the model's processor: the shortest edge to 64 (bicubic), then a centre crop of 64×64.
        s = 64 / min(img.size)
        img = img.resize((max(64, round(img.size[0] * s)), max(64, round(img.size[1] * s))), Image.BICUBIC)
        left, top = (img.size[0] - 64) // 2, (img.size[1] - 64) // 2
        img = img.crop((left, top, left + 64, top + 64))
    return to_pixels(np.array(img)[None])[0]


def utf16_offsets(text: str) -> dict[int, int]:
    """rlaifv's spans count UTF-16 code units (JavaScript string indices); Python's count code points. Maps each
    UTF-16 offset that starts a character (and the end) to its code-point index; they differ after an emoji."""
    at, u = {}, 0
    for i, ch in enumerate(text):
        at[u] = i
        u += 2 if ord(ch) > 0xFFFF else 1
    at[u] = len(text)
    return at


def span_weights(tok, text: str, ids: list[int], spans, gamma: float, where: str) -> list[float]:
    """Per-token weights of an answer (ids: " " + text, then </s>): γ for tokens inside a rejected or edited span, else 1.
    The text is cut at the spans' edges and each piece encoded; the pieces must give the whole answer's tokens."""
    if spans is None:
        raise InputError(f"{where}: missing; --token-weight needs claim spans (rlaifv pull/export --spans, or loop.pairs_spans)")
    if not isinstance(spans, list):
        raise InputError(f"{where}: must be a list of spans")
    ranges = []
    at = utf16_offsets(text)
    for k, sp in enumerate(spans):
        ok = isinstance(sp, dict) and isinstance(sp.get("start"), int) and isinstance(sp.get("end"), int)
        if not ok or sp["start"] > sp["end"] or sp["start"] not in at or sp["end"] not in at:
            raise InputError(f"{where}.{k}: needs integer start <= end within the answer's {max(at)} UTF-16 code units, "
                             "not inside a character")
        # A correction's chosen side marks the sentences its editor wrote as edited: they weigh γ too (RLHF-V's
        # corrected segments).
        if sp.get("verdict") == "rejected" or sp.get("edited") is True:
            ranges.append((at[sp["start"]], at[sp["end"]]))
    cuts = sorted({0, len(text), *[x for r in ranges for x in r]})
    weights: list[float] = []
    pieces: list[int] = []
    for a, b in zip(cuts, cuts[1:]):
        piece = encode(tok, (" " if a == 0 else "") + text[a:b])
        inside = any(lo <= a and b <= hi for lo, hi in ranges)
        pieces += piece
        weights += [gamma if inside else 1.0] * len(piece)
    if pieces + [EOS] != ids:
        raise InputError(f"{where}: the spans do not fall on token boundaries of the answer")
    return weights + [1.0]


def read_pairs(path: str, tok, token_weight: float = 1.0) -> tuple[list[dict], list[torch.Tensor]]:
    """The pairs as token rows (prompt, chosen, rejected) with an index into the distinct images; with a token weight
    other than 1, each side's per-token weights from its claim spans."""
    if not os.path.exists(path):
        raise InputError(f"{path}: no such pairs file")
    base = os.path.dirname(os.path.abspath(path))
    images: dict[str, int] = {}
    pixels: list[torch.Tensor] = []
    pairs = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            where = f"{path}:{n}"
            try:
                row = json.loads(line)
            except json.JSONDecodeError as e:
                raise InputError(f"{where}: not JSON ({e.msg}); a TRL pairs file has one JSON object per line") from None
            if not isinstance(row, dict):
                raise InputError(f"{where}: must be a JSON object with images, prompt, chosen, rejected")
            for field in ("images", "prompt", "chosen", "rejected"):
                if field not in row:
                    raise InputError(f"{where}: field {field}: missing (a TRL vision DPO row has images, prompt, chosen, rejected)")
            imgs = row["images"]
            if not isinstance(imgs, list) or len(imgs) != 1 or not isinstance(imgs[0], str):
                raise InputError(f"{where}: field images: must be a list of one image path")
            img = imgs[0] if os.path.isabs(imgs[0]) else os.path.join(base, imgs[0])
            if img not in images:
                images[img] = len(pixels)
                pixels.append(load_image(img, f"{where}: field images"))
            prompt = encode(tok, prompt_text(row["prompt"], f"{where}: field prompt"))
            chosen_text = answer_text(row["chosen"], f"{where}: field chosen")
            rejected_text = answer_text(row["rejected"], f"{where}: field rejected")
            chosen = encode(tok, " " + chosen_text) + [EOS]
            rejected = encode(tok, " " + rejected_text) + [EOS]
            pair = {"image": images[img], "prompt": prompt, "chosen": chosen, "rejected": rejected}
            refs = [row.get(k) for k in REF_FIELDS]
            if any(r is not None for r in refs):
                for k, r in zip(REF_FIELDS, refs):
                    if isinstance(r, bool) or not isinstance(r, (int, float)) or not math.isfinite(r) or r > 0:
                        raise InputError(f"{where}: field {k}: must be a log-prob (a finite number <= 0) beside {' and '.join(REF_FIELDS)}")
                pair["ref"] = (float(refs[0]), float(refs[1]))
            if token_weight != 1.0:
                # RLHF-V's DDPO: tokens inside the labeler's rejected spans weigh γ in the summed log-prob.
                for side, text, ids in (("chosen", chosen_text, chosen), ("rejected", rejected_text, rejected)):
                    pair[f"{side}_w"] = span_weights(tok, text, ids, row.get(f"{side}_spans"), token_weight, f"{where}: field {side}_spans")
            pairs.append(pair)
    if not pairs:
        raise InputError(f"{path}: no pairs (the file is empty); nothing to train on")
    with_ref = sum("ref" in p for p in pairs)
    if 0 < with_ref < len(pairs):
        n = next(i for i, p in enumerate(pairs) if "ref" not in p)
        raise InputError(f"{path}: {with_ref} of {len(pairs)} pairs carry {' and '.join(REF_FIELDS)}, pair {n + 1} does not; "
                         "stored reference log-probs are all or none")
    return pairs, pixels


def read_dialogues(path: str, tok, max_positions: int) -> tuple[list[dict], list[torch.Tensor], dict]:
    """--sft-only: the refinement dialogues `rlaifv export --format fire` writes (a .json array or JSONL), as token rows
    (the conversation up to the last revision, then that revision and </s>). Only dialogues whose last revision is
    clean (`final_clean`) are learnt from: the student learns the refinement that worked, as FIRE trained its student
    on the teacher-approved turns; a conversation longer than the model's context is skipped and counted."""
    if not os.path.exists(path):
        raise InputError(f"{path}: no such dialogues file")
    base = os.path.dirname(os.path.abspath(path))
    text = open(path, encoding="utf-8").read()
    records: list[tuple[str, object]] = []
    if text.lstrip().startswith("["):
        try:
            arr = json.loads(text)
        except json.JSONDecodeError as e:
            raise InputError(f"{path}: not JSON ({e.msg} at line {e.lineno}); a fire file is one JSON array or one object per line") from None
        records = [(f"{path}: item {i}", r) for i, r in enumerate(arr)]
    else:
        for n, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                records.append((f"{path}:{n}", json.loads(line)))
            except json.JSONDecodeError as e:
                raise InputError(f"{path}:{n}: not JSON ({e.msg}); a fire file is one JSON array or one object per line") from None
    images: dict[str, int] = {}
    pixels: list[torch.Tensor] = []
    rows, counts = [], {"dialogues": len(records), "not_clean": 0, "too_long": 0}
    for where, r in records:
        if not isinstance(r, dict):
            raise InputError(f"{where}: must be a JSON object with image, conversations, final_clean")
        for field in ("image", "conversations", "final_clean"):
            if field not in r:
                raise InputError(f"{where}: field {field}: missing (rlaifv export --format fire writes image, conversations, final_clean)")
        conv = r["conversations"]
        if not isinstance(conv, list) or len(conv) < 4 or len(conv) % 2:
            raise InputError(f"{where}: field conversations: must be human/gpt turns, at least one revision (4 turns)")
        msgs = []
        for i, t in enumerate(conv):
            want = "human" if i % 2 == 0 else "gpt"
            if not isinstance(t, dict) or t.get("from") != want or not isinstance(t.get("value"), str):
                raise InputError(f"{where}: field conversations.{i}: must be {{\"from\": \"{want}\", \"value\": text}}")
            v = t["value"]
            if i == 0:
                if not v.startswith("<image>\n"):
                    raise InputError(f"{where}: field conversations.0.value: must start with \"<image>\\n\" (LLaVA's image placeholder)")
                msgs.append({"role": "user", "content": [{"type": "image"}, {"type": "text", "text": v[len("<image>\n"):]}]})
            else:
                msgs.append({"role": "user" if want == "human" else "assistant", "content": v})
        if r["final_clean"] is not True:
            counts["not_clean"] += 1
            continue
        prompt = encode(tok, prompt_text(msgs[:-1], f"{where}: field conversations"))
        answer = encode(tok, " " + msgs[-1]["content"]) + [EOS]
        if len(prompt) + len(answer) > max_positions + 1:  # the last token is never fed
            counts["too_long"] += 1
            continue
        if not isinstance(r["image"], str):
            raise InputError(f"{where}: field image: must be an image path")
        img = r["image"] if os.path.isabs(r["image"]) else os.path.join(base, r["image"])
        if img not in images:
            images[img] = len(pixels)
            pixels.append(load_image(img, f"{where}: field image"))
        rows.append({"image": images[img], "prompt": prompt, "answer": answer})
    if not rows:
        raise InputError(f"{path}: no dialogue to learn from ({counts['dialogues']} dialogues, {counts['not_clean']} without a clean last revision, "
                         f"{counts['too_long']} longer than the model's {max_positions} positions)")
    return rows, pixels, counts


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


def reference_source(a, pairs: list[dict], ref_is_policy: bool) -> str:
    """Where the reference log-probs come from: "stored" (the pairs file's) or "compute" (this trainer's pass).
    Stored values are the round policy's log-probs of plain summed answers: they stand for the reference only when it
    is the starting checkpoint and no token weights apply."""
    has = "ref" in pairs[0]
    why_not = ("the pairs file has no ref_chosen_logps/ref_rejected_logps" if not has
               else "--ref names another reference than --policy" if not ref_is_policy
               else "--token-weight weighs the reference's tokens too; the stored sums are unweighted" if a.token_weight != 1.0
               else None)
    if a.reference == "compute":
        return "compute"
    if a.reference == "stored" and why_not:
        raise InputError(f"--reference stored: {why_not}")
    if why_not and has:
        print(f"dpo.py: computing the reference log-probs: {why_not}", file=sys.stderr, flush=True)
    return "compute" if why_not else "stored"


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
    whatever `extra(tmp)` adds), written beside `out` and renamed into place, so it appears whole or not at all."""
    tmp = f"{out}.tmp-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    try:
        write_model_folder(model, tok, tmp, info["name"])
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


def sft_main(a, model, tok, build, policy: str, out: str, t0: float) -> int:
    """--sft-only: the refinement dialogues' clean last revisions by supervised fine-tuning; the same folder layout."""
    max_positions = json.load(open(os.path.join(policy, "config.json")))["text_config"]["max_position_embeddings"]
    rows, pixels, counts = read_dialogues(a.dialogues, tok, max_positions)
    pixels = torch.stack(pixels)
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


def main() -> int:
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
    a = ap.parse_args()
    if a.sft_only and not a.dialogues:
        raise InputError("--sft-only needs --dialogues (rlaifv export --format fire --out FILE)")
    if a.sft_only and a.pairs:
        raise InputError("--sft-only trains on --dialogues, not --pairs; give one")
    if not a.sft_only and not a.pairs:
        raise InputError("--pairs is required (or --sft-only with --dialogues)")
    t0 = time.time()
    torch.set_num_threads(a.threads)
    torch.use_deterministic_algorithms(True)
    torch.manual_seed(a.seed)
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
    model, tok, build = load_model(policy)
    if a.sft_only:
        return sft_main(a, model, tok, build, policy, out, t0)
    if a.token_weight <= 0:
        raise InputError(f"--token-weight must be positive, got {a.token_weight}")
    pairs, pixels = read_pairs(a.pairs, tok, a.token_weight)
    pixels = torch.stack(pixels)
    t_ref = time.time()
    source = reference_source(a, pairs, ref_dir == policy)
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
            write_model_folder(model, tok, sub, f"{info['name']}-epoch{e}")
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
        sys.exit(main())
    except InputError as e:
        print(f"dpo.py: {e}", file=sys.stderr)
        sys.exit(2)
