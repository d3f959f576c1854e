"""Training of the two tiny models on examples drawn from the shapes world."""
from __future__ import annotations

import math
import time

import numpy as np
import torch
import torch.nn.functional as F

import world as w
from model import IMAGE_TOKENS, TinyLlava
from tokenizer import EOS, IMAGE, PAD, Tokenizer, prompt_text

MEAN, STD = 0.5, 0.5
IMAGE_START = 2  # "USER", ":" come before the image tokens


def to_pixels(imgs: np.ndarray) -> torch.Tensor:
    """uint8 [N, 64, 64, 3] -> normalised float [N, 3, 64, 64], exactly as the CLIP image processor does."""
    x = torch.from_numpy(imgs).permute(0, 3, 1, 2).float() / 255.0
    return (x - MEAN) / STD


def cell_labels(objs: list[w.Obj]) -> np.ndarray:
    """Per grid cell: shape (0 = empty), colour (0 = none), size (0 = none)."""
    lab = np.zeros((9, 3), dtype=np.int64)
    for o in objs:
        c = w.POSITIONS.index(o.position)
        lab[c] = (1 + w.SHAPES.index(o.shape), 1 + w.COLOR_NAMES.index(o.color), 1 + w.SIZES.index(o.size))
    return lab


def render_pool(n: int, seed: int) -> tuple[np.ndarray, list[list[w.Obj]]]:
    rng = np.random.default_rng(seed)
    imgs = np.zeros((n, 64, 64, 3), dtype=np.uint8)
    objs = []
    for i in range(n):
        o = w.sample_objects(rng)
        imgs[i] = np.asarray(w.render(o, rng))
        objs.append(o)
    return imgs, objs


def aux_loss(model, cells: torch.Tensor) -> torch.Tensor:
    """Cross-entropy of the vision probe against the cells' truth: direct signal for the image encoder."""
    out = model.vision.aux(model.vision.last_cells)            # [B, 9, 15]
    return (F.cross_entropy(out[..., :5].reshape(-1, 5), cells[..., 0].reshape(-1))
            + F.cross_entropy(out[..., 5:12].reshape(-1, 7), cells[..., 1].reshape(-1))
            + F.cross_entropy(out[..., 12:].reshape(-1, 3), cells[..., 2].reshape(-1)))


def encode_example(tok: Tokenizer, question: str, answer: str) -> tuple[list[int], int]:
    """Token ids of prompt + answer + </s>, and where the answer starts."""
    p = tok.encode(prompt_text(question).replace("<image>", "<image>" * IMAGE_TOKENS))
    a = tok.encode(" " + answer) + [EOS]
    return p + a, len(p)


def labeler_examples(tok, objs, per_image: int, seed: int, describe: int = 2, forms=None):
    """Per image: `describe` truthful answers to instructions (dense grounding signal, as LLaVA mixes captions
    into its data) and per_image - describe balanced yes/no questions."""
    rng = np.random.default_rng(seed)
    # The policy says "There are two shapes in the image.", so the divider asks "Are there two shapes in the image?":
    # half of the whole-image count questions get that wording (their own RNG, so the main stream is unchanged).
    wording = np.random.default_rng(seed + 7919)
    out = []
    for i, o in enumerate(objs):
        for j in range(describe):
            kind = ["detailed", "listing", "counting", "attribute", "position"][int(rng.choice(5, p=[0.4, 0.15, 0.15, 0.15, 0.15]))]
            q, target = w.make_instruction(o, kind, rng)
            ids, start = encode_example(tok, q, w.answer(o, target))
            out.append((i, ids, start))
        for j in range(per_image - describe):
            want = (j % 2 == 0)
            for _ in range(200):  # balance yes and no (and keep only the curriculum stage's forms)
                q, ans, form = w.make_question(o, rng)
                if ans == want and (forms is None or form.split("_not")[0] in forms):
                    break
            if form == "count" and q in COUNT_ALL and wording.random() < 0.5:
                q = q[:-1] + " in the image?"
            ids, start = encode_example(tok, q + " Please answer yes or no.", "Yes." if ans else "No.")
            out.append((i, ids, start))
    return out


# Whole-image count questions as make_question words them ("Is there one shape?", "Are there two shapes?", ...).
COUNT_ALL = {"Is there one shape?"} | {f"Are there {n} shapes?" for n in w.NUMBERS[2:5]}


