"""FIRE-style feedback dialogues for models/shapes-policy-fire: the teacher's turn and the student's prompt exactly as
`rlaifv eval --policy P --feedback …` renders them (src/feedback/teacher.ts, src/eval/correction.ts), ported to Python
for the world's own sentences, and the training examples made of them.

The port covers what the policy writes: the world's answers (world.answer) divided as the rules divider divides them
(one claim per sentence, one per item of a list), judged as the truth provider judges them (the shapes checker; a claim
it cannot judge is false), and corrected as teacher.ts's correctionOf words it. `python3 scripts/shapes/fire.py
--check` compares the Python turns with the TypeScript ones (scripts/shapes/teacher-turns.ts) on generated cases;
tests/eval/fire-port.test.ts does the same on the committed fixture tests/fixtures/fire-teacher-turns.jsonl.
"""
from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys

import numpy as np

import world as w
from model import IMAGE_TOKENS
from tokenizer import EOS, Tokenizer

ASK_AGAIN = "Based on the feedback, answer the question again:"
SIMPLE_WRONG = "Your answer has errors."
SAID_CORRECT = "Your answer is correct."
NO_CLAIMS = "Your answer does not answer the question."
LEVELS = ["simple", "detailed"]

_NUM = "(one|two|three|four)"
_SHAPE = "(?:" + "|".join(w.SHAPES + ["shape"]) + ")"


# ---------------------------------------------------------------- division and the truth's verdicts

def divide(answer: str) -> list[str]:
    """The rules divider's claims of a world answer: one per sentence, one per item of a list ("There is a red
    circle, a blue star and a green square." -> "There is a red circle.", "There is a blue star.", ...)."""
    out = []
    for s in re.split(r"(?<=\.)\s+", answer.strip()):
        if not s:
            continue
        m = re.fullmatch(r"There is (.+)\.", s)
        if m and (", " in m.group(1) or " and " in m.group(1)):
            out += [f"There is {x}." for x in re.split(r", | and ", m.group(1))]
        else:
            out.append(s)
    return out


def _desc(words: str) -> dict | None:
    """'large red circle in the top left' -> {size, color, shape, position}; plural shapes allowed; None if not one."""
    pos = None
    m = re.fullmatch(r"(.+) in the (.+)", words)
    if m:
        words, pos = m.group(1), m.group(2)
        if pos not in w.POSITIONS:
            return None
    ws = words.split(" ")
    d: dict = {}
    if ws and ws[0] in w.SIZES:
        d["size"] = ws.pop(0)
    if ws and ws[0] in w.COLOR_NAMES:
        d["color"] = ws.pop(0)
    if len(ws) != 1:
        return None
    s = ws[0][:-1] if ws[0].endswith("s") else ws[0]
    if s not in w.SHAPES + ["shape"]:
        return None
    if s != "shape":
        d["shape"] = s
    if pos:
        d["position"] = pos
    return d


def verdict(objs: list[w.Obj], claim: str) -> str:
    """The truth provider's verdict on a claim of the world's language: 'true' or 'false' (the checker's unknown,
    an ambiguous or missing referent, counts as false)."""
    m = re.fullmatch(rf"There (?:is|are) {_NUM} (.+?)(?: in the image)?\.", claim)
    if m:
        d = _desc(m.group(2))
        return "true" if d is not None and w.count(objs, **d) == w.NUMBERS.index(m.group(1)) else "false"
    m = re.fullmatch(r"There (?:is|are) no (.+)\.", claim)
    if m:
        d = _desc(m.group(1))
        return "true" if d is not None and w.count(objs, **d) == 0 else "false"
    m = re.fullmatch(r"There is an? (.+)\.", claim)
    if m:
        d = _desc(m.group(1))
        return "true" if d is not None and w.count(objs, **d) > 0 else "false"
    m = re.fullmatch(r"The (.+) is (?:in the (.+)|(\w+))\.", claim)
    if m:
        d = _desc(m.group(1))
        if d is None or "position" in d or w.count(objs, **d) != 1:
            return "false"
        o = next(o for o in objs if w.matches(o, **d))
        if m.group(2) is not None:
            return "true" if o.position == m.group(2) else "false"
        v = m.group(3)
        return "true" if v in (o.color, o.size) else "false"
    return "false"


