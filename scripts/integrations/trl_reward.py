"""rlaifv claim-level rewards for TRL's GRPOTrainer / RLOOTrainer / AsyncGRPOTrainer (`rlaifv_reward`, async) and
OnlineDPOTrainer (`rlaifv_reward_sync`): `reward_funcs=[rlaifv_reward]`.

Called as trl/trainer/grpo_trainer.py::_calculate_rewards calls a reward function (TRL 1.x): keyword arguments
`prompts`, `completions`, `completion_ids`, `trainer_state`, `log_extra`, `log_metric` and every dataset column but
`prompt` (the `images`/`image` PIL column among them). Returns one float per completion, or None for an answer the
labeler could not judge (TRL turns it into NaN and gives it advantage 0). An answer that failed to score raises: a
silent 0 would bias training.

Each distinct PIL image is uploaded once (POST /v1/images, by its PNG bytes' sha256) and then referenced by sha256;
a `rlaifv_image` column (a path under the server's image root, or a URL) skips the upload.
Standard library only (plus PIL, which TRL's VLM path already has). The server's address: RLAIFV_URL
(default http://127.0.0.1:8100); its API key, when it needs one: RLAIFV_API_KEY.
"""
import asyncio
import hashlib
import io
import json
import os
import threading
import urllib.error
import urllib.request

__all__ = ["rlaifv_reward", "rlaifv_reward_sync"]

_uploaded = {}  # sha256 of the PNG bytes sent -> the sha256 the server stored them under
_lock = threading.Lock()


def _url(path):
    return os.environ.get("RLAIFV_URL", "http://127.0.0.1:8100").rstrip("/") + path


def _post(path, data, content_type="application/json"):
    headers = {"content-type": content_type}
    if os.environ.get("RLAIFV_API_KEY"):
        headers["authorization"] = "Bearer " + os.environ["RLAIFV_API_KEY"]
    req = urllib.request.Request(_url(path), data=data, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=float(os.environ.get("RLAIFV_TIMEOUT", "180"))) as res:
            return json.loads(res.read())
    except urllib.error.HTTPError as e:
        raise RuntimeError(f"rlaifv: {path} answered {e.code}: {e.read().decode(errors='replace')}") from None


def _png(img):
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()


def _image_ref(img, seen):
    """The request's image for a PIL image (uploaded once) or a path/URL string."""
    if isinstance(img, str):
        return {"url": img} if img.startswith(("http://", "https://", "data:")) else {"path": img}
    key = id(img)
    if key not in seen:
        data = _png(img)
        local = hashlib.sha256(data).hexdigest()
        with _lock:
            sha = _uploaded.get(local)
        if sha is None:
            sha = _post("/v1/images", data, "image/png")["sha256"]
            with _lock:
                _uploaded[local] = sha
        seen[key] = sha
    return {"sha256": seen[key]}


def _text(content):
    if isinstance(content, str):
        return content
    return " ".join(p.get("text", "") for p in content if isinstance(p, dict) and p.get("type") == "text").strip()


def _question(prompt):
    """The last user turn's text of a conversational prompt (or the prompt string)."""
    if isinstance(prompt, str):
        return prompt
    users = [m for m in prompt if m.get("role") == "user"]
    return _text(users[-1]["content"]) if users else ""


def _prompt_image(prompt):
    if isinstance(prompt, str):
        return None
    for m in prompt:
        if isinstance(m.get("content"), list):
            for p in m["content"]:
                if isinstance(p, dict) and p.get("type") == "image" and p.get("image") is not None:
                    return p["image"]
    return None


def _row_image(i, prompts, images, image, rlaifv_image):
    if rlaifv_image is not None:
        return rlaifv_image[i]
    if images is not None and images[i]:
        return images[i][0] if isinstance(images[i], (list, tuple)) else images[i]
    if image is not None and image[i] is not None:
        return image[i]
    found = _prompt_image(prompts[i])
    if found is None:
        raise ValueError(f"rlaifv: row {i} has no image (no images/image/rlaifv_image column, no image part in its prompt)")
    return found


def _score(prompts, completions, images=None, image=None, rlaifv_image=None, log_extra=None, log_metric=None):
    seen = {}
    items = []
    for i, c in enumerate(completions):
        text = c[0]["content"] if isinstance(c, list) else c
        ref = _image_ref(_row_image(i, prompts, images, image, rlaifv_image), seen)
        items.append({"id": str(i), "image": ref, "question": _question(prompts[i]), "completion": _text(text)})
    out = _post("/v1/rewards", json.dumps({"items": items}).encode())["items"]
    bad = [x for x in out if x["status"] == "error"]
    if bad:
        raise RuntimeError(f"rlaifv: {len(bad)} of {len(out)} answers could not be scored; first: {bad[0]['reason']}")
    if log_extra is not None:
        log_extra("rlaifv_rejected", [x.get("n_rejected") for x in out])
        log_extra("rlaifv_accepted", [x.get("n_accepted") for x in out])
    if log_metric is not None and out:
        log_metric("rlaifv/rejected", sum(x.get("n_rejected", 0) for x in out) / len(out))
        log_metric("rlaifv/accepted", sum(x.get("n_accepted", 0) for x in out) / len(out))
    return [x["reward"] if x["status"] == "ok" else None for x in out]


async def rlaifv_reward(prompts, completions, images=None, image=None, rlaifv_image=None, log_extra=None, log_metric=None, **kwargs):
    """GRPO / RLOO / AsyncGRPO: one float per completion, None when unscorable."""
    return await asyncio.to_thread(_score, prompts, completions, images, image, rlaifv_image, log_extra, log_metric)


def rlaifv_reward_sync(prompts, completions, images=None, image=None, rlaifv_image=None, log_extra=None, log_metric=None, **kwargs):
    """Online DPO (it calls reward functions without an event loop): one float per completion, None when unscorable."""
    return _score(prompts, completions, images, image, rlaifv_image, log_extra, log_metric)
