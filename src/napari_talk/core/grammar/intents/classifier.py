"""A softmax regression from sentence vectors to commands, in numpy: small enough to ship (a
matrix of the vector's width by the commands), fast to apply (one product per line), and
trained the same way every time (zero start, full-batch steps, no randomness of its own)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

STEPS = 300
RATE = 0.05
L2 = 1e-4


@dataclass(frozen=True)
class IntentModel:
    """Weights over the sentence vectors, one column per action; ``tag``: what was embedded, and by
    which model (a model kept for other phrasings or another sentence model is not used)."""

    actions: tuple[str, ...]
    weights: np.ndarray
    bias: np.ndarray
    tag: str = ""

    def probabilities(self, vector: np.ndarray) -> np.ndarray:
        """How likely each of :attr:`actions` is, for one unit-length vector."""
        logits = vector.astype(np.float32) @ self.weights + self.bias
        logits -= logits.max()
        exp = np.exp(logits)
        return exp / exp.sum()

    def save(self, path: Path) -> None:
        np.savez_compressed(
            path,
            actions=np.array(self.actions),
            weights=self.weights.astype(np.float16),
            bias=self.bias.astype(np.float32),
            tag=np.array(self.tag),
        )

    @classmethod
    def load(cls, path: Path) -> IntentModel:
        with np.load(path, allow_pickle=False) as kept:
            return cls(
                tuple(str(a) for a in kept["actions"]),
                kept["weights"].astype(np.float32),
                kept["bias"].astype(np.float32),
                str(kept["tag"]),
            )


def train(
    vectors: np.ndarray, labels: Sequence[str], tag: str = "", steps: int = STEPS, rate: float = RATE
) -> IntentModel:
    """Softmax regression with a little L2, by Adam on the whole set at each step (deterministic:
    the same vectors and labels give the same weights)."""
    actions = tuple(sorted(set(labels)))
    index = {a: i for i, a in enumerate(actions)}
    y = np.array([index[a] for a in labels])
    x = vectors.astype(np.float32)
    n, width = x.shape
    classes = len(actions)
    # every command weighs the same, however many phrasings its rules have
    counts = np.bincount(y, minlength=classes).astype(np.float32)
    sample_weight = (n / (classes * counts))[y] / n
    onehot = np.zeros((n, classes), np.float32)
    onehot[np.arange(n), y] = 1.0
    w = np.zeros((width, classes), np.float32)
    b = np.zeros(classes, np.float32)
    m = [np.zeros_like(w), np.zeros_like(b)]
    v = [np.zeros_like(w), np.zeros_like(b)]
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    for step in range(1, steps + 1):
        logits = x @ w + b
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        err = (p - onehot) * sample_weight[:, None]
        grads = [x.T @ err + L2 * w, err.sum(axis=0)]
        for i, (param, grad) in enumerate(zip((w, b), grads, strict=True)):
            m[i] = beta1 * m[i] + (1 - beta1) * grad
            v[i] = beta2 * v[i] + (1 - beta2) * grad * grad
            update = rate * (m[i] / (1 - beta1**step)) / (np.sqrt(v[i] / (1 - beta2**step)) + eps)
            param -= update.astype(np.float32)
    return IntentModel(actions, w, b, tag)
