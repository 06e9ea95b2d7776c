"""Analyses of the ray tree: paths ranked by energy, and energy conservation at every interaction.

Both return plain JSON-serializable dicts and lists, vectorized over all segments.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .simulation import INTERACTIONS, RayLineage

RELATIVE_TOLERANCE = 1e-9
"""How far (relative to the parent) an interaction's energy balance may be off by rounding."""
MAX_LISTED_VIOLATIONS = 20


def rank_paths_by_energy(lineage: RayLineage, top_n: int | None = None) -> list[dict[str, Any]]:
    """Optical paths (source → leaf) ranked by the brightness of their last segment, highest first.

    Each entry: uuid and id of the leaf, energy (s + p), energy_s, energy_p, path_length,
    path_types (interaction of each segment) and path_ids / path_uuids from the source down.
    """
    if top_n is not None and top_n < 1:
        raise ValueError("top_n must be at least 1")
    segments = lineage.segments
    leaves = lineage.leaves()
    energy = segments.total[leaves]
    if top_n is not None and top_n < len(leaves):
        best = np.argpartition(-energy, top_n - 1)[:top_n]
        leaves, energy = leaves[best], energy[best]
    order = np.lexsort((leaves, -energy))  # highest energy first, ties by id
    ranked = []
    for leaf in leaves[order]:
        path = lineage.get_full_path(int(leaf))
        ranked.append(
            {
                "uuid": segments.uuid_of(leaf),
                "id": int(leaf),
                "energy": float(segments.total[leaf]),
                "energy_s": float(segments.brightness_s[leaf]),
                "energy_p": float(segments.brightness_p[leaf]),
                "path_length": len(path),
                "path_types": [INTERACTIONS[segments.interaction[i]] for i in path],
                "path_ids": path,
                "path_uuids": [segments.uuid_of(i) for i in path],
            }
        )
    return ranked


def check_energy_conservation(lineage: RayLineage) -> dict[str, Any]:
    """Check every interaction: the children's energy must not exceed the parent's, and children
    plus the energy truncated there must equal it.

    Keys: total_checks (interactions checked), violations (the first few), violation_count,
    max_excess_ratio (largest children / parent), max_imbalance (largest relative gap),
    is_valid, and the global balance: source, escaped and truncated energy.
    """
    segments = lineage.segments
    total = segments.total
    parents = segments.parent
    child = parents >= 0
    share = total if segments.weight is None else total * segments.weight
    children_sum = np.bincount(parents[child], weights=share[child], minlength=len(segments))
    interacted = (lineage.child_count > 0) | (segments.lost > 0)
    checked = np.flatnonzero(interacted & (total > 1e-12))
    parent_energy = total[checked]
    ratio = children_sum[checked] / parent_energy
    imbalance = np.abs(parent_energy - children_sum[checked] - segments.lost[checked]) / parent_energy
    bad = (ratio > 1 + RELATIVE_TOLERANCE) | (imbalance > RELATIVE_TOLERANCE)
    violations = []
    for position in np.flatnonzero(bad)[:MAX_LISTED_VIOLATIONS]:
        parent = int(checked[position])
        kids = lineage.get_children(parent)
        violations.append(
            {
                "parent_uuid": segments.uuid_of(parent),
                "parent_id": parent,
                "parent_energy": float(total[parent]),
                "child_energy_sum": float(children_sum[parent]),
                "truncated_energy": float(segments.lost[parent]),
                "excess_ratio": float(ratio[position]),
                "child_types": [INTERACTIONS[segments.interaction[k]] for k in kids],
            }
        )
    source = float(total[~child].sum())
    escaped = float(total[segments.escaped].sum())
    truncated = float(segments.lost.sum())
    return {
        "total_checks": len(checked),
        "violations": violations,
        "violation_count": int(bad.sum()),
        "max_excess_ratio": float(ratio.max()) if len(ratio) else 1.0,
        "max_imbalance": float(imbalance.max()) if len(imbalance) else 0.0,
        "is_valid": not bad.any(),
        "source_energy": source,
        "escaped_energy": escaped,
        "truncated_energy": truncated,
        "balance_error": source - escaped - truncated,
    }
