"""XML for agents: ray segments in the layout of ray_tracing_shapely's ``rays_to_xml``, and the other results.

``<rays count=N><ray index=i><uuid/><p1 x y/><p2 x y/><length/><brightness_s/><brightness_p/>
<brightness_total/><polarization_ratio/><degree_of_polarization/>…</ray></rays>``, then (this
project's additions) the wavelength when colours are simulated, the interaction type, the parent's
uuid and the generation.
"""

from __future__ import annotations

import re
from typing import Any
from xml.sax import saxutils

from .edges import get_side_descriptions
from .scene import Glass
from .simulation import Segments

HEADER = '<?xml version="1.0" encoding="UTF-8"?>'
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff\ufffe\uffff]")
"""Characters XML 1.0 does not allow, even escaped (control characters a scene's names may hold)."""


def escape(text: str) -> str:
    """``text`` as XML character data: markup escaped, characters XML forbids shown as U+FFFD."""
    return saxutils.escape(_NOT_XML.sub("\ufffd", text))


def quoteattr(text: str) -> str:
    """``text`` as a quoted XML attribute value, as :func:`escape` cleans it."""
    return saxutils.quoteattr(_NOT_XML.sub("\ufffd", text))


def rays_to_xml(segments: Segments, precision_coords: int = 4, precision_brightness: int = 6) -> str:
    """Every segment with its geometry, brightness per polarization and lineage, as an XML string."""
    return ray_records_to_xml(segments.records(), None, precision_coords, precision_brightness)


def ray_records_to_xml(
    records: list[dict[str, Any]],
    count: int | None = None,
    precision_coords: int = 4,
    precision_brightness: int = 6,
) -> str:
    """The same XML from :meth:`Segments.records` rows; when ``count`` (all the matches) exceeds the
    rows listed, ``<rays>`` says so with ``listed``."""
    c, b = f"{{:.{precision_coords}f}}", f"{{:.{precision_brightness}f}}"
    total = len(records) if count is None else count
    listed = f' listed="{len(records)}"' if total != len(records) else ""
    lines = [HEADER, f'<rays count="{total}"{listed}>']
    for i, ray in enumerate(records):
        (x1, y1), (x2, y2) = ray["p1"], ray["p2"]
        ratio = ray["polarization_ratio"]
        lines += [
            f'  <ray index="{i}">',
            f"    <uuid>{ray['uuid']}</uuid>",
            f'    <p1 x="{c.format(x1)}" y="{c.format(y1)}"/>',
            f'    <p2 x="{c.format(x2)}" y="{c.format(y2)}"/>',
            f"    <length>{c.format(ray['length'])}</length>",
            f"    <brightness_s>{b.format(ray['brightness_s'])}</brightness_s>",
            f"    <brightness_p>{b.format(ray['brightness_p'])}</brightness_p>",
            f"    <brightness_total>{b.format(ray['brightness_total'])}</brightness_total>",
            f"    <polarization_ratio>{'inf' if ratio is None else b.format(ratio)}</polarization_ratio>",
            f"    <degree_of_polarization>{b.format(ray['degree_of_polarization'])}</degree_of_polarization>",
        ]
        if ray.get("wavelength") is not None:
            lines.append(f"    <wavelength>{ray['wavelength']:g}</wavelength>")
        lines.append(f"    <interaction_type>{ray['interaction']}</interaction_type>")
        if ray.get("parent_uuid"):
            lines.append(f"    <parent_uuid>{ray['parent_uuid']}</parent_uuid>")
        lines += [f"    <generation>{ray['generation']}</generation>", "  </ray>"]
    lines.append("</rays>")
    return "\n".join(lines)


def paths_to_xml(paths: list[dict[str, Any]]) -> str:
    """The result of ``rank_paths_by_energy`` as XML, ranks from 1."""
    lines = [HEADER, f'<paths count="{len(paths)}">']
    for rank, path in enumerate(paths, start=1):
        lines += [
            f'  <path rank="{rank}">',
            f"    <uuid>{path['uuid']}</uuid>",
            f"    <energy>{path['energy']:.6f}</energy>",
            f"    <energy_s>{path['energy_s']:.6f}</energy_s>",
            f"    <energy_p>{path['energy_p']:.6f}</energy_p>",
            f"    <path_length>{path['path_length']}</path_length>",
            f"    <path_types>{' '.join(path['path_types'])}</path_types>",
            "    <segments>",
            *(f"      <uuid>{u}</uuid>" for u in path["path_uuids"]),
            "    </segments>",
            "  </path>",
        ]
    lines.append("</paths>")
    return "\n".join(lines)


