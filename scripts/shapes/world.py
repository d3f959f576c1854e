"""The shapes world: seeded images, their truth, instructions, truthful answers and yes/no questions.

Everything here is deterministic given a numpy Generator. The language defined here is the one the
TypeScript truth checker (src/shapes/) understands; see docs in README "The shapes world".
"""
from __future__ import annotations

import math
from dataclasses import dataclass, asdict

import numpy as np
from PIL import Image, ImageDraw

SIZE = 64
SHAPES = ["circle", "square", "triangle", "star"]
COLORS = {
    "red": (220, 40, 40),
    "green": (40, 165, 60),
    "blue": (40, 80, 220),
    "yellow": (235, 205, 30),
    "purple": (145, 60, 185),
    "orange": (245, 135, 20),
}
COLOR_NAMES = list(COLORS)
SIZES = ["small", "large"]
# 3x3 grid: (row, col) -> name
POSITIONS = [
    "top left", "top center", "top right",
    "middle left", "center", "middle right",
    "bottom left", "bottom center", "bottom right",
]
NUMBERS = ["no", "one", "two", "three", "four"]
BACKGROUND = (245, 245, 245)


@dataclass(frozen=True)
class Obj:
    shape: str
    color: str
    size: str
    position: str


def sample_objects(rng: np.random.Generator) -> list[Obj]:
    n = int(rng.integers(1, 5))
    cells = rng.choice(9, size=n, replace=False)
    objs = []
    for c in sorted(int(x) for x in cells):
        objs.append(Obj(
            shape=SHAPES[int(rng.integers(len(SHAPES)))],
            color=COLOR_NAMES[int(rng.integers(len(COLOR_NAMES)))],
            size=SIZES[int(rng.integers(2))],
            position=POSITIONS[c],
        ))
    return objs


def _star(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    pts = []
    for k in range(10):
        rad = r if k % 2 == 0 else r * 0.45
        a = -math.pi / 2 + k * math.pi / 5
        pts.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
    return pts


def render(objs: list[Obj], rng: np.random.Generator) -> Image.Image:
    img = Image.new("RGB", (SIZE, SIZE), BACKGROUND)
    d = ImageDraw.Draw(img)
    cell = SIZE / 3
    for o in objs:
        idx = POSITIONS.index(o.position)
        row, col = divmod(idx, 3)
        jx, jy = rng.uniform(-1.5, 1.5, size=2)
        cx, cy = (col + 0.5) * cell + jx, (row + 0.5) * cell + jy
        r = (8.5 if o.size == "large" else 4.5) + float(rng.uniform(-0.5, 0.5))
        fill = COLORS[o.color]
        if o.shape == "circle":
            d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=fill)
        elif o.shape == "square":
            s = r * 0.88
            d.rectangle([cx - s, cy - s, cx + s, cy + s], fill=fill)
        elif o.shape == "triangle":
            d.polygon([(cx, cy - r), (cx - r, cy + r * 0.85), (cx + r, cy + r * 0.85)], fill=fill)
        else:
            d.polygon(_star(cx, cy, r * 1.1), fill=fill)
    return img


# ---------------------------------------------------------------- descriptions and matching

def article(word: str) -> str:
    return "an" if word[0] in "aeiou" else "a"


def plural(shape: str) -> str:
    return shape + "s"


def desc(size: str | None, color: str | None, shape: str | None) -> str:
    """Noun phrase without article: 'large red circle', 'red shape'."""
    parts = [p for p in (size, color) if p]
    parts.append(shape or "shape")
    return " ".join(parts)


def matches(o: Obj, size=None, color=None, shape=None, position=None) -> bool:
    return ((size is None or o.size == size) and (color is None or o.color == color)
            and (shape is None or o.shape == shape) and (position is None or o.position == position))


def count(objs, **kw) -> int:
    return sum(1 for o in objs if matches(o, **kw))


def unique_ref(objs: list[Obj], o: Obj, rng: np.random.Generator) -> dict | None:
    """The shortest random description (without position) that picks out o alone."""
    options = [dict(shape=o.shape), dict(color=o.color, shape=o.shape), dict(size=o.size, shape=o.shape),
               dict(size=o.size, color=o.color, shape=o.shape)]
    for opt in options:
        if count(objs, **opt) == 1:
            return opt
    return None


def number_phrase(n: int, noun_desc: str, shape_word: str | None) -> str:
    """'There is one red circle', 'There are three shapes', 'There are no stars'."""
    if n == 1:
        return f"There is one {noun_desc}"
    words = noun_desc.split(" ")
    words[-1] = plural(words[-1])
    return f"There are {NUMBERS[n]} {' '.join(words)}"


# ---------------------------------------------------------------- instructions and truthful answers

KINDS = ["detailed", "listing", "attribute", "position", "counting"]


