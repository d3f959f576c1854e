"""Writes RL prompt files for online trainers from rlaifv prompts (JSONL rows `{"id", "image", "question"}`), with the
image reference where each trainer hands it to the reward:

  trl-grpo     TRL GRPO/RLOO/Online DPO: conversational `prompt`, `image` (the file, which TRL loads) and `rlaifv_image`
               (the reference trl_reward.py sends instead of uploading the image)
  verl-rl      verl: `prompt`, `images`, `data_source: "rlaifv"`, `reward_model`, `extra_info.rlaifv` {image, question, id}
  easyr1-rl    EasyR1: `problem`, `images`, and `answer` = the JSON string {image, question, id} (its answer_key column)
  openrlhf-rl  OpenRLHF: `prompt`, `images`, and `rlaifv_ref` = that JSON string (`--data.label_key rlaifv_ref`)
  swift-grpo   ms-swift GRPO: `messages` with an <image> tag, `images`

The reference is the image's path relative to --image-root (the server's serve.image_root), or its URL as given.
Usage: python3 rl_prompts.py --prompts data/shapes/dev/prompts.jsonl --format verl-rl --image-root data/shapes/dev --out rl.jsonl
Exit 2 on a usage or input error, naming the file and line.
"""
import argparse
import json
import os
import sys

FORMATS = ("trl-grpo", "verl-rl", "easyr1-rl", "openrlhf-rl", "swift-grpo")


def row(fmt, p, file, ref):
    q = p["question"]
    key = {"image": ref, "question": q, "id": p.get("id")}
    if fmt == "trl-grpo":
        return {"prompt": [{"role": "user", "content": [{"type": "image"}, {"type": "text", "text": q}]}], "image": file, "rlaifv_image": ref}
    if fmt == "verl-rl":
        return {
            "data_source": "rlaifv",
            "prompt": [{"role": "user", "content": "<image>" + q}],
            "images": [file],
            "reward_model": {"style": "rule", "ground_truth": ""},
            "extra_info": {"rlaifv": key},
        }
    if fmt == "easyr1-rl":
        return {"problem": "<image>" + q, "images": [file], "answer": json.dumps(key)}
    if fmt == "openrlhf-rl":
        return {"prompt": [{"role": "user", "content": [{"type": "image"}, {"type": "text", "text": q}]}], "images": [file], "rlaifv_ref": json.dumps(key)}
    return {"messages": [{"role": "user", "content": "<image>" + q}], "images": [file]}


def main(argv=None):
    ap = argparse.ArgumentParser(description="write RL prompt files for online trainers with rlaifv's image references")
    ap.add_argument("--prompts", required=True)
    ap.add_argument("--format", required=True, choices=FORMATS)
    ap.add_argument("--image-root", required=True, help="the reward server's serve.image_root")
    ap.add_argument("--out", required=True)
    a = ap.parse_args(argv)
    base = os.path.dirname(os.path.abspath(a.prompts))
    root = os.path.abspath(a.image_root)
    rows = []
    try:
        lines = open(a.prompts, encoding="utf8").read().splitlines()
    except OSError as e:
        print(f"rl_prompts: cannot read {a.prompts}: {e.strerror}", file=sys.stderr)
        return 2
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            p = json.loads(line)
            image, _ = p["image"], p["question"]
        except (ValueError, KeyError, TypeError) as e:
            print(f"rl_prompts: {a.prompts}:{n}: needs JSON with image and question ({e})", file=sys.stderr)
            return 2
        if image.startswith(("http://", "https://", "data:")):
            file = ref = image
        else:
            file = os.path.abspath(os.path.join(base, image))
            ref = os.path.relpath(file, root)
            if ref.startswith(".."):
                print(f"rl_prompts: {a.prompts}:{n}: image {image} is outside --image-root {a.image_root}", file=sys.stderr)
                return 2
        rows.append(row(a.format, p, file, ref))
    with open(a.out, "w", encoding="utf8") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")
    print(f"wrote {len(rows)} {a.format} prompts to {a.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
