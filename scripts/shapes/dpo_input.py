"""The input side of dpo.py, without torch: the arguments, the TRL pairs and FIRE dialogues as token rows with their
images as arrays, and every check that makes an input unusable (InputError: exit 2 naming the file, line and field).
dpo.py runs these before it imports torch, so a bad input fails in a fraction of a second, not after torch's import.
"""
from __future__ import annotations

import json
import math
import os
import sys

import numpy as np
from PIL import Image

from tokenizer import EOS, IMAGE_TOKENS

ONNX_FILES = ["onnx/vision_encoder.onnx", "onnx/embed_tokens.onnx", "onnx/decoder_model_merged.onnx"]
# TRL's names for precomputed reference log-probs (summed over each answer's tokens and its end token).
REF_FIELDS = ("ref_chosen_logps", "ref_rejected_logps")


class InputError(Exception):
    """Unusable input: exit 2 with the message."""


def jsonl_rows(path: str, kind: str, hint: str = ""):
    """Each non-blank line of a JSONL file as (where, value), `where` being "path:line"; a missing file or a line that is
    not JSON is an InputError naming it (`kind`: what the file is, for the message; `hint` follows the JSON error)."""
    if not os.path.exists(path):
        raise InputError(f"{path}: no such {kind}")
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            where = f"{path}:{n}"
            try:
                yield where, json.loads(line)
            except json.JSONDecodeError as e:
                raise InputError(f"{where}: not JSON ({e.msg}){hint}") from None



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


def read_image(path: str, where: str) -> np.ndarray:
    """The image as the model's processor sees it: RGB, 64×64, uint8 [64, 64, 3]; InputError naming `where` if unreadable."""
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
    return np.array(img)


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


def read_pairs(path: str, tok, token_weight: float = 1.0) -> tuple[list[dict], list[np.ndarray]]:
    """The pairs as token rows (prompt, chosen, rejected) with an index into the distinct images; with a token weight
    other than 1, each side's per-token weights from its claim spans."""
    base = os.path.dirname(os.path.abspath(path))
    images: dict[str, int] = {}
    pixels: list[np.ndarray] = []
    pairs = []
    for where, row in jsonl_rows(path, "pairs file", "; a TRL pairs file has one JSON object per line"):
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
            pixels.append(read_image(img, f"{where}: field images"))
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


def read_dialogues(path: str, tok, max_positions: int) -> tuple[list[dict], list[np.ndarray], dict]:
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
    pixels: list[np.ndarray] = []
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
            pixels.append(read_image(img, f"{where}: field image"))
        rows.append({"image": images[img], "prompt": prompt, "answer": answer})
    if not rows:
        raise InputError(f"{path}: no dialogue to learn from ({counts['dialogues']} dialogues, {counts['not_clean']} without a clean last revision, "
                         f"{counts['too_long']} longer than the model's {max_positions} positions)")
    return rows, pixels, counts


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