# ---------------------------------------------------------------- the teacher (src/feedback/teacher.ts)

def _lower_first(s: str) -> str:
    return s[:1].lower() + s[1:]


def correction_of(claim: str) -> str:
    """teacher.ts correctionOf for the world's sentences: existence flipped, a count denied, a predicate denied."""
    m = re.fullmatch(rf"There (is|are) {_NUM} (.+?)(?: in the image)?\.", claim)
    if m:
        return f"There {m.group(1)} not {m.group(2)} {m.group(3)}."
    m = re.fullmatch(r"There (?:is|are) no (.+)\.", claim)
    if m and _desc(m.group(1)) is not None:
        d = _desc(m.group(1))
        p = w.np_phrase(d)
        return f"There is {w.article(p)} {p}."
    m = re.fullmatch(r"There is an? (.+)\.", claim)
    if m and _desc(m.group(1)) is not None:
        return f"There is no {m.group(1)}."
    m = re.fullmatch(r"The (.+) is (not )?(in the .+|\w+)\.", claim)
    if m and _desc(m.group(1)) is not None:
        return f"The {m.group(1)} is {'' if m.group(2) else 'not '}{m.group(3)}."
    return f"It is not true that {_lower_first(re.sub(r'[.!?]+$', '', claim.strip()))}."


def score_of(verdicts: list[str | None]) -> int:
    if not verdicts:
        return 0
    judged = sum(v is not None for v in verdicts)
    falses = sum(v == "false" for v in verdicts)
    return 10 if judged == 0 else math.floor(10 * (1 - falses / judged) + 0.5)  # JavaScript's Math.round


def teacher_turn(level: str, claims: list[str], verdicts: list[str | None]) -> str:
    wrong = [c for c, v in zip(claims, verdicts) if v == "false"]
    if level == "simple":
        return f"Feedback: {SIMPLE_WRONG if wrong or not claims else SAID_CORRECT}"
    said = list(dict.fromkeys(correction_of(c) for c in wrong))
    body = " ".join(said) if said else (NO_CLAIMS if not claims else SAID_CORRECT)
    return f"Score: {score_of(verdicts)}\nFeedback: {body}"


def truth_turn(level: str, objs: list[w.Obj], answer: str) -> tuple[str, bool]:
    """The truth provider's turn on an answer, and whether the answer is wrong (a claim not true)."""
    claims = divide(answer)
    v = [verdict(objs, c) for c in claims]
    return teacher_turn(level, claims, v), "false" in v


def conversation_text(question: str, answers: list[str], teacher: list[str]) -> str:
    """What the policy's chat template renders for studentPrompt(question, answers, teacher) with the image in the
    first user turn, ending with the generation prompt."""
    s = f"USER: <image>\n{question} "
    for a, t in zip(answers, teacher):
        s += f"ASSISTANT: {a}</s> USER: {t}\n{ASK_AGAIN} "
    return s + "ASSISTANT:"


def encode(tok: Tokenizer, text: str) -> list[int]:
    """Token ids as transformers.js makes them: '</s>' and '<image>' are added tokens, matched before the words."""
    ids: list[int] = []
    for k, part in enumerate(text.split("</s>")):
        if k:
            ids.append(EOS)
        ids += tok.encode(part.replace("<image>", "<image>" * IMAGE_TOKENS))
    return ids


# ---------------------------------------------------------------- training dialogues