def object_sentence(o: Obj) -> str:
    return f"There is {article(o.size)} {o.size} {o.color} {o.shape} in the {o.position}."


def make_instruction(objs: list[Obj], kind: str, rng: np.random.Generator) -> tuple[str, dict]:
    """An instruction of the given kind and the structured target used to write answers."""
    if kind == "detailed":
        q = ["Describe the image in detail.", "Describe the image.", "What do you see in the image?"][int(rng.integers(3))]
        return q, {"kind": kind}
    if kind == "listing":
        q = ["What shapes are in the image?", "List the shapes in the image."][int(rng.integers(2))]
        return q, {"kind": kind}
    if kind == "attribute":
        o = objs[int(rng.integers(len(objs)))]
        if rng.random() < 0.15:  # ask about a shape that is absent
            absent = [s for s in SHAPES if count(objs, shape=s) == 0]
            if absent:
                s = absent[int(rng.integers(len(absent)))]
                return f"What color is the {s}?", {"kind": kind, "ref": {"shape": s}, "attr": "color"}
        ref = unique_ref(objs, o, rng)
        if ref is None:
            return make_instruction(objs, "counting", rng)
        free = [a for a in ("color", "size") if a not in ref]
        if not free:
            return f"Where is the {desc(ref.get('size'), ref.get('color'), ref['shape'])}?", {"kind": "position", "ref": ref}
        attr = free[int(rng.integers(len(free)))]
        return f"What {attr} is the {desc(ref.get('size'), ref.get('color'), ref['shape'])}?", \
            {"kind": kind, "ref": ref, "attr": attr}
    if kind == "position":
        o = objs[int(rng.integers(len(objs)))]
        ref = unique_ref(objs, o, rng)
        if ref is None:
            return make_instruction(objs, "counting", rng)
        return f"Where is the {desc(ref.get('size'), ref.get('color'), ref['shape'])}?", {"kind": kind, "ref": ref}
    # counting
    r = rng.random()
    if r < 0.4:
        return "How many shapes are there?", {"kind": kind, "filter": {}}
    if r < 0.8:
        s = SHAPES[int(rng.integers(len(SHAPES)))]
        return f"How many {plural(s)} are there?", {"kind": kind, "filter": {"shape": s}}
    c = COLOR_NAMES[int(rng.integers(len(COLOR_NAMES)))]
    return f"How many {c} shapes are there?", {"kind": kind, "filter": {"color": c}}


def answer(objs: list[Obj], target: dict) -> str:
    """The truthful answer to an instruction, in the world's language."""
    kind = target["kind"]
    if kind == "detailed":
        n = len(objs)
        head = "There is one shape in the image." if n == 1 else f"There are {NUMBERS[n]} shapes in the image."
        return " ".join([head] + [object_sentence(o) for o in objs])
    if kind == "listing":
        items = [f"{article(o.color)} {o.color} {o.shape}" for o in objs]
        if len(items) == 1:
            body = items[0]
        else:
            body = ", ".join(items[:-1]) + " and " + items[-1]
        return f"There is {body}."
    if kind == "attribute":
        ref, attr = target["ref"], target["attr"]
        hits = [o for o in objs if matches(o, **ref)]
        d = desc(ref.get("size"), ref.get("color"), ref["shape"])
        if not hits:
            return f"There is no {d}."
        return f"The {d} is {getattr(hits[0], attr)}."
    if kind == "position":
        ref = target["ref"]
        hits = [o for o in objs if matches(o, **ref)]
        d = desc(ref.get("size"), ref.get("color"), ref["shape"])
        if not hits:
            return f"There is no {d}."
        return f"The {d} is in the {hits[0].position}."
    f = target["filter"]
    n = count(objs, **f)
    d = desc(None, f.get("color"), f.get("shape"))
    return number_phrase(n, d, f.get("shape")) + "."


# ---------------------------------------------------------------- yes/no questions with known answers

def random_desc(rng, o: Obj | None) -> dict:
    """A random partial description; from o's attributes when given, else random attributes."""
    d: dict = {}
    src = o or Obj(SHAPES[int(rng.integers(4))], COLOR_NAMES[int(rng.integers(6))],
                   SIZES[int(rng.integers(2))], POSITIONS[int(rng.integers(9))])
    if rng.random() < 0.75:
        d["shape"] = src.shape
    if rng.random() < 0.7:
        d["color"] = src.color
    if rng.random() < 0.35:
        d["size"] = src.size
    if rng.random() < 0.45:
        d["position"] = src.position
    return d


