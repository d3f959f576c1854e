"""Prints grpo.py's advantages and loss on the hand-checked case of tests/loop/grpo.test.ts, as JSON."""
import json
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "shapes"))
import torch  # noqa: E402

from grpo import grpo_loss, group_advantages  # noqa: E402

adv = group_advantages(torch.tensor([1.0, 0.0, math.nan, 2.0, 3.0, 3.0, 3.0, 3.0]), 4)
ln = math.log
logp = torch.tensor([[ln(0.5), ln(0.5)], [ln(0.25), 0.0], [ln(0.5), 0.0]], requires_grad=True)
old = torch.tensor([[ln(0.4), ln(0.5)], [ln(0.25), 0.0], [ln(0.8), 0.0]])
ref = torch.tensor([[ln(0.5), ln(0.25)], [ln(0.5), 0.0], [ln(0.5), 0.0]])
mask = torch.tensor([[1.0, 1.0], [1.0, 0.0], [1.0, 0.0]])
a = torch.tensor([1.0, -2.0, -1.0])
loss0, f0 = grpo_loss(logp, old, ref, a, mask, 0.2, 0.0)
loss1, f1 = grpo_loss(logp, old, ref, a, mask, 0.2, 0.1)
loss1.backward()
print(json.dumps({"adv": adv.tolist(), "loss_beta0": float(loss0), "loss_beta01": float(loss1), "kl": f1["kl"],
                  "clip_ratio": f1["clip_ratio"], "grad": logp.grad.tolist()}))