def wrong_answer(objs, target, rng, noise: float, avoid: set[str], tries: int = 60) -> str | None:
    """An answer from a misperception of the image with at least one false claim and none of `avoid` (claims the
    teacher already corrected); None when none turns up."""
    for _ in range(tries):
        a = w.answer(w.perceive(objs, rng, noise), target)
        claims = divide(a)
        v = [verdict(objs, c) for c in claims]
        if "false" in v and not (avoid & {c for c, x in zip(claims, v) if x == "false"}):
            return a
    return None


def dialogue(objs, rng, hp: dict, q: str, target: dict, first: str | None) -> tuple[str, str, str, str, int] | None:
    """One FIRE conversation about an image: the instruction, a wrong first answer (`first`, the base policy's own
    when it gave a wrong one; else one from a misperception), the truth's teacher turn, then (1, 2 or 3 turns with
    probabilities hp['turns']) revisions still partly wrong, each with its teacher turn, and the truthful answer the
    model learns to give. Returns (prompt text, the answer, level, kind, turns)."""
    level = "detailed" if rng.random() < hp["detailed_share"] else "simple"
    turns = 1 + int(rng.choice(3, p=hp["turns"]))
    answers, teacher, said_false = [], [], set()
    for t in range(turns):
        a = first if t == 0 and first is not None else \
            wrong_answer(objs, target, rng, hp["first_noise"] if t == 0 else hp["revision_noise"], said_false)
        if a is None:
            if t == 0:
                return None
            break
        claims = divide(a)
        v = [verdict(objs, c) for c in claims]
        said_false |= {c for c, x in zip(claims, v) if x == "false"}
        answers.append(a)
        teacher.append(teacher_turn(level, claims, v))
    return conversation_text(q, answers, teacher), revision_target(objs, target, answers[-1], level, hp), level, target["kind"], len(answers)


def revision_target(objs, target, last: str, level: str, hp: dict) -> str:
    """What the student learns to answer after the teacher's turn. hp['target'] 'truth': the truthful answer, written
    anew. 'edit' (the default): after detailed feedback, the last answer with the claims the teacher named taken out
    and every other claim kept word for word (a list sentence keeps its true items), so the student learns to act on
    what it was told and not to re-describe the image (which repeats its misperceptions); when nothing true is left
    (a wrong count, a wrong position), the truthful answer. After simple feedback (no claim named) the truthful answer."""
    truthful = w.answer(objs, target)
    if hp.get("target", "edit") != "edit" or level != "detailed":
        return truthful
    kept = []
    for s in re.split(r"(?<=\.)\s+", last.strip()):
        if not s:
            continue
        claims = divide(s)
        v = [verdict(objs, c) for c in claims]
        if all(x == "true" for x in v):
            kept.append(s)
        elif len(claims) > 1:
            kept += [c for c, x in zip(claims, v) if x == "true"]
    return " ".join(kept) if kept else truthful


