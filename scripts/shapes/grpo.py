#!/usr/bin/env python3
"""GRPO for the shapes policy: where TRL's GRPOTrainer stands for a real model, this trains the tiny policy online.

    RLAIFV_URL=http://127.0.0.1:PORT python3 scripts/shapes/grpo.py --prompts PROMPTS.jsonl --policy DIR --out OUT \
        --samples 400 [--num-generations 8] [--prompts-per-step 32] [--beta 0.04] [--epsilon 0.2] [--lr 5e-5]
        [--ref DIR] [--num-iterations 1] [--max-new-tokens 96] [--micro-batch 64] [--save-every-samples N] [--log FILE]
        [--seed 0] [--json]

Each step takes --prompts-per-step prompts (an rlaifv prompts file: image, question), samples --num-generations
answers per prompt from the current policy (temperature 1.0, as TRL's default) in one batched generation with the KV
cache, and asks `rlaifv serve` for their rewards through the adapter a TRL user plugs in
(scripts/integrations/trl_reward.py's `rlaifv_reward_sync`, called as TRL's `_calculate_rewards` calls it:
conversational prompts with the PIL image, conversational completions, the `images` column), so the images travel as
a TRL user's would: one call per group, the step's groups sent at once (the server scores them as one batch).
The update runs in --micro-batch chunks of similar length with gradients accumulated (the same loss). The loss is TRL's GRPO with its `GRPOConfig` defaults
where they fit (trl/trainer/grpo_config.py, grpo_trainer.py `_compute_loss`):
- one update per batch (TRL's num_iterations=1): the old policy is the current one, its log-probs the detached
  current ones (no extra forward), as TRL does;
- advantages: reward minus the group's mean, divided by the group's std + 1e-4 (`scale_rewards="group"`);
- the ratio π/π_old clipped to [1 − ε, 1 + ε], ε = 0.2 (`epsilon`); with `--num-iterations 1` (TRL's default) the
  ratio is 1 at the one update, as in TRL;
- the KL to the reference by the k3 estimator exp(ref − logp) − (ref − logp) − 1, weighted by β;
- per-token normalisation (`loss_type="dapo"`): the batch's summed token losses over its number of answer tokens.
β: TRL's default is 0.0 (no reference at all). This trainer's default is 0.04 (TRL's earlier default, DeepSeekMath's):
the tiny policy's answers are short and its reward is gameable (the `rejc` preset pays for saying less), and a KL
anchor keeps the held-out comparison with the start meaningful; `--beta 0` gives TRL's current default exactly.
A `None` reward (the labeler could not judge the answer) or a group whose request failed gets advantage 0, as TRL
forces for unscorable completions; both are counted and logged, never scored 0. No reward at all in the whole run is
a failure (exit 1).

It writes a model folder in the layout of models/shapes-policy with build.json, train.json (hyperparameters and the
per-step log) and a card, beside --out then renamed (dpo.py's writer), and with --save-every-samples N also each
N-sample point's weights as {out}/checkpoint-<samples>. --log FILE gets the per-step JSON log as well.
Exit 2 for unusable input (a missing prompts file or image, an existing --out), 1 for anything else.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import sys
import time
import types
from concurrent.futures import ThreadPoolExecutor

from debian_python import use_debian_python

use_debian_python()

from dpo_input import InputError, encode, jsonl_rows, read_image  # noqa: E402
from tokenizer import EOS, PAD, load_tokenizer, prompt_text  # noqa: E402


# ------------------------------------------------------------------------------------------------ the input, without torch

def read_prompts(path: str, tok) -> list[dict]:
    """An rlaifv prompts file (JSONL: image relative to the file, question) as token rows with their image."""
    base = os.path.dirname(os.path.abspath(path))
    rows = []
    for where, r in jsonl_rows(path, "prompts file", "; an rlaifv prompts file has one JSON object per line"):
        if not isinstance(r, dict) or not isinstance(r.get("image"), str) or not isinstance(r.get("question"), str):
            raise InputError(f"{where}: needs \"image\" (a path) and \"question\" (text)")
        img = r["image"] if os.path.isabs(r["image"]) else os.path.join(base, r["image"])
        rows.append({"image": img, "question": r["question"], "ids": encode(tok, prompt_text(r["question"])), "where": where})
    if not rows:
        raise InputError(f"{path}: no prompts")
    return rows


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--prompts", required=True, help="an rlaifv prompts file (JSONL: image, question)")
    ap.add_argument("--policy", required=True, help="the checkpoint folder to start from")
    ap.add_argument("--out", required=True, help="the new checkpoint folder (must not exist)")
    ap.add_argument("--ref", help="the reference checkpoint for the KL (default: --policy)")
    ap.add_argument("--samples", type=int, required=True, help="answers to draw in all (the budget)")
    ap.add_argument("--num-generations", type=int, default=8, help="G, answers per prompt (TRL's default 8)")
    ap.add_argument("--prompts-per-step", type=int, default=32, help="prompts per step; each step samples prompts × G answers in one batch")
    ap.add_argument("--beta", type=float, default=0.04, help="KL weight (TRL's current default 0.0; see the top of this file)")
    ap.add_argument("--epsilon", type=float, default=0.2)
    ap.add_argument("--num-iterations", type=int, default=1, help="updates per generated batch (TRL's num_iterations)")
    ap.add_argument("--lr", type=float, default=5e-5)
    ap.add_argument("--max-new-tokens", type=int, default=96)
    ap.add_argument("--micro-batch", type=int, default=64, help="answers per forward/backward (gradients accumulated; the loss is the same)")
    ap.add_argument("--save-every-samples", type=int, default=None, help="also write {out}/checkpoint-<samples> every N samples")
    ap.add_argument("--log", help="write the per-step JSON log here too")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=1, help="torch threads; 2 spun 4-5x the CPU time of 1 on a shared 2-core machine")
    ap.add_argument("--json", action="store_true", help="print a one-line JSON summary on stdout at the end")
    a = ap.parse_args()
    for name in ("samples", "num_generations", "prompts_per_step", "num_iterations", "max_new_tokens", "micro_batch"):
        if getattr(a, name) < 1:
            raise InputError(f"--{name.replace('_', '-')} must be at least 1")
    if a.num_generations < 2:
        raise InputError("--num-generations must be at least 2 (a group needs a spread)")
    return a


def check_input(a: argparse.Namespace) -> types.SimpleNamespace:
    """Every check of the arguments, the folders and the prompts file (InputError: exit 2), without torch: the prompts
    as token rows, every image present and the first one readable (the others are read as their step samples them)."""
    out, policy = os.path.abspath(a.out), os.path.abspath(a.policy)
    ref_dir = os.path.abspath(a.ref or a.policy)
    if os.path.exists(out):
        raise InputError(f"{out} already exists; give another --out (the trainer never overwrites a checkpoint)")
    if not os.path.isdir(os.path.dirname(out)):
        raise InputError(f"{os.path.dirname(out)}: the folder for --out does not exist")
    for d in {policy, ref_dir}:
        if not os.path.exists(os.path.join(d, "build.json")):
            raise InputError(f"{d}: not a shapes policy folder (no build.json)")
    prompts = read_prompts(a.prompts, load_tokenizer(policy))
    for r in prompts:
        if not os.path.isfile(r["image"]):
            raise InputError(f"{r['where']}: field image: no such file {r['image']}")
    read_image(prompts[0]["image"], f"{prompts[0]['where']}: field image")
    return types.SimpleNamespace(args=a, out=out, policy=policy, ref_dir=ref_dir, prompts=prompts)


if __name__ == "__main__":
    # Every input check runs before torch is imported (about 2.6 s of CPU), so a bad input fails at once.
    try:
        CHECKED = check_input(parse_args())
    except InputError as e:
        print(f"grpo.py: {e}", file=sys.stderr)
        sys.exit(2)

import torch  # noqa: E402
from PIL import Image  # noqa: E402

from dpo import load_image, schedule, sha256_file, sha256_folder, write_checkpoint  # noqa: E402
from model import IMAGE_TOKENS  # noqa: E402
from onnx_weights import load_model  # noqa: E402
from package_model import write_model_folder  # noqa: E402
from train import IMAGE_START  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts", "integrations"))
from trl_reward import rlaifv_reward_sync  # noqa: E402 - the adapter a TRL user plugs in

ADV_EPS = 1e-4  # TRL's: advantages / (std + 1e-4)


# ------------------------------------------------------------------------------------------------ the GRPO math

def group_advantages(rewards: torch.Tensor, group: int, scale: bool = True) -> torch.Tensor:
    """Group-relative advantages of rewards laid out group after group; NaN (no reward) gets advantage 0 and is left
    out of its group's mean and std (torch's unbiased std, as TRL's `.std(dim=1)`)."""
    r = rewards.view(-1, group)
    ok = ~torch.isnan(r)
    n = ok.sum(1, keepdim=True)
    filled = torch.where(ok, r, torch.zeros_like(r))
    mean = filled.sum(1, keepdim=True) / n.clamp(min=1)
    var = (torch.where(ok, r - mean, torch.zeros_like(r)) ** 2).sum(1, keepdim=True) / (n - 1).clamp(min=1)
    adv = r - mean
    if scale:
        adv = adv / (var.sqrt() + ADV_EPS)
    return torch.where(ok, adv, torch.zeros_like(adv)).view(-1)