def simple_examples(tok, objs, per_image: int, seed: int):
    """Curriculum warm-up: one-attribute existence questions ("Is there a red shape?", "Is there a star?",
    "Is there a shape in the top left?"), balanced. A small decoder learns to look cells up on these within a few
    hundred steps, while on the full mix of forms it stays at chance for thousands."""
    rng = np.random.default_rng(seed)
    out = []
    for i, o in enumerate(objs):
        for j in range(per_image):
            want = j % 2 == 0
            for _ in range(50):
                attr = ["shape", "color", "size", "position"][int(rng.integers(4))]
                pool = {"shape": w.SHAPES, "color": w.COLOR_NAMES, "size": w.SIZES, "position": w.POSITIONS}[attr]
                v = pool[int(rng.integers(len(pool)))]
                ans = w.count(o, **{attr: v}) > 0
                if ans == want:
                    break
            d = {attr: v}
            p = w.np_phrase(d)
            q = f"Is there {w.article(p)} {p}? Please answer yes or no."
            ids, start = encode_example(tok, q, "Yes." if ans else "No.")
            out.append((i, ids, start))
    return out


def policy_examples(tok, objs, per_image: int, seed: int, noise: float):
    rng = np.random.default_rng(seed)
    out = []
    for i, o in enumerate(objs):
        for _ in range(per_image):
            kind = w.KINDS[int(rng.choice(5, p=[0.4, 0.15, 0.15, 0.15, 0.15]))]
            q, target = w.make_instruction(o, kind, rng)
            seen = w.perceive(o, rng, noise) if rng.random() < 0.85 else o
            ids, start = encode_example(tok, q, w.answer(seen, target))
            out.append((i, ids, start))
    return out


# ---------------------------------------------------------------- circuit probes (labeler)
#
# A 3-layer decoder answers "Is there a large red circle?" only by composing two lookups: the answer position
# must first gather the question's words, then use them as a query against the nine cell tokens. From a random
# start the gradient reaches neither attention pattern (the final loss depends on them only through each other),
# so the decoder sits at chance for thousands of steps and learns per-form priors instead. Linear probes on the
# residual stream at the answer position give each stage its own signal: after block 1 the parsed question
# (form, described attributes, asked value, number), after block 2 the result of the lookup (which cells match,
# how many, the attributes of the one that does). The probes are training-only; nothing of them is exported.

FORMS = ["exists", "not_exists", "count", "attribute", "attribute_not", "position", "position_not"]
Q_HEADS = [("form", 7), ("d_shape", 5), ("d_color", 7), ("d_size", 3), ("d_pos", 10),
           ("a_color", 7), ("a_size", 3), ("a_pos", 10), ("number", 5)]
M_HEADS = [("n_match", 5), ("r_color", 7), ("r_size", 3), ("r_pos", 10)]


def _np_attrs(ws: list[str]) -> dict:
    d: dict = {}
    for k, x in enumerate(ws):
        if x in w.SIZES:
            d["size"] = x
        elif x in w.COLOR_NAMES:
            d["color"] = x
        elif x in w.SHAPES or (x.endswith("s") and x[:-1] in w.SHAPES):
            d["shape"] = x if x in w.SHAPES else x[:-1]
        elif x == "in":
            d["position"] = " ".join(ws[k + 2:])
            break
    return d


def parse_question(ws: list[str]) -> dict | None:
    """The structure of a yes/no question of the world's language (make_question), from its words."""
    ws = [x for x in ws if x != "?"]
    if ws[-3:] == ["in", "the", "image"]:  # "Are there two shapes in the image?" asks what "Are there two shapes?" does
        ws = ws[:-3]
    q: dict = {"desc": {}, "asked": {}, "number": 0}
    if ws[:2] in (["Is", "there"], ["Are", "there"]):
        if ws[2] == "no":
            q["form"] = "not_exists"
        elif ws[2] in w.NUMBERS:
            q["form"], q["number"] = "count", w.NUMBERS.index(ws[2])
        else:
            q["form"] = "exists"
        q["desc"] = _np_attrs(ws[3:])
    elif ws[:2] == ["Is", "the"]:
        rest = ws[2:]
        neg = "not" in rest
        rest = [x for x in rest if x != "not"]
        if "in" in rest:
            k = rest.index("in")
            q["desc"], q["asked"] = _np_attrs(rest[:k]), {"position": " ".join(rest[k + 2:])}
            q["form"] = "position_not" if neg else "position"
        else:
            v = rest[-1]
            q["desc"], q["asked"] = _np_attrs(rest[:-1]), {("color" if v in w.COLOR_NAMES else "size"): v}
            q["form"] = "attribute_not" if neg else "attribute"
    else:
        return None
    return q