def generate(m, tok: Tokenizer, pixels, questions: list[str], temperature: float, seed: int, bs: int = 500,
             max_new: int = 64) -> list[str]:
    """Answers of a model to one question per image (left-padded batches, the decoder's key/value cache), greedy at
    temperature 0, else sampled from a seeded generator: what the model says, in Python, for the training data."""
    import torch
    from tokenizer import IMAGE, PAD, prompt_text
    g = torch.Generator().manual_seed(seed)
    # Batches of one answer length (descriptions are long): a batch stops at its longest answer.
    order = sorted(range(len(questions)), key=lambda i: (questions[i] in DESCRIBE, i))
    questions, pixels = [questions[i] for i in order], pixels[torch.tensor(order)]
    out = []
    with torch.no_grad():
        for s in range(0, len(questions), bs):
            seqs = [tok.encode(prompt_text(q).replace("<image>", "<image>" * IMAGE_TOKENS)) for q in questions[s:s + bs]]
            L = max(len(x) for x in seqs)
            ids = torch.full((len(seqs), L), PAD, dtype=torch.long)
            mask = torch.zeros_like(ids)
            for b, x in enumerate(seqs):
                ids[b, L - len(x):] = torch.tensor(x)
                mask[b, L - len(x):] = 1
            emb = m.merged_embeds(pixels[s:s + bs], ids, IMAGE)
            pos = (mask.cumsum(-1) - 1).clamp(min=0)
            logits, past = m.decoder(emb, mask, pos)
            done = torch.zeros(len(seqs), dtype=torch.bool)
            toks = []
            for _ in range(max_new):
                last = logits[:, -1]
                nxt = last.argmax(-1) if temperature <= 0 else torch.multinomial((last / temperature).softmax(-1), 1, generator=g)[:, 0]
                nxt = torch.where(done, torch.full_like(nxt, EOS), nxt)
                toks.append(nxt)
                done = done | (nxt == EOS)
                if bool(done.all()):
                    break
                mask = torch.cat([mask, torch.ones(len(seqs), 1, dtype=mask.dtype)], 1)
                pos = pos[:, -1:] + 1
                logits, past = m.decoder(m.decoder.embed(nxt[:, None]), mask, pos, past)
            T = torch.stack(toks, 1).tolist()
            for row in T:
                row = row[:row.index(EOS)] if EOS in row else row
                out.append(tok.decode(row))
    res = [""] * len(out)
    for k, i in enumerate(order):
        res[i] = out[k]
    return res


DESCRIBE = {"Describe the image in detail.", "Describe the image.", "What do you see in the image?"}


def fire_examples(tok: Tokenizer, objs, pixels, base, base_tok: Tokenizer, seed: int, hp: dict, log=print):
    """One dialogue per image of the first hp['dialogue_images'] (none where no wrong answer turns up): (image, ids,
    start of the learned answer). The first answer is the base policy's greedy answer when it is wrong, else its
    answer sampled at hp['first_t'] when that is wrong (the errors the policy itself makes), else one written from a
    misperception."""
    import time
    rng = np.random.default_rng(seed)
    t0 = time.time()
    objs = objs[:hp["dialogue_images"]]
    pixels = pixels[:len(objs)]
    asks = []
    for o in objs:
        kind = w.KINDS[int(rng.choice(5, p=[0.4, 0.15, 0.15, 0.15, 0.15]))]
        asks.append(w.make_instruction(o, kind, rng))
    qs = [q for q, _ in asks]
    wrong = lambda o, a: "false" in [verdict(o, c) for c in divide(a)]
    greedy = generate(base, base_tok, pixels, qs, 0.0, seed)
    right = [i for i in range(len(objs)) if not wrong(objs[i], greedy[i])]
    sampled = dict(zip(right, generate(base, base_tok, pixels[right], [qs[i] for i in right], hp["first_t"], seed + 1)))
    out, stats = [], {"detailed": 0, "simple": 0, "turns": [0, 0, 0], "skipped": 0, "first": {"greedy": 0, "sampled": 0, "perceived": 0}}
    for i, o in enumerate(objs):
        q, target = asks[i]
        first, src = None, "perceived"
        if wrong(o, greedy[i]):
            first, src = greedy[i], "greedy"
        elif wrong(o, sampled[i]):  # sampled holds every image whose greedy answer is right
            first, src = sampled[i], "sampled"
        d = dialogue(o, rng, hp, q, target, first)
        if d is None:
            stats["skipped"] += 1
            continue
        text, final, level, _kind, turns = d
        p = encode(tok, text)
        ids = p + tok.encode(" " + final) + [EOS]
        out.append((i, ids, len(p)))
        stats[level] += 1
        stats["turns"][turns - 1] += 1
        stats["first"][src] += 1
    log(f"fire: dialogues made in {time.time() - t0:.0f}s")
    return out, stats


