"""rlaifv claim-level rewards for EasyR1: `worker.reward.reward_function=./easyr1_reward.py:compute_score`.

EasyR1 (verl/workers/reward/function.py) calls a batch reward function with a list of
`{"response", "response_length", "ground_truth"}` dicts and nothing else: no prompt, no image. So the answer column
carries them: `ground_truth` is the JSON string `{"image", "question", "id"}` that
`scripts/integrations/rl_prompts.py --format easyr1-rl` writes. Returns one dict per input with `overall` and the same
metric keys every time. An answer that cannot be scored raises, unless RLAIFV_UNSCORABLE is set to the value to give it.
Standard library only. RLAIFV_URL (default http://127.0.0.1:8100), RLAIFV_API_KEY when the server needs a key.
"""
import json
import os
import urllib.error
import urllib.request

REWARD_TYPE = "batch"
__all__ = ["REWARD_TYPE", "compute_score"]

_MAX_ITEMS = 4096


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


def _item(i, r):
    try:
        ref = json.loads(r["ground_truth"]) if isinstance(r["ground_truth"], str) else r["ground_truth"]
        image = ref["image"]
        question = ref["question"]
    except (ValueError, KeyError, TypeError) as e:
        raise ValueError(f"rlaifv: reward_inputs[{i}].ground_truth must be the JSON {{image, question, id}} rl_prompts.py writes ({e})") from None
    if not isinstance(image, dict):
        image = {"url": image} if str(image).startswith(("http://", "https://", "data:")) else {"path": str(image)}
    return {"id": str(ref.get("id", i)), "image": image, "question": question, "completion": r["response"]}


def _score(res):
    if res["status"] == "ok":
        overall = float(res["reward"])
    elif res["status"] == "unscorable" and os.environ.get("RLAIFV_UNSCORABLE"):
        overall = float(os.environ["RLAIFV_UNSCORABLE"])
    else:
        raise RuntimeError(f"rlaifv: answer {res.get('id')} is {res['status']}: {res.get('reason')}")
    return {"overall": overall, "accepted": float(res.get("n_accepted", 0)), "rejected": float(res.get("n_rejected", 0)), "precision": float(res.get("precision", 0.0))}


def compute_score(reward_inputs, **kwargs):
    items = [_item(i, r) for i, r in enumerate(reward_inputs)]
    out = []
    for k in range(0, len(items), _MAX_ITEMS):
        out.extend(_post("/v1/rewards", {"items": items[k : k + _MAX_ITEMS]})["items"])
    return [_score(r) for r in out]