def _idx(pool, v) -> int:
    return 0 if v is None else 1 + pool.index(v)


def circuit_targets(q: dict, lab: np.ndarray) -> tuple[list[int], list[int], np.ndarray]:
    d, a = q["desc"], q["asked"]
    qt = [FORMS.index(q["form"]), _idx(w.SHAPES, d.get("shape")), _idx(w.COLOR_NAMES, d.get("color")),
          _idx(w.SIZES, d.get("size")), _idx(w.POSITIONS, d.get("position")), _idx(w.COLOR_NAMES, a.get("color")),
          _idx(w.SIZES, a.get("size")), _idx(w.POSITIONS, a.get("position")), q["number"]]
    match = np.array([lab[j, 0] > 0 and qt[1] in (0, lab[j, 0]) and qt[2] in (0, lab[j, 1]) and qt[3] in (0, lab[j, 2])
                      and qt[4] in (0, j + 1) for j in range(9)], dtype=np.float32)
    n = int(match.sum())
    if n == 0:
        mt = [0, 0, 0, 0]
    elif n == 1:
        j = int(match.argmax())
        mt = [1, int(lab[j, 1]), int(lab[j, 2]), j + 1]
    else:
        mt = [min(n, 4), -100, -100, -100]
    return qt, mt, match


class CircuitProbes(torch.nn.Module):
    def __init__(self, hidden: int, tok: Tokenizer):
        super().__init__()
        self.q = torch.nn.Linear(hidden, sum(n for _, n in Q_HEADS))
        self.m = torch.nn.Linear(hidden, sum(n for _, n in M_HEADS) + 9)
        self.tok = tok
        self.please = tok.stoi["Please"]
        self.cache: dict = {}

    def parse(self, seq: list[int]):
        key = tuple(seq)
        if key not in self.cache:
            end = seq.index(self.please) if self.please in seq else -1
            self.cache[key] = parse_question([self.tok.itos[t] for t in seq[IMAGE_START + IMAGE_TOKENS:end]]) if end > 0 else None
        return self.cache[key]

    def loss(self, model, rows, cells_per_row: torch.Tensor) -> torch.Tensor:
        h1, h2 = model.decoder.hidden[0], model.decoder.hidden[1]
        sel, qts, mts, matches = [], [], [], []
        for b, (_img, seq, start) in enumerate(rows):
            q = self.parse(seq[:start])
            if q is None:
                continue
            qt, mt, match = circuit_targets(q, cells_per_row[b].numpy())
            sel.append((b, start - 1))
            qts.append(qt)
            mts.append(mt)
            matches.append(match)
        if not sel:
            return torch.zeros(())
        bi = torch.tensor([s[0] for s in sel])
        pi = torch.tensor([s[1] for s in sel])
        oq, om = self.q(h1[bi, pi]), self.m(h2[bi, pi])
        qts, mts = torch.tensor(qts), torch.tensor(mts)
        losses, o = [], 0
        for k, (_name, n) in enumerate(Q_HEADS):
            losses.append(F.cross_entropy(oq[:, o:o + n], qts[:, k]))
            o += n
        o = 0
        for k, (_name, n) in enumerate(M_HEADS):
            if (mts[:, k] >= 0).any():
                losses.append(F.cross_entropy(om[:, o:o + n], mts[:, k], ignore_index=-100))
            o += n
        losses.append(F.binary_cross_entropy_with_logits(om[:, o:], torch.from_numpy(np.stack(matches))) * 9 / 2)
        return torch.stack(losses).mean()


def batch(examples, idx, pixels):
    rows = [examples[k] for k in idx]
    L = max(len(r[1]) for r in rows)
    ids = torch.full((len(rows), L), PAD, dtype=torch.long)
    mask = torch.zeros((len(rows), L), dtype=torch.long)
    loss_mask = torch.zeros((len(rows), L), dtype=torch.bool)
    for b, (_img, seq, start) in enumerate(rows):
        ids[b, :len(seq)] = torch.tensor(seq)
        mask[b, :len(seq)] = 1
        loss_mask[b, start:len(seq)] = True  # predict answer tokens (targets are shifted below)
    img = pixels[torch.tensor([r[0] for r in rows])]
    return img, ids, mask, loss_mask