def teacher_corpus(seed: int = 11, n: int = 4000) -> list[str]:
    """Every word a teacher turn or the student prompt can hold, for the fire tokenizer: the fixed sentences and the
    turns on many misperceived answers of every kind (corrections, scores 0-10)."""
    rng = np.random.default_rng(seed)
    texts = [ASK_AGAIN, SIMPLE_WRONG, SAID_CORRECT, NO_CLAIMS, "Score: " + " ".join(str(k) for k in range(11)),
             "Feedback:", "It is not true that there is a red circle.", "It is not true that the circle is red."]
    for _ in range(n):
        objs = w.sample_objects(rng)
        for k in w.KINDS:
            q, t = w.make_instruction(objs, k, rng)
            a = w.answer(w.perceive(objs, rng, 0.5), t)
            claims = divide(a)
            texts.append(teacher_turn("detailed", claims, ["false"] * len(claims)))
    return texts


# ---------------------------------------------------------------- the check against the TypeScript

def check_cases(seed: int, n: int) -> list[dict]:
    """Cases of every kind with misperceived answers (noise 0 to 0.6), plus a few odd answers."""
    rng = np.random.default_rng(seed)
    cases = []
    for i in range(n):
        objs = w.sample_objects(rng)
        q, t = w.make_instruction(objs, w.KINDS[i % 5], rng)
        a = w.answer(w.perceive(objs, rng, [0.0, 0.2, 0.4, 0.6][i % 4]), t)
        cases.append({"question": q, "answer": a, "truth": w.truth_json(objs)})
    objs = w.sample_objects(rng)
    for a in ["The red star is not red.", "There are no shapes.", "There is a red circle in the image above."]:
        cases.append({"question": "Describe the image.", "answer": a, "truth": w.truth_json(objs)})
    for c in cases:
        objs = [w.Obj(**o) for o in c["truth"]["objects"]]
        claims = divide(c["answer"])
        v = [verdict(objs, x) for x in claims]
        c.update(claims=claims, verdicts=v, detailed=teacher_turn("detailed", claims, v),
                 simple=teacher_turn("simple", claims, v), prompt=conversation_text(c["question"], [c["answer"]], [teacher_turn("detailed", claims, v)]))
    return cases


def check_against_ts(root: str, seed: int = 99, n: int = 2000) -> int:
    """Runs scripts/shapes/teacher-turns.ts on generated cases; returns the number of mismatches (printed)."""
    cases = check_cases(seed, n)
    inp = "".join(json.dumps({k: c[k] for k in ("question", "answer", "truth")}) + "\n" for c in cases)
    r = subprocess.run(["npx", "tsx", os.path.join("scripts", "shapes", "teacher-turns.ts")], input=inp, cwd=root,
                       capture_output=True, text=True, check=True)
    bad = 0
    for c, line in zip(cases, r.stdout.splitlines()):
        ts = json.loads(line)
        for k in ("claims", "verdicts", "detailed", "simple"):
            if ts[k] != c[k]:
                bad += 1
                print(f"mismatch {k}: {c['answer']!r}\n  py {c[k]!r}\n  ts {ts[k]!r}")
                break
    print(f"teacher turns: {len(cases) - bad} of {len(cases)} cases equal the TypeScript's")
    return bad


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    if sys.argv[1:] == ["--check"]:
        sys.exit(1 if check_against_ts(os.path.dirname(os.path.dirname(here))) else 0)
    print(__doc__)


# ---------------------------------------------------------------- training (fine-tuning from the shipped policy)

def init_from(m, tok: Tokenizer, base, base_tok: Tokenizer) -> int:
    """Copies the base model's weights into m (same architecture, a larger vocabulary and context): every tensor
    but the word embeddings, the output head and the (unused under rotary positions) position table as it is; the
    embedding and head rows word by word. New words keep m's initialisation. Returns the number of new words."""
    import torch
    sd, bsd = m.state_dict(), base.state_dict()
    for k, v in bsd.items():
        if k in ("decoder.embed.weight", "vision.concepts.embed.weight", "decoder.head.weight", "decoder.pos.weight") or k.startswith("vision.concepts.") and k.endswith("_ids"):
            continue
        sd[k] = v.clone()
    new = 0
    with torch.no_grad():
        for word, i in tok.stoi.items():
            j = base_tok.stoi.get(word)
            if j is None:
                new += 1
                continue
            sd["decoder.embed.weight"][i] = bsd["decoder.embed.weight"][j]
            sd["decoder.head.weight"][i] = bsd["decoder.head.weight"][j]
    m.load_state_dict(sd)
    return new


