"""The two ways a shapes checkpoint's ONNX files are written, side by side (tests/loop/trainer.test.ts).

    python3 tests/loop/onnx_export_check.py POLICY OUT

Writes three model folders under OUT: `reloaded`, POLICY's weights as onnx_weights.load_model reads them, exported by
tracing (it must give POLICY's files back: the load is exact); `traced` and `patched`, the same model with every
parameter moved by seeded noise, one exported by tracing (no parent) and one written into POLICY's graphs
(write_model_folder's `parent`, what the trainers do).
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts", "shapes"))

from debian_python import use_debian_python  # noqa: E402

use_debian_python()

import torch  # noqa: E402

from onnx_weights import load_model  # noqa: E402
from package_model import write_model_folder  # noqa: E402

policy, out = sys.argv[1], sys.argv[2]
model, tok, _ = load_model(policy)
write_model_folder(model, tok, os.path.join(out, "reloaded"), "reloaded")
g = torch.Generator().manual_seed(0)
with torch.no_grad():
    for p in model.parameters():
        p.add_(torch.randn(p.shape, generator=g) * 0.01)
write_model_folder(model, tok, os.path.join(out, "traced"), "moved")
write_model_folder(model, tok, os.path.join(out, "patched"), "moved", parent=policy)