def grpo_loss(logp, old_logp, ref_logp, adv, mask, epsilon: float = 0.2, beta: float = 0.0):
    """TRL's GRPO token loss with loss_type "dapo": −min(ρA, clip(ρ, 1−ε, 1+ε)A) + β·k3, summed over the answer
    tokens (mask) and divided by their count. Returns the loss and its figures (mean k3 KL, share of clipped tokens)."""
    mask = mask.to(logp.dtype)
    ratio = torch.exp(logp - old_logp)
    a = adv[:, None]
    per_token = -torch.min(ratio * a, torch.clamp(ratio, 1 - epsilon, 1 + epsilon) * a)
    tokens = mask.sum().clamp(min=1)
    kl = torch.zeros((), dtype=logp.dtype)
    if ref_logp is not None:
        d = ref_logp - logp
        k3 = torch.exp(d) - d - 1
        kl = (k3 * mask).sum() / tokens
        if beta:
            per_token = per_token + beta * k3
    clipped = ((ratio < 1 - epsilon) & (a < 0)) | ((ratio > 1 + epsilon) & (a > 0))
    loss = (per_token * mask).sum() / tokens
    return loss, {"kl": float(kl.detach()), "clip_ratio": float((clipped.to(mask.dtype) * mask).sum() / tokens)}


