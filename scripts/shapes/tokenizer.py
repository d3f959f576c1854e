"""A word-level tokenizer in the Hugging Face `tokenizer.json` format (WordPiece over whole words).

Whole words keep the tiny models small and their first-token yes/no distribution easy to read,
while transformers.js still loads it through its ordinary tokenizer code (BertPreTokenizer splits
on spaces and punctuation; the WordPiece decoder's cleanup glues '.' ',' '?' back on).
"""
from __future__ import annotations

import json
import os
import re
import unicodedata

SPECIALS = ["<pad>", "<s>", "</s>", "<unk>", "<image>"]
PAD, BOS, EOS, UNK, IMAGE = range(5)
IMAGE_TOKENS = 9   # one token per cell of the 3x3 grid (LlavaProcessor: floor(64/21)^2 = 9)
# Words every model knows even if the corpus never used them: the chat roles and both answer cases.
BASE_WORDS = ["USER", "ASSISTANT", ":", ".", ",", "?", "Yes", "yes", "No", "no", "Please", "answer", "or"]


def _is_punct(ch: str) -> bool:
    cp = ord(ch)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(ch).startswith("P")


def pre_tokenize(text: str) -> list[str]:
    """Mirror of BertPreTokenizer: split on whitespace, then every punctuation char is its own piece."""
    out: list[str] = []
    for word in text.split():
        cur = ""
        for ch in word:
            if _is_punct(ch):
                if cur:
                    out.append(cur)
                    cur = ""
                out.append(ch)
            else:
                cur += ch
        if cur:
            out.append(cur)
    return out


class Tokenizer:
    def __init__(self, words: list[str]):
        self.itos = SPECIALS + words
        self.stoi = {w: i for i, w in enumerate(self.itos)}

    @classmethod
    def from_corpus(cls, texts) -> "Tokenizer":
        seen = set(BASE_WORDS)
        for t in texts:
            seen.update(pre_tokenize(t))
        return cls(sorted(seen))

    def encode(self, text: str) -> list[int]:
        ids: list[int] = []
        # '<image>' is an added token: matched before pre-tokenization, as in transformers.js.
        for k, part in enumerate(text.split("<image>")):
            if k:
                ids.append(IMAGE)
            ids.extend(self.stoi.get(w, UNK) for w in pre_tokenize(part))
        return ids

    def decode(self, ids) -> str:
        s = " ".join(self.itos[i] for i in ids if i >= len(SPECIALS) or i == UNK)
        return re.sub(r" ([.,?!:])", r"\1", s)

    def __len__(self) -> int:
        return len(self.itos)

    def to_json(self) -> dict:
        added = [{"id": i, "content": t, "single_word": False, "lstrip": False, "rstrip": False,
                  "normalized": False, "special": True} for i, t in enumerate(SPECIALS)]
        return {
            "version": "1.0",
            "truncation": None,
            "padding": None,
            "added_tokens": added,
            "normalizer": None,
            "pre_tokenizer": {"type": "BertPreTokenizer"},
            "post_processor": None,
            "decoder": {"type": "WordPiece", "prefix": "##", "cleanup": True},
            "model": {"type": "WordPiece", "unk_token": "<unk>", "continuing_subword_prefix": "##",
                      "max_input_chars_per_word": 100, "vocab": self.stoi},
        }


# LLaVA-1.5's conversation format, as a Jinja chat template.
CHAT_TEMPLATE = (
    "{% for message in messages %}"
    "{% if message['role'] == 'user' %}USER: "
    "{% if message['content'] is string %}{{ message['content'] }}"
    "{% else %}{% for part in message['content'] %}"
    "{% if part['type'] == 'image' %}<image>\n{% elif part['type'] == 'text' %}{{ part['text'] }}{% endif %}"
    "{% endfor %}{% endif %} "
    "{% elif message['role'] == 'assistant' %}ASSISTANT: "
    "{% if message['content'] is string %}{{ message['content'] }}"
    "{% else %}{% for part in message['content'] %}{% if part['type'] == 'text' %}{{ part['text'] }}{% endif %}{% endfor %}{% endif %}"
    "</s> {% endif %}{% endfor %}"
    "{% if add_generation_prompt %}ASSISTANT:{% endif %}"
)


def prompt_text(question: str) -> str:
    """What CHAT_TEMPLATE renders for one user turn with an image, plus the generation prompt."""
    return f"USER: <image>\n{question} ASSISTANT:"


def tokenizer_config(model_max_length: int = 160) -> dict:
    return {
        "tokenizer_class": "PreTrainedTokenizerFast",
        "model_max_length": model_max_length,
        "bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>", "pad_token": "<pad>",
        "padding_side": "left",
        "clean_up_tokenization_spaces": True,
        "chat_template": CHAT_TEMPLATE,
    }


def load_tokenizer(folder: str) -> Tokenizer:
    """The folder's word-level tokenizer (tokenizer.json's vocabulary, in id order)."""
    vocab = json.load(open(os.path.join(folder, "tokenizer.json")))["model"]["vocab"]
    itos = [t for t, _ in sorted(vocab.items(), key=lambda kv: kv[1])]
    if itos[: len(SPECIALS)] != SPECIALS:
        raise ValueError(f"{folder}/tokenizer.json: the first tokens are {itos[:5]}, not {SPECIALS}")
    return Tokenizer(itos[len(SPECIALS):])