def train(model: TinyLlava, examples, pixels: torch.Tensor, steps: int, bs: int, lr: float, seed: int,
          cells: torch.Tensor, per_image: int, group: int, log=print, probe=None, warmup=None,
          circuit: "CircuitProbes | None" = None, circuit_weight: float = 1.0, first_token_only: bool = False) -> None:
    """AdamW with warmup and cosine decay. Each batch holds bs/group images with `group` examples each, so the
    vision tower runs once per image (examples are stored image by image, per_image each)."""
    g = np.random.default_rng(seed)
    n_images = len(examples) // per_image
    params = list(model.parameters()) + (list(circuit.parameters()) if circuit is not None else [])
    opt = torch.optim.AdamW(params, lr=lr, weight_decay=0.01, betas=(0.9, 0.98))
    warm = max(1, steps // 20)
    model.train()
    t0 = time.time()
    run = 0.0
    for step in range(steps):
        f = (step + 1) / warm if step < warm else 0.5 * (1 + math.cos(math.pi * (step - warm) / (steps - warm)))
        for pg in opt.param_groups:
            pg["lr"] = lr * max(f, 0.02)
        ims = g.choice(n_images, size=bs // group, replace=False)
        idx = (ims[:, None] * per_image + np.stack([g.choice(per_image, size=group, replace=False) for _ in ims])).reshape(-1)
        exs = examples
        # Curriculum: earlier phases use simpler questions, in the same layout (per_image examples per image).
        for phase_examples, until in (warmup or []):
            if step < until:
                exs = phase_examples
                break
        _img, ids, mask, lmask = batch(exs, idx, pixels)
        logits = model.forward_train(pixels[torch.from_numpy(ims)], ids, mask, IMAGE_START, repeat=group)
        tgt = ids[:, 1:]
        sel = lmask[:, 1:]
        # Mean over each example's answer tokens, then over examples: a one-token "Yes." weighs as much as a
        # 45-token description (a plain token mean left the yes/no answers with ~7% of the gradient).
        if first_token_only:  # yes/no data: only the answer's first token carries information
            sel = sel & ~torch.cat([torch.zeros_like(sel[:, :1]), sel[:, :-1]], 1)
        tok_loss = F.cross_entropy(logits[:, :-1].transpose(1, 2), tgt, reduction="none") * sel
        lm = (tok_loss.sum(1) / sel.sum(1).clamp(min=1)).mean()
        aux = aux_loss(model, cells[torch.from_numpy(ims)])
        loss = lm + 0.5 * aux
        if circuit is not None:
            rows = [exs[k] for k in idx]
            closs = circuit.loss(model, rows, cells[torch.from_numpy(ims)].repeat_interleave(group, 0))
            loss = loss + circuit_weight * closs
            run_c = closs.item() if step == 0 else 0.98 * run_c + 0.02 * closs.item()
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        run = lm.item() if step == 0 else 0.98 * run + 0.02 * lm.item()
        run_aux = aux.item() if step == 0 else 0.98 * run_aux + 0.02 * aux.item()
        if step % 50 == 0 or step == steps - 1:
            extra = ""
            if probe is not None and step % 250 == 0 and step > 0:
                model.eval()
                extra = " " + probe(model)
                model.train()
            if circuit is not None:
                extra = f" circuit {run_c:.4f}" + extra
            log(f"  step {step:5d}/{steps} lm loss {run:.4f} aux {run_aux:.4f} ({time.time() - t0:.0f}s){extra}")
    model.eval()


@torch.no_grad()
def yes_no_probs(model, tok, pixels, questions: list[str], bs: int = 256) -> np.ndarray:
    """p_yes, p_no at the first answer position (full-vocabulary softmax), for each (image, question)."""
    yes = [tok.stoi[t] for t in ("Yes", "yes")]
    no = [tok.stoi[t] for t in ("No", "no")]
    out = []
    for s in range(0, len(questions), bs):
        chunk = questions[s:s + bs]
        seqs = [tok.encode(prompt_text(q).replace("<image>", "<image>" * IMAGE_TOKENS)) for q in chunk]
        L = max(len(x) for x in seqs)
        ids = torch.full((len(seqs), L), PAD, dtype=torch.long)
        mask = torch.zeros_like(ids)
        for b, x in enumerate(seqs):  # left padding, as at inference
            ids[b, L - len(x):] = torch.tensor(x)
            mask[b, L - len(x):] = 1
        logits = model(pixels[s:s + bs], ids, mask, IMAGE)[:, -1]
        p = logits.softmax(-1)
        out.append(torch.stack([p[:, yes].sum(-1), p[:, no].sum(-1)], -1).numpy())
    return np.concatenate(out)
