"""rlaifv claim-level rewards for ms-swift GRPO: `--external_plugins swift_reward.py --reward_funcs rlaifv`.

ms-swift calls a reward class as `__call__(completions, **kwargs)` with `messages`, `images` (per row: paths, URLs or
`{"bytes", "path"}` dicts), `trainer_state` and every dataset column (swift/rl_core/grpo_algorithm.py,
compute_rewards_per_func, 4.x); async classes (AsyncORM, #7252) are awaited. `RlaifvORM` is registered as `rlaifv` in
ms-swift's `orms` registry, the way its external plugins register (`orms['name'] = Class`); without ms-swift installed
the class still works on its own. Returns one float per completion, None when the labeler could not judge the answer
(ms-swift turns it into NaN). Standard library only. RLAIFV_URL (default http://127.0.0.1:8100), RLAIFV_API_KEY.
"""
import asyncio
import base64
import json
import os
import urllib.error
import urllib.request

try:  # ms-swift's registry (swift/plugin/__init__.py exports orms and ORM; AsyncORM lives in swift/plugin/orm.py)
    from swift.plugin import orms  # type: ignore

    try:
        from swift.plugin.orm import AsyncORM as _Base  # type: ignore

        _ASYNC = True
    except ImportError:  # before AsyncORM (#7252): a sync ORM
        from swift.plugin import ORM as _Base  # type: ignore

        _ASYNC = False
except ImportError:
    orms = None
    _Base = object
    _ASYNC = True

__all__ = ["RlaifvORM"]


def _post(path, body):
    headers = {"content-type": "application/json"}
    if os.environ.get("RLAIFV_API_KEY"):
        headers["authorization"] = "Bearer " + os.environ["RLAIFV_API_KEY"]
    url = os.environ.get("RLAIFV_URL", "http://127.0.0.1:8100").rstrip("/") + path
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=float(os.environ.get("RLAIFV_TIMEOUT", "180"))) as res:
            return json.loads(res.read())
    except urllib.error.HTTPError as e:
        raise RuntimeError(f"rlaifv: {path} answered {e.code}: {e.read().decode(errors='replace')}") from None


def _image(img):
    if isinstance(img, (list, tuple)):
        img = img[0] if img else None
    if isinstance(img, dict):
        if img.get("bytes"):
            return {"b64": base64.b64encode(img["bytes"]).decode()}
        img = img.get("path")
    if not img:
        raise ValueError("rlaifv: a row has no image")
    return {"url": img} if str(img).startswith(("http://", "https://", "data:")) else {"path": str(img)}


def _question(messages):
    users = [m for m in messages if m.get("role") == "user"]
    text = users[-1]["content"] if users else ""
    if isinstance(text, list):
        text = " ".join(p.get("text", "") for p in text if isinstance(p, dict))
    return text.replace("<image>", "").strip()


def _score(completions, messages, images):
    if messages is None or images is None:
        raise ValueError("rlaifv: ms-swift must pass messages and images (a multimodal GRPO data set)")
    items = [{"id": str(i), "image": _image(images[i]), "question": _question(messages[i]), "completion": c} for i, c in enumerate(completions)]
    out = _post("/v1/rewards", {"items": items})["items"]
    bad = [x for x in out if x["status"] == "error"]
    if bad:
        raise RuntimeError(f"rlaifv: {len(bad)} answers could not be scored; first: {bad[0]['reason']}")
    return [x["reward"] if x["status"] == "ok" else None for x in out]


if _ASYNC:

    class RlaifvORM(_Base):
        async def __call__(self, completions, messages=None, images=None, **kwargs):
            return await asyncio.to_thread(_score, completions, messages, images)

else:

    class RlaifvORM(_Base):
        def __call__(self, completions, messages=None, images=None, **kwargs):
            return _score(completions, messages, images)


if orms is not None:
    orms["rlaifv"] = RlaifvORM