# ------------------------------------------------------------------------------------------------ data and sampling

def prefill(model, pixels: torch.Tensor, prompts: list[list[int]], g: int):
    """The prompts (each with its image's features over its <image> positions), left-padded and repeated g times, run
    through the decoder once: the logits, the cache, the attention mask and each row's prompt length."""
    dec = model.decoder
    feats = model.vision(pixels)
    width, hidden = max(len(p) for p in prompts), feats.shape[-1]
    emb = torch.zeros((len(prompts), width, hidden))
    mask = torch.zeros((len(prompts), width), dtype=torch.long)
    for k, p in enumerate(prompts):
        e = dec.embed(torch.tensor(p))
        emb[k, width - len(p):] = torch.cat([e[:IMAGE_START], feats[k], e[IMAGE_START + IMAGE_TOKENS:]], 0)
        mask[k, width - len(p):] = 1
    emb, mask = emb.repeat_interleave(g, 0), mask.repeat_interleave(g, 0)
    lens = torch.tensor([len(p) for p in prompts]).repeat_interleave(g)
    logits, past = dec(emb, mask, (mask.cumsum(-1) - 1).clamp(min=0))
    return logits, past, mask, lens


@torch.no_grad()
def sample_batch(model, pixels: torch.Tensor, prompts: list[list[int]], g: int, max_new: int, gen: torch.Generator) -> list[list[int]]:
    """g answers to each prompt at temperature 1.0, all of a step's prompts × g in one batch with the KV cache (token
    ids, each up to and including </s> when it ends; prompt k's answers are rows k·g … k·g + g − 1). The prompts are
    left-padded: padding is masked out and each row's positions count its own tokens, so a row samples exactly as it
    would alone. One batch of 256 rows costs about what one of 8 did per token (the tiny model is overhead-bound).

    A row that has ended leaves the batch (its cache rows are dropped), so the decoder runs only the rows still
    writing: answers are about 20 tokens and the batch's longest 50-90, so a full batch spent most of its compute on
    ended rows. The draw still sees every row (ended rows get a one-hot on the padding token): torch draws one sample
    per row from its own probabilities and its own share of the generator's stream, so each row gets the tokens it got
    when the whole batch ran to the end."""
    dec = model.decoder
    logits, past, mask, lens = prefill(model, pixels, prompts, g)
    b = mask.shape[0]
    ended = torch.zeros((b, logits.shape[-1]))
    ended[:, PAD] = 1.0
    live = torch.arange(b)  # the batch rows the decoder still runs, in order
    steps, done = [], torch.zeros(b, dtype=torch.bool)
    for t in range(max_new):
        probs = ended.clone()
        probs[live] = logits[:, -1].softmax(-1)
        nxt = torch.multinomial(probs, 1, generator=gen)[:, 0]
        nxt = torch.where(done, torch.full_like(nxt, PAD), nxt)
        steps.append(nxt)
        done |= nxt == EOS
        if bool(done.all()):
            break
        keep = ~done[live]
        if not bool(keep.all()):
            live, mask = live[keep], mask[keep]
            past = [(k[keep], v[keep]) for k, v in past]
        mask = torch.cat([mask, torch.ones((len(live), 1), dtype=torch.long)], 1)
        logits, past = dec(dec.embed(nxt[live][:, None]), mask, (lens[live] + t)[:, None], past)
    toks = torch.stack(steps, 1).tolist()
    out = []
    for row in toks:
        ans = []
        for tok_id in row:
            ans.append(tok_id)
            if tok_id == EOS:
                break
        out.append(ans)
    return out


