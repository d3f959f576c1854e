#!/usr/bin/env python3
"""Rebuilds the shapes world's data splits and the tiny models from nothing, deterministically.

    sudo apt-get install -y python3-torch python3-onnx python3-pil python3-numpy libopenblas0-pthread
    python3 scripts/shapes/build.py            # everything: 22.7 minutes on 2 cores (labeler 12.5, policy 10), byte-identical, then the fire policy
    python3 scripts/shapes/build.py --only fire   # models/shapes-policy-fire from models/shapes-policy: 11.5 minutes on 2 shared cores (dialogues 2, training 9)
    python3 scripts/shapes/build.py --only labeler --threads 1 --out /tmp/models   # 14 minutes on one busy core
    python3 scripts/shapes/build.py --only data
    python3 scripts/shapes/build.py --only train   # the loop study's train split (2,000 prompts, not committed)
    python3 scripts/shapes/build.py --only multiturn   # the multi-turn split only (seconds, no torch training)

A build tool only: users, tests and CI use the committed outputs and never need Python.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

try:
    import torch  # noqa: F401
except ImportError:  # pyenv and friends shadow Debian's python3, which is where python3-torch lives
    if os.path.exists("/usr/bin/python3") and os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3"):
        os.execv("/usr/bin/python3", ["/usr/bin/python3", *sys.argv])
    raise

os.environ.setdefault("OMP_NUM_THREADS", "2")
import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

import world as w  # noqa: E402
import train as T  # noqa: E402
from model import TinyLlava  # noqa: E402
from package_model import write_model_folder  # noqa: E402
from tokenizer import Tokenizer  # noqa: E402
import fire  # noqa: E402
from onnx_weights import load_model  # noqa: E402

SPLITS = {"dev": (1001, 200), "test": (1002, 500)}
# The loop study's train split (python3 scripts/shapes/build.py --only train): not committed (.gitignore), 1.5 s to make.
TRAIN_SPLIT = ("train", 1003, 2000)
MULTITURN = (1004, 100)  # seed, prompts of data/shapes/multiturn
# Earlier turns use the short-answer kinds, so two of them and the image stay well inside the policy's context.
HISTORY_KINDS = ["listing", "attribute", "position", "counting"]
KIND_WEIGHTS = [0.4, 0.15, 0.15, 0.15, 0.15]  # detailed descriptions dominate, as in RLAIF-V's data
QUESTIONS_PER_TEST_IMAGE = 4

# The labeler: concept-only cell tokens, rotary positions and circuit probes (see train.CircuitProbes); the former
# curriculum (400 steps of one-attribute questions, then one-object forms until step 1400) is no longer needed.
LABELER = dict(hidden=128, layers=3, heads=4, ffn=512, pool=24000, per_image=10, describe=0, warmup_steps=0, stage2_steps=0,
               concepts="only", rope=True, circuit=1.0, first_token_only=True, steps=1600, bs=128, group=4, lr=3e-3, seed=2001)
POLICY = dict(hidden=128, layers=3, heads=4, ffn=512, pool=24000, per_image=6, concepts="only", rope=True, steps=1300, bs=64, group=2, lr=3e-3, seed=3001,
              noise=0.15)
# The policy that can take feedback (models/shapes-policy-fire): the shipped policy's weights, fine-tuned on its own
# examples (same noise) and on FIRE conversations from the truth (fire.py). Its context holds three feedback turns on
# the longest answers: a 4-object description wrong in every claim, three times, then the answer, is 438 tokens.
FIRE = dict(init="shapes-policy", hidden=128, layers=3, heads=4, ffn=512, concepts="only", rope=True, max_pos=448,
            pool=24000, per_image=6, noise=0.15, steps=800, bs=32, group=2, dialogue_bs=16, chunk=8, dialogue_weight=1.0,
            lr=1e-3, seed=4001, detailed_share=0.6, turns=[0.55, 0.3, 0.15], first_noise=0.2, revision_noise=0.12, first_t=0.7,
            dialogue_images=8000, target="edit")


def log(msg: str) -> None:
    print(msg, flush=True)


def write_split(name: str, seed: int, n: int) -> None:
    rng = np.random.default_rng(seed)
    out = os.path.join(ROOT, "data", "shapes", name)
    os.makedirs(os.path.join(out, "images"), exist_ok=True)
    prompts, questions = [], []
    for i in range(n):
        objs = w.sample_objects(rng)
        img = f"images/{name}-{i:04d}.png"
        w.render(objs, rng).save(os.path.join(out, img), optimize=False)
        kind = w.KINDS[int(rng.choice(5, p=KIND_WEIGHTS))]
        q, target = w.make_instruction(objs, kind, rng)
        # The kind the instruction really has: make_instruction falls back (an attribute or position question with no
        # unique reference becomes a counting one, an attribute one with nothing left to ask a position one).
        prompts.append({"id": f"{name}-{i:04d}", "image": img, "question": q,
                        "meta": {"kind": target["kind"], "split": name, "truth": w.truth_json(objs)}})
        if name == "test":
            for j in range(QUESTIONS_PER_TEST_IMAGE):
                want = j % 2 == 0
                for _ in range(50):
                    yq, ans, form = w.make_question(objs, rng)
                    if ans == want:
                        break
                questions.append({"image": img, "question": yq, "answer": "yes" if ans else "no", "form": form})
    with open(os.path.join(out, "prompts.jsonl"), "w") as f:
        for p in prompts:
            f.write(json.dumps(p) + "\n")
    if questions:
        with open(os.path.join(out, "questions.jsonl"), "w") as f:
            for q in questions:
                f.write(json.dumps(q) + "\n")
    log(f"data/shapes/{name}: {n} prompts" + (f", {len(questions)} yes/no questions" if questions else ""))


def write_multiturn(seed: int, n: int) -> None:
    """Conversations about one image: 1-2 earlier user/assistant turns (the world's true answers), then a follow-up."""
    rng = np.random.default_rng(seed)
    out = os.path.join(ROOT, "data", "shapes", "multiturn")
    os.makedirs(os.path.join(out, "images"), exist_ok=True)
    with open(os.path.join(out, "prompts.jsonl"), "w") as f:
        for i in range(n):
            objs = w.sample_objects(rng)
            img = f"images/multiturn-{i:04d}.png"
            w.render(objs, rng).save(os.path.join(out, img), optimize=False)
            history, asked = [], set()
            for _ in range(1 + int(rng.integers(2))):
                q, target = w.make_instruction(objs, HISTORY_KINDS[int(rng.integers(len(HISTORY_KINDS)))], rng)
                asked.add(q)
                history += [{"role": "user", "content": q}, {"role": "assistant", "content": w.answer(objs, target)}]
            for _ in range(50):  # the follow-up asks something not asked yet
                kind = w.KINDS[int(rng.choice(5, p=KIND_WEIGHTS))]
                q, target = w.make_instruction(objs, kind, rng)
                if q not in asked:
                    break
            f.write(json.dumps({"id": f"multiturn-{i:04d}", "image": img, "history": history, "question": q,
                                "meta": {"kind": target["kind"], "split": "multiturn", "truth": w.truth_json(objs)}}) + "\n")
    log(f"data/shapes/multiturn: {n} prompts")


def base_corpus() -> list[str]:
    """Every word the world's generators can write, found by enumerating them with a fixed seed."""
    rng = np.random.default_rng(7)
    texts = [" ".join(w.SHAPES + [w.plural(s) for s in w.SHAPES] + w.COLOR_NAMES + w.SIZES + w.POSITIONS + w.NUMBERS)]
    for _ in range(20000):
        objs = w.sample_objects(rng)
        for k in w.KINDS:
            q, t = w.make_instruction(objs, k, rng)
            texts += [q, w.answer(objs, t), w.answer(w.perceive(objs, rng, 0.5), t)]
        texts.append(w.make_question(objs, rng)[0] + " Please answer yes or no.")
    return texts


def build_tokenizer() -> Tokenizer:
    """The vocabulary of the shipped policy and labeler: the world's words."""
    return Tokenizer.from_corpus(base_corpus())


def build_fire_tokenizer() -> Tokenizer:
    """The fire policy's vocabulary: the world's words and every word of a teacher's turn and the student prompt
    ("Score", 0-10, "Feedback", "Your answer has errors.", "Based on the feedback, answer the question again:", ...)."""
    return Tokenizer.from_corpus(base_corpus() + fire.teacher_corpus())


def load_test(tok: Tokenizer):
    base = os.path.join(ROOT, "data", "shapes", "test")
    from PIL import Image
    rows = [json.loads(l) for l in open(os.path.join(base, "questions.jsonl"))]
    imgs = np.stack([np.asarray(Image.open(os.path.join(base, r["image"])).convert("RGB")) for r in rows])
    return rows, T.to_pixels(imgs)


def labeler_metrics(m, tok) -> dict:
    rows, pix = load_test(tok)
    p = T.yes_no_probs(m, tok, pix, [r["question"] + " Please answer yes or no." for r in rows])
    truth = np.array([r["answer"] == "yes" for r in rows])
    pred = p[:, 0] > p[:, 1]
    p_right = np.where(truth, p[:, 0], p[:, 1]) / (p[:, 0] + p[:, 1])
    by_form = {}
    for f in sorted({r["form"] for r in rows}):
        sel = np.array([r["form"] == f for r in rows])
        by_form[f] = {"n": int(sel.sum()), "accuracy": float((pred[sel] == truth[sel]).mean())}
    # Reliability: bins of the predicted p(yes) (normalised over yes+no) against the observed share of yes.
    py = p[:, 0] / (p[:, 0] + p[:, 1])
    bins = []
    for lo in np.arange(0, 1, 0.1):
        sel = (py >= lo) & (py < lo + 0.1 if lo < 0.9 else py <= 1.0)
        if sel.sum():
            bins.append({"bin": f"{lo:.1f}-{lo + 0.1:.1f}", "n": int(sel.sum()), "mean_p_yes": float(py[sel].mean()),
                         "share_yes": float(truth[sel].mean())})
    return {"questions": len(rows), "accuracy": float((pred == truth).mean()), "mean_p_right": float(p_right.mean()),
            "mean_yes_no_mass": float((p[:, 0] + p[:, 1]).mean()), "by_form": by_form, "reliability": bins}


def train_model(name: str, hp: dict, tok: Tokenizer) -> TinyLlava:
    torch.manual_seed(hp["seed"])
    t0 = time.time()
    imgs, objs = T.render_pool(hp["pool"], hp["seed"])
    if name == "labeler":
        ex = T.labeler_examples(tok, objs, hp["per_image"], hp["seed"] + 1, describe=hp["describe"])
    else:
        ex = T.policy_examples(tok, objs, hp["per_image"], hp["seed"] + 1, hp["noise"])
    pix = T.to_pixels(imgs)
    cells = torch.from_numpy(np.stack([T.cell_labels(o) for o in objs]))
    log(f"{name}: {len(objs)} images, {len(ex)} examples ({time.time() - t0:.0f}s)")
    m = TinyLlava(len(tok), hidden=hp["hidden"], layers=hp["layers"], heads=hp["heads"], ffn=hp["ffn"], rope=hp.get("rope", False))
    if hp.get("concepts"):
        ids = lambda words: [tok.stoi[x] for x in words]
        m.use_concepts(ids(w.SHAPES), ids(w.COLOR_NAMES), ids(w.SIZES), [ids(p.split(" ")) if " " in p else ids([p, p]) for p in w.POSITIONS],
                       only=hp.get("concepts") == "only")
    probe = None
    if name == "labeler":
        # Held-out progress check: 512 balanced questions on fresh images (not the test split).
        pimgs, pobjs = T.render_pool(256, hp["seed"] + 99)
        pex = T.labeler_examples(tok, pobjs, 2, hp["seed"] + 98, describe=0)
        ppix = T.to_pixels(pimgs)[[e[0] for e in pex]]
        pq = [tok.decode(e[1][:e[2]]).split("ASSISTANT")[0].split(":", 1)[1].strip() for e in pex]
        ptruth = np.array([tok.itos[e[1][e[2]]] == "Yes" for e in pex])

        def probe(model):
            p = T.yes_no_probs(model, tok, ppix, pq)
            return f"held-out acc {((p[:, 0] > p[:, 1]) == ptruth).mean():.3f}"
    warmup = []
    if hp.get("warmup_steps"):  # phase 1: one-attribute existence questions
        warmup.append((T.simple_examples(tok, objs, hp["per_image"], hp["seed"] + 3), hp["warmup_steps"]))
    if hp.get("stage2_steps"):  # phase 2: existence and questions about one object; then everything
        warmup.append((T.labeler_examples(tok, objs, hp["per_image"], hp["seed"] + 4, describe=0,
                                          forms={"exists", "attribute", "position"}), hp["stage2_steps"]))
    circuit = T.CircuitProbes(hp["hidden"], tok) if hp.get("circuit") else None
    T.train(m, ex, pix, hp["steps"], hp["bs"], hp["lr"], hp["seed"] + 2, cells, hp["per_image"], hp["group"], log=log,
            probe=probe, warmup=warmup, circuit=circuit, circuit_weight=hp.get("circuit", 0.0),
            first_token_only=hp.get("first_token_only", False))
    log(f"{name}: trained in {time.time() - t0:.0f}s")
    return m


def build_fire(hp: dict, out_root: str) -> None:
    """models/shapes-policy-fire: the shipped policy's weights in a model with the fire vocabulary and context,
    fine-tuned on ordinary policy examples plus one FIRE conversation per image (loss on the learned answer only)."""
    torch.manual_seed(hp["seed"])
    t0 = time.time()
    tok = build_fire_tokenizer()
    base, base_tok, _ = load_model(os.path.join(ROOT, "models", hp["init"]))
    imgs, objs = T.render_pool(hp["pool"], hp["seed"])
    ordinary = T.policy_examples(tok, objs, hp["per_image"], hp["seed"] + 1, hp["noise"])
    pix = T.to_pixels(imgs)
    dialogues, stats = fire.fire_examples(tok, objs, pix, base, base_tok, hp["seed"] + 3, hp, log=log)
    longest = max(len(d[1]) for d in dialogues)
    log(f"fire: tokenizer {len(tok)} tokens; {len(objs)} images, {len(ordinary)} examples, {len(dialogues)} dialogues "
        f"({stats}), longest {longest} tokens ({time.time() - t0:.0f}s)")
    assert longest <= hp["max_pos"], f"a dialogue of {longest} tokens does not fit the context of {hp['max_pos']}"
    m = TinyLlava(len(tok), hidden=hp["hidden"], layers=hp["layers"], heads=hp["heads"], ffn=hp["ffn"], max_pos=hp["max_pos"], rope=hp["rope"])
    ids = lambda words: [tok.stoi[x] for x in words]
    m.use_concepts(ids(w.SHAPES), ids(w.COLOR_NAMES), ids(w.SIZES), [ids(p.split(" ")) if " " in p else ids([p, p]) for p in w.POSITIONS],
                   only=True)
    new = fire.init_from(m, tok, base, base_tok)
    log(f"fire: {new} new words, the rest from models/{hp['init']}")
    cells = torch.from_numpy(np.stack([T.cell_labels(o) for o in objs]))
    fire.train_fire(m, ordinary, hp["per_image"], dialogues, pix, cells, hp, log=log)
    log(f"fire: trained in {time.time() - t0:.0f}s")
    out = os.path.join(out_root, "shapes-policy-fire")
    write_model_folder(m, tok, out, "rlaifv/shapes-policy-fire")
    with open(os.path.join(out, "build.json"), "w") as f:
        json.dump({"hyperparameters": hp, "python_metrics": {"dialogues": stats, "longest_dialogue_tokens": longest,
                                                             "vocab": len(tok), "new_words": new},
                   "torch": torch.__version__, "params": sum(p.numel() for p in m.parameters())}, f, indent=2)
        f.write("\n")
    # The port's check: teacher turns, prompts and their token ids on generated cases, compared with the TypeScript
    # and the model folder's own tokenizer by tests/eval/fire-port.test.ts.
    with open(os.path.join(ROOT, "tests", "fixtures", "fire-teacher-turns.jsonl"), "w") as f:
        for c in fire.check_cases(99, 300):
            f.write(json.dumps(dict(c, ids=fire.encode(tok, c["prompt"]))) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", choices=["data", "train", "multiturn", "labeler", "policy", "fire"],
                    help="build one part only (train: the loop study's 2,000-prompt train split, data/shapes/train)")
    ap.add_argument("--scale", type=float, default=1.0, help="multiply training steps (quick trials)")
    ap.add_argument("--out", default=os.path.join(ROOT, "models"), help="folder for the model folders")
    ap.add_argument("--threads", type=int, default=2, help="torch threads (the build's figures are for 2)")
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    torch.use_deterministic_algorithms(True)
    t0 = time.time()
    if a.only == "train":
        write_split(*TRAIN_SPLIT)
        return
    if a.only == "multiturn":
        write_multiturn(*MULTITURN)
        return
    if a.only in (None, "data"):
        for name, (seed, n) in SPLITS.items():
            write_split(name, seed, n)
        write_multiturn(*MULTITURN)
    tok = build_tokenizer()
    log(f"tokenizer: {len(tok)} tokens")
    for name, hp in (("labeler", LABELER), ("policy", POLICY), ("fire", FIRE)):
        if a.only not in (None, name):
            continue
        hp = dict(hp, steps=max(10, int(hp["steps"] * a.scale)))
        if name == "fire":
            build_fire(hp, a.out)
            continue
        m = train_model(name, hp, tok)
        metrics = labeler_metrics(m, tok) if name == "labeler" else {}
        if metrics:
            log(f"labeler: test accuracy {metrics['accuracy']:.4f}, mean p(right) {metrics['mean_p_right']:.4f}")
        out = os.path.join(a.out, f"shapes-{name}")
        write_model_folder(m, tok, out, f"rlaifv/shapes-{name}")
        with open(os.path.join(out, "build.json"), "w") as f:
            json.dump({"hyperparameters": hp, "python_metrics": metrics,
                       "torch": torch.__version__, "params": sum(p.numel() for p in m.parameters())}, f, indent=2)
            f.write("\n")
    log(f"done in {time.time() - t0:.0f}s")


if __name__ == "__main__":
    main()
