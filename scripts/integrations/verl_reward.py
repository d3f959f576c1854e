"""rlaifv claim-level rewards for verl: `reward.custom_reward_function.path=verl_reward.py` (name `compute_score`).

Called as verl/experimental/reward_loop/reward_manager/naive.py::run_single calls it:
`await compute_score(data_source=..., solution_str=..., ground_truth=..., extra_info=..., **extra_reward_kwargs)`,
one sample per call, many at once through asyncio.gather. verl never passes the image, so each row carries it in
`extra_info["rlaifv"] = {"image": <path under the server's image root, or URL>, "question": ..., "id": ...}` (what
`scripts/integrations/rl_prompts.py --format verl-rl` writes). Concurrent calls in one event loop are gathered into one
POST /v1/rewards (a few ms window), as the server gathers them into labeler batches.

Returns `{"score": float, ...}` with the same scalar keys every time (verl logs them as per-sample arrays). verl has no
"no score" value: an answer that cannot be scored raises, unless RLAIFV_UNSCORABLE is set to the value to give it.
Standard library only. RLAIFV_URL (default http://127.0.0.1:8100), RLAIFV_API_KEY when the server needs a key.
"""
import asyncio
import json
import os
import urllib.error
import urllib.request

__all__ = ["compute_score"]

_WINDOW_S = 0.005
_MAX_ITEMS = 4096
_pending = {}  # event loop -> list of (item, future)


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


def _image(ref):
    if isinstance(ref, dict):
        return ref
    return {"url": ref} if str(ref).startswith(("http://", "https://", "data:")) else {"path": str(ref)}


async def _flush(loop):
    await asyncio.sleep(_WINDOW_S)
    batch = _pending.pop(loop, [])
    for i in range(0, len(batch), _MAX_ITEMS):
        part = batch[i : i + _MAX_ITEMS]
        try:
            out = await asyncio.to_thread(_post, "/v1/rewards", {"items": [it for it, _ in part]})
            for (_, fut), res in zip(part, out["items"]):
                fut.set_result(res)
        except Exception as e:  # the whole request failed: every caller in it sees why
            for _, fut in part:
                if not fut.done():
                    fut.set_exception(e)


def _result(res):
    keys = ("n_claims", "n_accepted", "n_rejected", "rej_c", "rej_p", "precision")
    if res["status"] == "ok":
        score = float(res["reward"])
    elif res["status"] == "unscorable" and os.environ.get("RLAIFV_UNSCORABLE"):
        score = float(os.environ["RLAIFV_UNSCORABLE"])
    else:
        raise RuntimeError(f"rlaifv: answer {res.get('id')} is {res['status']}: {res.get('reason')}")
    return {"score": score, **{k: float(res.get(k, 0.0)) for k in keys}}


async def compute_score(data_source, solution_str, ground_truth, extra_info=None, **kwargs):
    ref = (extra_info or {}).get("rlaifv")
    if not ref:
        raise ValueError('rlaifv: extra_info["rlaifv"] is missing; write the RL prompts with rl_prompts.py --format verl-rl')
    if isinstance(ref, str):
        ref = json.loads(ref)
    item = {"id": str(ref.get("id", "")), "image": _image(ref["image"]), "question": ref["question"], "completion": solution_str}
    loop = asyncio.get_running_loop()
    fut = loop.create_future()
    first = loop not in _pending
    _pending.setdefault(loop, []).append((item, fut))
    if first:
        loop.create_task(_flush(loop))
    return _result(await fut)