@torch.no_grad()
def sample_batch_plain(model, pixels: torch.Tensor, prompts: list[list[int]], g: int, max_new: int, gen: torch.Generator) -> list[list[int]]:
    """sample_batch without dropping ended rows: every row is decoded until the whole batch has ended. The reference
    sample_batch is checked against (tests/loop/grpo_batch.py) and timed against (scripts/shapes/bench_grpo_step.py)."""
    dec = model.decoder
    logits, past, mask, lens = prefill(model, pixels, prompts, g)
    b = mask.shape[0]
    steps, done = [], torch.zeros(b, dtype=torch.bool)
    for t in range(max_new):
        nxt = torch.multinomial(logits[:, -1].softmax(-1), 1, generator=gen)[:, 0]
        nxt = torch.where(done, torch.full_like(nxt, PAD), nxt)
        steps.append(nxt)
        done |= nxt == EOS
        if bool(done.all()):
            break
        mask = torch.cat([mask, torch.ones((b, 1), dtype=torch.long)], 1)
        logits, past = dec(dec.embed(nxt[:, None]), mask, (lens + t)[:, None], past)
    out = []
    for row in torch.stack(steps, 1).tolist():
        out.append(row[: row.index(EOS) + 1] if EOS in row else row)
    return out


def token_logps_plain(model, rows: list[tuple[int, list[int], list[int]]], pixels: torch.Tensor):
    """token_logps with each row run whole (its prompt and its answer, right-padded): the reference token_logps is
    checked against (tests/loop/grpo_batch.py) and timed against (scripts/shapes/bench_grpo_step.py)."""
    width = max(len(a) for _, _, a in rows)
    L = max(len(p) + len(a) for _, p, a in rows)
    ids = torch.full((len(rows), L), PAD, dtype=torch.long)
    att = torch.zeros((len(rows), L), dtype=torch.long)
    for b, (_, p, a) in enumerate(rows):
        ids[b, : len(p) + len(a)] = torch.tensor(p + a)
        att[b, : len(p) + len(a)] = 1
    logits = model.forward_train(pixels, ids, att, IMAGE_START, image_of=torch.tensor([r[0] for r in rows]))
    logp_all = torch.gather(logits[:, :-1].log_softmax(-1), 2, ids[:, 1:, None])[..., 0]
    logp = torch.zeros((len(rows), width), dtype=logp_all.dtype)
    mask = torch.zeros((len(rows), width))
    for b, (_, p, a) in enumerate(rows):
        logp[b, : len(a)] = logp_all[b, len(p) - 1: len(p) - 1 + len(a)]
        mask[b, : len(a)] = 1
    return logp, mask