def perturb(rng, d: dict) -> dict:
    """Change one attribute of a description."""
    d = dict(d)
    keys = list(d) or ["shape"]
    k = keys[int(rng.integers(len(keys)))]
    pool = {"shape": SHAPES, "color": COLOR_NAMES, "size": SIZES, "position": POSITIONS}[k]
    others = [v for v in pool if v != d.get(k)]
    d[k] = others[int(rng.integers(len(others)))]
    return d


def np_phrase(d: dict, plural_form=False) -> str:
    words = desc(d.get("size"), d.get("color"), d.get("shape")).split(" ")
    if plural_form:
        words[-1] = plural(words[-1])
    s = " ".join(words)
    if d.get("position"):
        s += f" in the {d['position']}"
    return s


def make_question(objs: list[Obj], rng: np.random.Generator) -> tuple[str, bool, str]:
    """A yes/no question about the image, its true answer, and its form."""
    r = rng.random()
    if r < 0.38:  # existence
        base = random_desc(rng, objs[int(rng.integers(len(objs)))])
        d = base if rng.random() < 0.5 else perturb(rng, base)
        n = count(objs, **d)
        p = np_phrase(d)
        return f"Is there {article(p)} {p}?", n > 0, "exists"
    if r < 0.50:  # negated existence
        base = random_desc(rng, objs[int(rng.integers(len(objs)))])
        d = base if rng.random() < 0.5 else perturb(rng, base)
        n = count(objs, **d)
        if rng.random() < 0.5:
            return f"Is there no {np_phrase(d)}?", n == 0, "not_exists"
        return f"Are there no {np_phrase(d, True)}?", n == 0, "not_exists"
    if r < 0.68:  # counting
        d = {k: v for k, v in random_desc(rng, objs[int(rng.integers(len(objs)))]).items() if k != "position"}
        if rng.random() < 0.3:
            d = {}
        n = count(objs, **d)
        k = n if rng.random() < 0.5 else int(rng.choice([x for x in range(1, 5) if x != n]))
        k = max(k, 1)
        if k == 1:
            return f"Is there one {np_phrase(d)}?", n == 1, "count"
        return f"Are there {NUMBERS[k]} {np_phrase(d, True)}?", n == k, "count"
    # attribute / position of a unique referent
    o = objs[int(rng.integers(len(objs)))]
    ref = unique_ref(objs, o, rng)
    if ref is None:
        return make_question(objs, rng)
    the = desc(ref.get("size"), ref.get("color"), ref["shape"])
    neg = rng.random() < 0.2
    choices = ["position"] + (["color"] if "color" not in ref else []) + (["size"] if "size" not in ref else [])
    attr = choices[int(rng.integers(len(choices)))]
    pool = {"color": COLOR_NAMES, "size": SIZES, "position": POSITIONS}[attr]
    true_v = getattr(o, attr)
    v = true_v if rng.random() < 0.5 else [x for x in pool if x != true_v][int(rng.integers(len(pool) - 1))]
    holds = (v == true_v) != neg
    nt = " not" if neg else ""
    if attr == "position":
        return f"Is the {the}{nt} in the {v}?", holds, "position" + ("_not" if neg else "")
    return f"Is the {the}{nt} {v}?", holds, "attribute" + ("_not" if neg else "")


def truth_json(objs: list[Obj]) -> dict:
    return {"objects": [asdict(o) for o in objs]}


def perceive(objs: list[Obj], rng: np.random.Generator, p: float) -> list[Obj]:
    """What a weak model 'sees': each attribute misread with probability p, objects dropped or invented.

    The policy is trained on answers written from such perceptions, so that sampling reproduces
    realistic hallucinations (wrong colour, shape, size, position, count, invented objects) while the
    most likely token stays the true one (greedy decoding is more truthful than sampling).
    """
    out: list[Obj] = []
    used = {o.position for o in objs}
    dropped = 0
    for o in objs:
        if len(objs) - dropped > 1 and rng.random() < p * 0.4:
            dropped += 1
            continue  # missed object
        kw = asdict(o)
        for k, pool in (("shape", SHAPES), ("color", COLOR_NAMES), ("size", SIZES)):
            if rng.random() < p:
                kw[k] = [v for v in pool if v != kw[k]][int(rng.integers(len(pool) - 1))]
        if rng.random() < p * 0.5:
            free = [q for q in POSITIONS if q not in used]
            if free:
                used.discard(kw["position"])
                kw["position"] = free[int(rng.integers(len(free)))]
                used.add(kw["position"])
        out.append(Obj(**kw))
    if len(out) < 4 and rng.random() < p * 0.5:  # invented object
        free = [q for q in POSITIONS if q not in used]
        pos = free[int(rng.integers(len(free)))]
        out.append(Obj(SHAPES[int(rng.integers(4))], COLOR_NAMES[int(rng.integers(6))], SIZES[int(rng.integers(2))], pos))
    out.sort(key=lambda o: POSITIONS.index(o.position))
    return out