def energy_report_to_xml(report: dict[str, Any]) -> str:
    """The result of ``check_energy_conservation`` as XML."""
    lines = [
        HEADER,
        f'<energy_conservation is_valid="{str(report["is_valid"]).lower()}">',
        f"  <total_checks>{report['total_checks']}</total_checks>",
        f"  <max_excess_ratio>{report['max_excess_ratio']:.12f}</max_excess_ratio>",
        f"  <max_imbalance>{report['max_imbalance']:.3e}</max_imbalance>",
        f"  <source_energy>{report['source_energy']:.6f}</source_energy>",
        f"  <escaped_energy>{report['escaped_energy']:.6f}</escaped_energy>",
        f"  <truncated_energy>{report['truncated_energy']:.6f}</truncated_energy>",
        f"  <balance_error>{report['balance_error']:.3e}</balance_error>",
        f'  <violations count="{report["violation_count"]}">',
    ]
    for v in report["violations"]:
        lines += [
            "    <violation>",
            f"      <parent_uuid>{v['parent_uuid']}</parent_uuid>",
            f"      <parent_energy>{v['parent_energy']:.9f}</parent_energy>",
            f"      <child_energy_sum>{v['child_energy_sum']:.9f}</child_energy_sum>",
            f"      <truncated_energy>{v['truncated_energy']:.9f}</truncated_energy>",
            f"      <excess_ratio>{v['excess_ratio']:.9f}</excess_ratio>",
            f"      <child_types>{' '.join(v['child_types'])}</child_types>",
            "    </violation>",
        ]
    lines += ["  </violations>", "</energy_conservation>"]
    return "\n".join(lines)


def fresnel_to_xml(values: dict[str, Any]) -> str:
    """The result of ``fresnel_transmittances`` as XML; absent values (None) become empty elements."""
    lines = [HEADER, "<fresnel>"]
    for key, value in values.items():
        if value is None:
            lines.append(f"  <{key}/>")
        elif isinstance(value, bool):
            lines.append(f"  <{key}>{str(value).lower()}</{key}>")
        else:
            lines.append(f"  <{key}>{value:.10g}</{key}>")
    lines.append("</fresnel>")
    return "\n".join(lines)


def edges_to_xml(glass: Glass) -> str:
    """A glass and its edges, in the layout of the seed library's ``describe_edges(format='xml')``
    (an arc as one entry naming its facets' labels)."""
    edges = [edge.to_dict() for edge in get_side_descriptions(glass)]
    return edge_records_to_xml(glass.name, glass.ref_index, edges)


def edge_records_to_xml(name: str, ref_index: float, edges: list[dict[str, Any]]) -> str:
    """The same XML from :meth:`EdgeDescription.to_dict` rows."""
    lines = [
        HEADER,
        "<glass_edges>",
        "  <glass_info>",
        f"    <name>{escape(name)}</name>",
        "    <type>Glass</type>",
        f"    <edge_count>{len(edges)}</edge_count>",
        f"    <total_perimeter>{sum(e['length'] for e in edges):.2f}</total_perimeter>",
        f"    <refractive_index>{ref_index:g}</refractive_index>",
        "  </glass_info>",
        "  <edges>",
    ]
    for e in edges:
        (x1, y1), (x2, y2), (mx, my), (nx, ny) = e["p1"], e["p2"], e["midpoint"], e["normal"]
        lines += [
            f"    <edge index={quoteattr(str(e['index']))} short_label={quoteattr(e['short_label'])}"
            f" long_label={quoteattr(e['long_label'])}>",
            "      <type>line</type>",
            f"      <length>{e['length']:.2f}</length>",
            f'      <p1 x="{x1:.4f}" y="{y1:.4f}"/>',
            f'      <p2 x="{x2:.4f}" y="{y2:.4f}"/>',
            f'      <midpoint x="{mx:.4f}" y="{my:.4f}"/>',
            f'      <normal x="{nx:.6f}" y="{ny:.6f}"/>',
            "    </edge>",
        ]
    lines += ["  </edges>", "</glass_edges>"]
    return "\n".join(lines)


RAY_QUERIES = {
    "find_rays_inside_glass",
    "find_rays_crossing_edge",
    "find_rays_by_angle_to_edge",
    "find_rays_by_polarization",
}


def result_to_xml(action: str, ok: bool, data: Any) -> str | None:
    """What an agent reads from a query: ray_tracing_shapely's XML, written from the Result's data (at most
    the handlers' ``MAX_RECORDS`` rays listed; ``count`` is all of them). Other results and errors: JSON."""
    if not ok or not isinstance(data, (dict, list)):
        return None
    payload: Any = data
    if action in RAY_QUERIES:
        return ray_records_to_xml(payload["rays"], payload["count"])
    if action == "rank_paths_by_energy":
        return paths_to_xml(payload)
    if action == "check_energy_conservation":
        return energy_report_to_xml(payload)
    if action == "fresnel_transmittances":
        return fresnel_to_xml(payload)
    if action == "describe_glass_edges":
        return edge_records_to_xml(payload["glass"], payload["ref_index"], payload["edges"])
    return None