def token_logps(model, rows: list[tuple[int, list[int], list[int]]], pixels: torch.Tensor):
    """Per-token log-probs of each row's answer tokens (row: image index, prompt ids, answer ids) and their mask.

    A group's answers share their prompt, so each distinct prompt of the rows (with its image) runs once, left-padded
    as the sampler runs it, and every answer continues its prompt's keys and values: the prompt is about half of a
    row's tokens, and with 8 answers per prompt most of that work was repeated. Gradients reach the shared prompt
    through the answers' attention. The same log-probs as token_logps_plain (the whole rows) up to float rounding."""
    dec = model.decoder
    image_of = torch.tensor([r[0] for r in rows])
    uniq, inv = torch.unique(image_of, return_inverse=True)
    prompt_of = {int(k): p for k, p, _ in rows}
    prompts = [prompt_of[int(k)] for k in uniq]
    feats = model.vision(pixels[uniq])
    width = max(len(p) for p in prompts)
    ids = torch.full((len(prompts), width), PAD, dtype=torch.long)
    pmask = torch.zeros((len(prompts), width), dtype=torch.long)
    for j, p in enumerate(prompts):
        ids[j, width - len(p):] = torch.tensor(p)
        pmask[j, width - len(p):] = 1
    emb = dec.embed(ids)
    # The image features over the <image> positions of each left-padded prompt (concatenation, not a masked scatter:
    # the scatter is slow under deterministic algorithms).
    parts = []
    for j, p in enumerate(prompts):
        at = width - len(p) + IMAGE_START
        parts.append(torch.cat([emb[j, :at], feats[j], emb[j, at + IMAGE_TOKENS:]], 0))
    emb = torch.stack(parts)
    plogits, past = dec(emb, pmask, (pmask.cumsum(-1) - 1).clamp(min=0))
    first = plogits[inv, -1:]  # each row's first answer token is predicted by its prompt's last position
    width_a = max(len(a) for _, _, a in rows)
    ans = torch.full((len(rows), width_a), PAD, dtype=torch.long)
    mask = torch.zeros((len(rows), width_a))
    for b, (_, _, a) in enumerate(rows):
        ans[b, : len(a)] = torch.tensor(a)
        mask[b, : len(a)] = 1
    if width_a > 1:
        lens = torch.tensor([len(prompts[int(j)]) for j in inv])
        att = torch.cat([pmask[inv], mask[:, :-1].long()], 1)
        alogits, _ = dec(dec.embed(ans[:, :-1]), att, lens[:, None] + torch.arange(width_a - 1)[None, :],
                         [(k[inv], v[inv]) for k, v in past])
        logits = torch.cat([first, alogits], 1)
    else:
        logits = first
    logp = torch.gather(logits.log_softmax(-1), 2, ans[:, :, None])[..., 0] * mask
    return logp, mask


