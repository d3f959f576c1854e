"""Writes a model folder in the layout transformers.js loads as LlavaForConditionalGeneration + LlavaProcessor."""
from __future__ import annotations

import json
import os
import sys

from model import IMAGE_TOKENS, TinyLlava, export_onnx
from onnx_weights import write_onnx_like
from tokenizer import BOS, EOS, IMAGE, PAD, Tokenizer, tokenizer_config, CHAT_TEMPLATE

MEAN = [0.5, 0.5, 0.5]
STD = [0.5, 0.5, 0.5]


def _dump(path: str, obj) -> None:
    with open(path, "w") as f:
        json.dump(obj, f, indent=2, sort_keys=False)
        f.write("\n")


def write_model_folder(m: TinyLlava, tok: Tokenizer, out_dir: str, name: str, parent: str | None = None) -> None:
    """The model folder; a trainer passes the folder it started from as `parent`, whose ONNX graphs then take the
    trained weights (the same bytes as tracing the export, without its cost: onnx_weights.write_onnx_like)."""
    c = m.cfg
    onnx_dir = os.path.join(out_dir, "onnx")
    if parent is None:
        export_onnx(m, onnx_dir)
    else:
        try:
            write_onnx_like(m, parent, onnx_dir)
        except ValueError as e:
            print(f"{parent}: its ONNX graphs do not fit the model ({e}); exporting by tracing", file=sys.stderr, flush=True)
            export_onnx(m, onnx_dir)
    _dump(os.path.join(out_dir, "config.json"), {
        "architectures": ["LlavaForConditionalGeneration"],
        "model_type": "llava",
        "_name_or_path": name,
        "image_token_index": IMAGE,
        "projector_hidden_act": "gelu",
        "vision_feature_layer": -1,
        "vision_feature_select_strategy": "full",
        "image_seq_length": IMAGE_TOKENS,
        "vision_config": {"model_type": "shapes_cnn", "image_size": 64, "patch_size": 21,
                          "hidden_size": c["vision_width"]},
        "text_config": {
            "model_type": "llama",
            "vocab_size": len(tok),
            "hidden_size": c["hidden"],
            "intermediate_size": c["ffn"],
            "num_hidden_layers": c["layers"],
            "num_attention_heads": c["heads"],
            "num_key_value_heads": c["heads"],
            "head_dim": c["hidden"] // c["heads"],
            "max_position_embeddings": c["max_pos"],
            "bos_token_id": BOS, "eos_token_id": EOS, "pad_token_id": PAD,
        },
        "bos_token_id": BOS, "eos_token_id": EOS, "pad_token_id": PAD,
        "transformers.js_config": {"dtype": "fp32"},
    })
    _dump(os.path.join(out_dir, "preprocessor_config.json"), {
        "processor_class": "LlavaProcessor",
        "image_processor_type": "CLIPImageProcessor",
        "do_convert_rgb": True,
        # As real CLIP processors: the shortest edge to 64 (bicubic), then a centre crop; a 64×64 image passes unchanged.
        "do_resize": True,
        "resample": 3,
        "do_center_crop": True,
        "do_rescale": True,
        "rescale_factor": 1 / 255,
        "do_normalize": True,
        "image_mean": MEAN,
        "image_std": STD,
        "size": {"shortest_edge": 64},
        "crop_size": {"height": 64, "width": 64},
    })
    _dump(os.path.join(out_dir, "processor_config.json"), {
        "processor_class": "LlavaProcessor",
        "image_token": "<image>",
        "patch_size": 21,
        "num_additional_image_tokens": 0,
        "vision_feature_select_strategy": "full",
    })
    with open(os.path.join(out_dir, "tokenizer.json"), "w") as f:
        json.dump(tok.to_json(), f, ensure_ascii=False)
    _dump(os.path.join(out_dir, "tokenizer_config.json"), tokenizer_config(c["max_pos"]))
    with open(os.path.join(out_dir, "chat_template.jinja"), "w") as f:
        f.write(CHAT_TEMPLATE)
    _dump(os.path.join(out_dir, "special_tokens_map.json"),
          {"bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>", "pad_token": "<pad>"})
    _dump(os.path.join(out_dir, "generation_config.json"), {
        "bos_token_id": BOS, "eos_token_id": EOS, "pad_token_id": PAD,
        "max_new_tokens": 96, "do_sample": True, "temperature": 0.7, "top_p": 1.0,
    })
