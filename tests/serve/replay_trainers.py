"""Replays each trainer's exact reward call (ONLINE-RL.md §6.4) against a running `rlaifv serve` (RLAIFV_URL), with
the adapters under scripts/integrations/. Usage: replay_trainers.py CASE; prints one JSON summary line; exits 1 on a
failed check. The calls are built as the trainers build them (quoted in ONLINE-RL.md §1 with the files they come from).
"""
import asyncio
import importlib.util
import json
import os
import sys
import time
import urllib.request

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DEV = os.path.join(ROOT, "data", "shapes", "dev")
INTEGRATIONS = os.path.join(ROOT, "scripts", "integrations")


def load(name):
    spec = importlib.util.spec_from_file_location(name, os.path.join(INTEGRATIONS, name + ".py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def prompts(n):
    rows = [json.loads(l) for l in open(os.path.join(DEV, "prompts.jsonl")) if l.strip()]
    return [rows[i % len(rows)] for i in range(n)]


OTHER = {"red": "green", "green": "blue", "blue": "yellow", "yellow": "purple", "purple": "orange", "orange": "red"}


def answer(p, k):
    """Answer k to a prompt: true sentences about its shapes, and on odd k one with a wrong colour."""
    objs = p["meta"]["truth"]["objects"]
    o = objs[k % len(objs)]
    s = [f"The {o['color']} {o['shape']} is in the {o['position']}."]
    if k % 2:
        w = objs[(k + 1) % len(objs)]
        s.append(f"There is a {OTHER[w['color']]} {w['shape']}.")
    if k % 3 == 0 and len(objs) > 1:
        o2 = objs[(k + 2) % len(objs)]
        s.append(f"There is a {o2['color']} {o2['shape']}.")
    return " ".join(s)


def post(path, body):
    url = os.environ["RLAIFV_URL"].rstrip("/") + path
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=180) as r:
        return r.status, json.loads(r.read())


def check(cond, msg):
    if not cond:
        print(f"FAILED: {msg}", file=sys.stderr)
        sys.exit(1)


def qwen_query(question, completion, pads):
    """OpenRLHF's VLM query: the Qwen template with the processor's expanded image pads, the completion, <|im_end|>."""
    vis = "<|vision_start|>" + "<|image_pad|>" * pads + "<|vision_end|>"
    head = f"<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n<|im_start|>user\n{vis}{question}<|im_end|>\n<|im_start|>assistant\n"
    return head + completion + "<|im_end|>"


def native(items):
    return post("/v1/rewards", {"items": items})[1]["items"]


def case_openrlhf_single():
    import torch

    p = prompts(1)[0]
    c = answer(p, 1)
    q = qwen_query(p["question"], c, 256)
    prompt = qwen_query(p["question"], "", 1)[: -len("<|im_end|>")]
    status, resp = post("/get_reward", {"query": [q], "prompts": [prompt], "labels": [p["image"]]})
    check(status == 200, f"status {status}")
    check(isinstance(resp["rewards"], list) and len(resp["rewards"]) == 1 and isinstance(resp["rewards"][0], float | int), "rewards: a float list of length 1")
    check(all(0 <= s <= 1 for s in resp["scores"]) and len(resp["scores"]) == 1, "scores in [0, 1], length 1")
    check(all(isinstance(v, list) and len(v) == 1 and isinstance(v[0], float | int) for v in resp["extra_logs"].values()), "extra_logs: numeric lists of length 1")
    torch.tensor([resp["rewards"]])
    torch.tensor([resp["scores"]])
    # The completion it cut from the query is the one sent: the same answer scored natively gives the same reward.
    same = native([{"id": "x", "image": {"path": p["image"]}, "question": p["question"], "completion": c}])[0]
    check(same["reward"] == resp["rewards"][0], f"native reward {same['reward']} != {resp['rewards'][0]}")
    return {"completion": c, "reward": resp["rewards"][0]}


def case_openrlhf_empty():
    status, resp = post("/get_reward", {"query": [], "prompts": [], "labels": []})
    check(status == 200 and resp["rewards"] == [] and resp["scores"] == [], "empty lists")
    check(all(v == [] for v in resp["extra_logs"].values()), "empty extra_logs lists")
    return {"ok": True}


def case_openrlhf_batch():
    import torch

    ps = prompts(64)
    cs = [answer(p, i) for i, p in enumerate(ps)]
    labels = [json.dumps({"image": p["image"], "question": p["question"], "id": p["id"]}) for p in ps]
    status, resp = post("/get_reward", {"query": [qwen_query(p["question"], c, 64) for p, c in zip(ps, cs)], "prompts": [""] * 64, "labels": labels})
    check(status == 200, f"status {status}")
    # OpenRLHF <= v0.9.0 (experience_maker.py): torch.cat over each server's lists.
    for key, v in [("rewards", resp["rewards"]), ("scores", resp["scores"])] + list(resp["extra_logs"].items()):
        check(torch.cat([torch.as_tensor(v)]).shape == (64,), f"{key}: shape (64,)")
    each = native([{"id": str(i), "image": {"path": p["image"]}, "question": p["question"], "completion": c} for i, (p, c) in enumerate(zip(ps, cs))])
    check([x["reward"] for x in each] == resp["rewards"], "rewards in request order")
    return {"n": 64, "distinct_rewards": len(set(resp["rewards"]))}


def pil_rows(b, g):
    from PIL import Image

    ps = prompts(b // g)
    rows = []
    for j, p in enumerate(ps):
        img = Image.open(os.path.join(DEV, p["image"])).convert("RGB")
        for k in range(g):
            rows.append((p, img, answer(p, k)))
    return rows


class Log:
    def __init__(self):
        self.extra, self.metric = {}, {}

    def log_extra(self, k, v):
        self.extra[k] = v

    def log_metric(self, k, v):
        self.metric[k] = v


def counting(mod):
    """Counts the adapter's image uploads (its own _post, wrapped)."""
    calls = {"/v1/images": 0, "/v1/rewards": 0}
    real = mod._post

    def wrapped(path, *a, **kw):
        calls[path] = calls.get(path, 0) + 1
        return real(path, *a, **kw)

    mod._post = wrapped
    return calls


def trl_kwargs(rows):
    # grpo_trainer.py: prompts after prepare_multimodal_messages, conversational completions, every other column.
    prompts_ = [[{"role": "user", "content": [{"type": "image", "image": img}, {"type": "text", "text": p["question"]}]}] for p, img, _ in rows]
    completions = [[{"role": "assistant", "content": c}] for _, _, c in rows]
    return dict(prompts=prompts_, completions=completions, completion_ids=[[1, 2, 3]] * len(rows), images=[[img] for _, img, _ in rows], trainer_state=None)


def case_trl_grpo():
    trl = load("trl_reward")
    calls = counting(trl)
    rows = pil_rows(32, 8)  # 4 prompts x 8 generations, the same PIL image in a group's 8 rows
    log = Log()
    out = asyncio.run(trl.rlaifv_reward(**trl_kwargs(rows), log_extra=log.log_extra, log_metric=log.log_metric))
    check(len(out) == 32 and all(r is None or isinstance(r, float | int) for r in out), "32 floats or None")
    check(calls["/v1/images"] == 4, f"each distinct image uploaded once: {calls['/v1/images']} uploads for 4 images")
    out2 = asyncio.run(trl.rlaifv_reward(**trl_kwargs(rows)))
    check(calls["/v1/images"] == 4 and out2 == out, "a second step uploads nothing and scores the same")
    check(len(log.extra["rlaifv_rejected"]) == 32 and "rlaifv/rejected" in log.metric, "log_extra columns and log_metric")
    return {"uploads": calls["/v1/images"], "rewards": out[:8]}


def case_trl_online_dpo():
    trl = load("trl_reward")
    rows = pil_rows(16, 2)  # 8 prompts x 2 completions, columns repeated x2 as online_dpo_trainer.py does
    try:
        asyncio.get_running_loop()
        check(False, "there must be no running loop")
    except RuntimeError:
        pass
    out = trl.rlaifv_reward_sync(**trl_kwargs(rows))
    check(len(out) == 16 and all(isinstance(r, float | int) for r in out), "16 floats")
    return {"n": 16}


def case_verl():
    verl = load("verl_reward")
    ps = prompts(512)
    calls = [(p, answer(p, k)) for p in ps for k in range(5)]

    async def run():
        # naive.py::run_single, one per sample, through asyncio.gather.
        return await asyncio.gather(
            *[
                verl.compute_score(data_source="rlaifv", solution_str=c, ground_truth="", extra_info={"rlaifv": {"image": p["image"], "question": p["question"], "id": p["id"]}, "num_turns": None, "rollout_reward_scores": {}})
                for p, c in calls
            ]
        )

    t0 = time.time()
    out = asyncio.run(run())
    secs = time.time() - t0
    keys = set(out[0])
    check(len(out) == 2560 and all(set(o) == keys and isinstance(o["score"], float) for o in out), "2,560 dicts with score, same keys")
    check(all(isinstance(v, float) for o in out for v in o.values()), "scalars only")
    return {"n": 2560, "seconds": round(secs, 2), "keys": sorted(keys)}


def case_easyr1():
    easy = load("easyr1_reward")
    check(easy.REWARD_TYPE == "batch", 'REWARD_TYPE = "batch"')
    ps = prompts(512)
    inputs = []
    for p in ps:
        for k in range(5):
            c = answer(p, k + 5)
            inputs.append({"response": c, "response_length": len(c.split()), "ground_truth": json.dumps({"image": p["image"], "question": p["question"], "id": p["id"]})})
    t0 = time.time()
    out = easy.compute_score(inputs)
    secs = time.time() - t0
    keys = set(out[0])
    check(len(out) == 2560 and "overall" in keys and all(set(o) == keys for o in out), "2,560 dicts with overall, same keys")
    return {"n": 2560, "seconds": round(secs, 2)}


def case_swift():
    swift = load("swift_reward")
    check(swift.orms is None, "ms-swift is not installed here: registration is skipped, the class still works")
    ps = prompts(3)
    import base64

    raw = open(os.path.join(DEV, ps[2]["image"]), "rb").read()
    data_url = "data:image/png;base64," + base64.b64encode(open(os.path.join(DEV, ps[1]["image"]), "rb").read()).decode()
    images = [[ps[0]["image"]], [data_url], [{"bytes": raw, "path": "x.png"}]]
    completions = [answer(p, 1) for p in ps]
    messages = [[{"role": "user", "content": "<image>" + p["question"]}, {"role": "assistant", "content": c}] for p, c in zip(ps, completions)]
    out = asyncio.run(swift.RlaifvORM()(completions, messages=messages, images=images, trainer_state=None))
    check(len(out) == 3 and all(isinstance(r, float | int) for r in out), "3 floats")
    return {"rewards": out}


def case_swift_registered():
    """ms-swift's registry as swift/plugin/__init__.py exposes it (`orms`, `ORM`; AsyncORM in swift/plugin/orm.py, at
    modelscope/ms-swift), stood in by modules of those names: ms-swift cannot be installed here."""
    import types

    class ORM:
        pass

    class AsyncORM:
        pass

    plugin = types.ModuleType("swift.plugin")
    plugin.orms, plugin.ORM = {}, ORM
    orm = types.ModuleType("swift.plugin.orm")
    orm.orms, orm.ORM, orm.AsyncORM = plugin.orms, ORM, AsyncORM
    sys.modules.update({"swift": types.ModuleType("swift"), "swift.plugin": plugin, "swift.plugin.orm": orm})
    swift = load("swift_reward")
    check(plugin.orms.get("rlaifv") is swift.RlaifvORM and issubclass(swift.RlaifvORM, AsyncORM), "registered as rlaifv, an AsyncORM")
    return {"registered": True}


if __name__ == "__main__":
    name = sys.argv[1].replace("-", "_")
    print(json.dumps(globals()["case_" + name]()))