def rewards_for(row: dict, image: Image.Image, texts: list[str], counts: dict) -> list[float]:
    """One group's rewards through the TRL adapter, exactly as GRPOTrainer calls a reward function; None → NaN."""
    conv = [{"role": "user", "content": [{"type": "image", "image": image}, {"type": "text", "text": row["question"]}]}]
    try:
        got = rlaifv_reward_sync(prompts=[conv] * len(texts), completions=[[{"role": "assistant", "content": t}] for t in texts],
                                 images=[[image]] * len(texts))
    except RuntimeError as e:  # the server answered but could not score: the group gets no advantage (logged)
        counts["errors"] += len(texts)
        print(f"grpo.py: {row['where']}: no rewards for this group ({e})", file=sys.stderr, flush=True)
        return [math.nan] * len(texts)
    counts["unscorable"] += sum(r is None for r in got)
    return [math.nan if r is None else float(r) for r in got]


def step_rewards(pool: ThreadPoolExecutor, batch: list[dict], pil: list, texts: list[list[str]], counts: dict) -> list[float]:
    """A step's rewards: one adapter call per group, all sent at once (the server gathers concurrent requests into one
    scoring batch, serve.window_ms), so a group the server cannot score costs only that group its advantages."""
    own = [{"unscorable": 0, "errors": 0} for _ in batch]  # one per thread, summed after
    futures = [pool.submit(rewards_for, r, pil[k], texts[k], own[k]) for k, r in enumerate(batch)]
    out = [x for f in futures for x in f.result()]
    for c in own:
        counts["unscorable"] += c["unscorable"]
        counts["errors"] += c["errors"]
    return out


# ------------------------------------------------------------------------------------------------ training

