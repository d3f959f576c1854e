"""Checks grpo.py's batched sampler on the real tiny policy, for tests/loop/grpo.test.ts; prints JSON.

Sampling is made deterministic (torch.multinomial replaced by the argmax, the probabilities it saw recorded), so:
- `same`: prompts of different lengths sampled together (left-padded, one KV cache) give each row the tokens it gets
  sampled alone;
- `max_diff`: the sampler's log-probs of the tokens it drew equal the training forward's (token_logps: right-padded,
  no cache), which is what the GRPO ratio and KL are computed from.
Then, with torch's real multinomial and a seeded generator:
- `shared_logp_diff`, `shared_grad_diff`: token_logps (each prompt run once, its answers continuing its cache) gives
  the log-probs and gradients of token_logps_plain (every row run whole) up to float rounding, on those 32 answers;
- `plain_same`: the sampler, which drops ended rows from the batch, draws exactly the answers of a plain loop that runs
  every row to the batch's end (`grpo.sample_batch_plain`), row for row, on 4 prompts × 8 (two short-answer questions, two descriptions).
"""
import json
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "scripts", "shapes"))
import torch  # noqa: E402

import grpo  # noqa: E402
from dpo import load_image  # noqa: E402
from onnx_weights import load_model  # noqa: E402

seen = []
draw = torch.multinomial


def argmax_draw(probs, n, generator=None):
    seen.append(probs.log())
    return probs.argmax(-1, keepdim=True)


torch.multinomial = argmax_draw
model, tok, _ = load_model(os.path.join(ROOT, "models", "shapes-policy"))
model.eval()
prompts = grpo.read_prompts(os.path.join(ROOT, "data", "shapes", "test", "prompts.jsonl"), tok)
# Two prompts whose token lengths differ (so one is left-padded in the batch).
first = prompts[0]
other = next(p for p in prompts if len(p["ids"]) != len(first["ids"]))
batch = [first, other]
pixels = torch.stack([load_image(p["image"], p["where"]) for p in batch])
gen = torch.Generator().manual_seed(0)
together = grpo.sample_batch(model, pixels, [p["ids"] for p in batch], 2, 40, gen)
steps = list(seen)
alone = [grpo.sample_batch(model, pixels[k: k + 1], [p["ids"]], 2, 40, gen) for k, p in enumerate(batch)]
# The sampler's log-prob of each drawn token (rows of `together`) against the training forward's.
rows = [(k // 2, batch[k // 2]["ids"], ans) for k, ans in enumerate(together)]
with torch.no_grad():
    logp, mask = grpo.token_logps(model, rows, pixels)
diff = 0.0
for b, ans in enumerate(together):
    for t, tok_id in enumerate(ans):
        diff = max(diff, abs(float(steps[t][b, tok_id]) - float(logp[b, t])))
torch.multinomial = draw
four = [prompts[k] for k in (0, 5, 7, 8)]  # short answers and descriptions
px = torch.stack([load_image(p["image"], p["where"]) for p in four])
dropped = grpo.sample_batch(model, px, [p["ids"] for p in four], 8, 96, torch.Generator().manual_seed(7))
plain = grpo.sample_batch_plain(model, px, [p["ids"] for p in four], 8, 96, torch.Generator().manual_seed(7))
rows4 = [(k, p["ids"], a) for k, p in enumerate(four) for a in dropped[k * 8: (k + 1) * 8]]
model.train()
got = {}
for name, fn in (("plain", grpo.token_logps_plain), ("shared", grpo.token_logps)):
    lp, m = fn(model, rows4, px)
    (lp * m).sum().backward()
    got[name] = ((lp * m).detach(), {n: q.grad.clone() for n, q in model.named_parameters() if q.grad is not None})
    model.zero_grad(set_to_none=True)
shared_logp_diff = float((got["plain"][0] - got["shared"][0]).abs().max())
shared_grad_diff = max(float((got["plain"][1][n] - g).abs().max() / got["plain"][1][n].abs().max().clamp(min=1e-12)) for n, g in got["shared"][1].items())
print(json.dumps({"shared_logp_diff": shared_logp_diff, "shared_grad_diff": shared_grad_diff, "grad_tensors": [len(got["plain"][1]), len(got["shared"][1])], "lengths": [len(p["ids"]) for p in batch], "same": together == alone[0] + alone[1],
                  "answer_tokens": [len(a) for a in together], "max_diff": diff, "plain_same": dropped == plain,
                  "plain_lengths": sorted({len(a) for a in plain})}))