def _lm_loss(logits, ids, lmask):
    import torch.nn.functional as Fn
    tgt, sel = ids[:, 1:], lmask[:, 1:]
    tok_loss = Fn.cross_entropy(logits[:, :-1].transpose(1, 2), tgt, reduction="none") * sel
    return tok_loss.sum(1) / sel.sum(1).clamp(min=1)


def train_fire(m, ordinary, per_image: int, dialogues, pixels, cells, hp: dict, log=print) -> None:
    """Each step: hp['bs'] ordinary examples (hp['group'] per image, as train.train) and hp['dialogue_bs'] dialogues
    (sorted by length and run in chunks of hp['chunk'], so a short dialogue is not padded to the longest); the loss is
    the ordinary examples' mean answer loss + hp['dialogue_weight'] × the dialogues' mean loss on the learned answer
    + 0.5 × the vision probe's loss. AdamW, warmup and cosine decay as train.train."""
    import time
    import torch
    import train as T
    g = np.random.default_rng(hp["seed"] + 2)
    n_images = len(ordinary) // per_image
    steps, bs, group, lr = hp["steps"], hp["bs"], hp["group"], hp["lr"]
    opt = torch.optim.AdamW(m.parameters(), lr=lr, weight_decay=0.01, betas=(0.9, 0.98))
    warm = max(1, steps // 20)
    m.train()
    t0 = time.time()
    run_o = run_d = 0.0
    for step in range(steps):
        f = (step + 1) / warm if step < warm else 0.5 * (1 + math.cos(math.pi * (step - warm) / (steps - warm)))
        for pg in opt.param_groups:
            pg["lr"] = lr * max(f, 0.02)
        ims = g.choice(n_images, size=bs // group, replace=False)
        idx = (ims[:, None] * per_image + np.stack([g.choice(per_image, size=group, replace=False) for _ in ims])).reshape(-1)
        _img, ids, mask, lmask = T.batch(ordinary, idx, pixels)
        logits = m.forward_train(pixels[torch.from_numpy(ims)], ids, mask, T.IMAGE_START, repeat=group)
        lm_o = _lm_loss(logits, ids, lmask).mean()
        aux = T.aux_loss(m, cells[torch.from_numpy(ims)])
        loss = lm_o + 0.5 * aux
        didx = g.choice(len(dialogues), size=hp["dialogue_bs"], replace=False)
        didx = sorted(didx.tolist(), key=lambda k: len(dialogues[k][1]))
        lm_d = torch.zeros(())
        for c in range(0, len(didx), hp["chunk"]):
            part = didx[c:c + hp["chunk"]]
            _img, ids, mask, lmask = T.batch(dialogues, part, pixels)
            imgs = torch.tensor([dialogues[k][0] for k in part])
            logits = m.forward_train(pixels[imgs], ids, mask, T.IMAGE_START)
            lm_d = lm_d + _lm_loss(logits, ids, lmask).sum()
        lm_d = lm_d / len(didx)
        loss = loss + hp["dialogue_weight"] * lm_d
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(m.parameters(), 1.0)
        opt.step()
        run_o = lm_o.item() if step == 0 else 0.98 * run_o + 0.02 * lm_o.item()
        run_d = lm_d.item() if step == 0 else 0.98 * run_d + 0.02 * lm_d.item()
        if step % 50 == 0 or step == steps - 1:
            log(f"  step {step:5d}/{steps} lm loss {run_o:.4f} dialogue loss {run_d:.4f} aux {aux.item():.4f} ({time.time() - t0:.0f}s)")
    m.eval()