def train(model, ref, tok, prompts: list[dict], a, on_point) -> list[dict]:
    n_prompts = math.ceil(a.samples / a.num_generations)
    total, lr_at, opt, g = schedule(model, n_prompts, types.SimpleNamespace(batch_size=a.prompts_per_step, epochs=1, max_steps=None, lr=a.lr, seed=a.seed))
    gen = torch.Generator().manual_seed(a.seed)
    order = [int(i) for k in range(math.ceil(n_prompts / len(prompts))) for i in g.permutation(len(prompts))][:n_prompts]
    max_pos = model.decoder.pos.weight.shape[0]
    log, drawn, next_point = [], 0, a.save_every_samples
    pool = ThreadPoolExecutor(max_workers=max(1, a.prompts_per_step))
    for step in range(total):
        batch = [prompts[i] for i in order[step * a.prompts_per_step: (step + 1) * a.prompts_per_step]]
        pil = [Image.open(r["image"]).convert("RGB") for r in batch]
        pixels = torch.stack([load_image(r["image"], r["where"]) for r in batch])
        model.eval()
        t0 = time.perf_counter()
        counts = {"unscorable": 0, "errors": 0}
        answers = sample_batch(model, pixels, [r["ids"] for r in batch], a.num_generations,
                               min(a.max_new_tokens, max_pos - max(len(r["ids"]) for r in batch)), gen)
        t1 = time.perf_counter()
        texts = [[tok.decode([t for t in ans if t != EOS]) for ans in answers[k * a.num_generations: (k + 1) * a.num_generations]] for k in range(len(batch))]
        rewards = step_rewards(pool, batch, pil, texts, counts)
        t2 = time.perf_counter()
        rows = [(k, r["ids"], ans) for k, r in enumerate(batch) for ans in answers[k * a.num_generations: (k + 1) * a.num_generations]]
        rw = torch.tensor(rewards, dtype=torch.float32)
        adv = group_advantages(rw, a.num_generations)
        model.train()
        # Micro-batches of rows of similar length (sorted): padding to the longest answer of 256 rows cost ~40% of
        # the forward. The loss is the step's token sum over all its answer tokens, so chunks are weighted by tokens.
        order_by_len = sorted(range(len(rows)), key=lambda i: len(rows[i][1]) + len(rows[i][2]))
        chunks = [order_by_len[i: i + a.micro_batch] for i in range(0, len(rows), a.micro_batch)]
        tokens = sum(len(r[2]) for r in rows)
        with torch.no_grad():
            ref_lp = [token_logps(ref, [rows[i] for i in c], pixels)[0] if ref is not None else None for c in chunks]
            # TRL: with one update per batch the old policy is the current one (ratio 1), no extra forward.
            old = [token_logps(model, [rows[i] for i in c], pixels)[0] for c in chunks] if a.num_iterations > 1 else None
        for pg in opt.param_groups:
            pg["lr"] = lr_at(step)
        for _ in range(a.num_iterations):
            opt.zero_grad(set_to_none=True)
            loss, figs = 0.0, {"kl": 0.0, "clip_ratio": 0.0}
            for j, c in enumerate(chunks):
                logp, mask = token_logps(model, [rows[i] for i in c], pixels)
                w = float(mask.sum()) / tokens
                part, f = grpo_loss(logp, old[j] if old is not None else logp.detach(), ref_lp[j], adv[torch.tensor(c)], mask, a.epsilon, a.beta)
                (part * w).backward()
                loss += float(part) * w
                figs = {k: figs[k] + f[k] * w for k in figs}
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
        drawn += len(rows)
        ok = rw[~torch.isnan(rw)]
        log.append({"step": step + 1, "samples": drawn, "lr": lr_at(step), "loss": round(float(loss), 6), "kl": round(figs["kl"], 6),
                    "clip_ratio": round(figs["clip_ratio"], 6), "reward_mean": round(float(ok.mean()), 6) if len(ok) else None,
                    "reward_std": round(float(ok.std()), 6) if len(ok) > 1 else None, "scored": len(ok), **counts,
                    "answer_tokens": round(tokens / len(rows), 3),
                    "seconds": {"sample": round(t1 - t0, 3), "reward": round(t2 - t1, 3), "update": round(time.perf_counter() - t2, 3)}})
        print(f"step {step + 1}/{total}: {drawn} samples, reward {log[-1]['reward_mean']}, loss {log[-1]['loss']:.4f}, kl {log[-1]['kl']:.4f}"
              f" ({counts['unscorable']} unscorable, {counts['errors']} errors; sample {t1 - t0:.1f}s, reward {t2 - t1:.1f}s,"
              f" update {log[-1]['seconds']['update']:.1f}s)", file=sys.stderr, flush=True)
        if next_point and drawn >= next_point and step + 1 < total:
            on_point(drawn)
            next_point += a.save_every_samples
    model.eval()
    return log


def card(info: dict) -> str:
    hp, s = info["hyperparameters"], info["summary"]
    return f"""# {info['name']}

The shapes policy after online GRPO with `scripts/shapes/grpo.py` (rlaifv's stand-in for TRL's GRPOTrainer), rewards
from `rlaifv serve` through `scripts/integrations/trl_reward.py`. Same architecture, tokenizer, ONNX interface and
configs as its parent; rlaifv uses it as a local policy (`--policy` this folder).

| | |
|---|---|
| parent checkpoint | `{info['parent']['path']}` |
| parent SHA-256 (over its files) | `{info['parent']['sha256']}` |
| reference model | `{info['reference']['path'] if info['reference'] else 'none (β 0)'}` |
| prompts file | `{info['prompts']['path']}` (SHA-256 `{info['prompts']['sha256']}`) |
| reward server | `{info['reward_server']}` |
| samples | {s['samples']} ({hp['num_generations']} per prompt, temperature 1.0), {s['scored']} scored, {s['unscorable']} unscorable, {s['errors']} errors |
| loss | GRPO (TRL's defaults: group-scaled advantages, ε {hp['epsilon']}, loss_type dapo), β {hp['beta']} × k3 KL, {hp['num_iterations']} update(s) per batch |
| optimiser | AdamW, lr {hp['lr']}, weight decay 0, linear warm-up over 10% of the steps then linear decay, gradient clip 1.0 |
| steps, prompts per step | {info['steps']}, {hp['prompts_per_step']} |
| mean reward, first step → last | {s['reward_first']} → {s['reward_last']} |
| seed, threads | {hp['seed']}, {hp['threads']} |
| torch | {info['torch']} |

`train.json` holds the same with the per-step log (rewards, loss, KL, clipped share, answer length).
"""


def main(c: types.SimpleNamespace) -> int:
    a, out, policy, ref_dir, prompts = c.args, c.out, c.policy, c.ref_dir, c.prompts
    t0 = time.time()
    torch.set_num_threads(a.threads)
    torch.use_deterministic_algorithms(True)
    torch.manual_seed(a.seed)
    model, tok, build = load_model(policy)
    ref = load_model(ref_dir)[0] if a.beta else None
    snapshots = []
    log = train(model, ref, tok, prompts, a, lambda n: snapshots.append((n, {k: v.detach().clone() for k, v in model.state_dict().items()})))
    scored = sum(s["scored"] for s in log)
    if scored == 0:
        print(f"grpo.py: no answer got a reward from {os.environ.get('RLAIFV_URL')} in {len(log)} steps; nothing was learnt", file=sys.stderr)
        return 1
    hp = {k: getattr(a, k) for k in ("num_generations", "prompts_per_step", "beta", "epsilon", "num_iterations", "lr", "max_new_tokens", "seed", "threads")}
    hp["loss_type"], hp["scale_rewards"], hp["temperature"] = "dapo", "group", 1.0
    parent_sha, prompts_sha = sha256_folder(policy), sha256_file(a.prompts)
    rewarded = [s["reward_mean"] for s in log if s["reward_mean"] is not None]
    info = {
        "name": f"rlaifv/shapes-policy-grpo-{hashlib.sha256(json.dumps([parent_sha, prompts_sha, a.samples, hp]).encode()).hexdigest()[:12]}",
        "parent": {"path": policy, "sha256": parent_sha},
        "reference": {"path": ref_dir} if ref is not None else None,
        "prompts": {"path": os.path.abspath(a.prompts), "sha256": prompts_sha},
        "reward_server": os.environ.get("RLAIFV_URL", "http://127.0.0.1:8100"),
        "hyperparameters": hp,
        "steps": len(log),
        "summary": {"samples": log[-1]["samples"], "scored": scored, "unscorable": sum(s["unscorable"] for s in log),
                    "errors": sum(s["errors"] for s in log), "reward_first": rewarded[0], "reward_last": rewarded[-1]},
        "log": log,
        "torch": torch.__version__,
    }

    def points(tmp: str) -> None:
        final = {k: v.detach().clone() for k, v in model.state_dict().items()}
        for n, state in snapshots:
            model.load_state_dict(state)
            sub = os.path.join(tmp, f"checkpoint-{n}")
            write_model_folder(model, tok, sub, f"{info['name']}-{n}", parent=policy)
            with open(os.path.join(sub, "build.json"), "w") as f:
                json.dump({**build, "grpo": {"parent": info["parent"], "hyperparameters": hp, "samples": n}}, f, indent=2)
        model.load_state_dict(final)

    write_checkpoint(out, model, tok, info, {**build, "grpo": {"parent": info["parent"], "hyperparameters": hp, "samples": log[-1]["samples"]}}, card(info), points)
    if a.log:
        with open(a.log, "w") as f:
            json.dump(log, f, indent=2)
    secs = time.time() - t0
    print(f"wrote {out} ({len(log)} steps, {log[-1]['samples']} samples, {secs:.1f}s)", file=sys.stderr, flush=True)
    if a.json:
        print(json.dumps({"out": out, "steps": len(log), "seconds": round(secs, 2), **info["summary"]}))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(CHECKED))
    except InputError as e:
        print(f"grpo.py: {e}", file=sys.stderr)
        sys.exit(2)
