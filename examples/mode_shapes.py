#!/usr/bin/env python3
"""Mode shapes of elastic blades from `orchestrator modes` (DIR/mode_shapes.json).

Draws, for one sweep point, the flap (u.z), lag (u.y) and torsion (psi.x) of the lowest modes
along the span, one panel each, into DIR/mode_shapes.svg (or DIR/mode_shapes-POINT.svg with
--point). Each mode is drawn on the blade or multiblade coordinate that carries the largest value
of its kind's component (the shapes are scaled so that value is 1); the clamp is drawn at zero
one element inboard of the first node (RotorElastic's elements are equal). Usage:

    orchestrator modes examples/rotor-elastic-vacuum.json --out fan \\
        --sweep rotor.Omega=5,10,20,30,44.401,55
    python3 examples/mode_shapes.py fan [--point 4] [--modes 6]
"""

import argparse
import json
import pathlib

PANELS = [("flap", 2, "flap u.z"), ("lag", 1, "lag u.y"), ("torsion", 3, "torsion psi.x")]
COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"]
KIND_COMPONENT = {"flap": 2, "lag": 1, "torsion": 3, "axial": 0}


def drawn_blade(mode):
    """The blade (or multiblade coordinate) with the largest value of the mode's own component."""
    c = KIND_COMPONENT[mode["kind"]]
    return max(mode["blades"], key=lambda b: max(abs(complex(re[c], im[c])) for re, im in zip(b["re"], b["im"])))


def curve(blade, component):
    """(radius, value) along the blade with the clamp at zero: the real part of the shape."""
    r = blade["r"]
    values = [q[component] for q in blade["re"]]
    clamp = 2 * r[0] - r[1] if len(r) > 1 else 0.0
    return [clamp] + r, [0.0] + values


def svg(modes, title):
    """Three panels (flap, lag, torsion) of the shapes of `modes` as SVG text."""
    width, panel, pad, legend = 760, 220, 55, 16 * len(modes) + 20
    height = pad + len(PANELS) * (panel + pad) + legend
    curves = [(m, curve(drawn_blade(m), c)) for m in modes for _, c, _ in PANELS]
    r_all = [r for _, (rs, _) in curves for r in rs]
    r_lo, r_hi = min(r_all), max(r_all)
    sx = lambda r: pad + (width - 2 * pad) * (r - r_lo) / max(r_hi - r_lo, 1e-12)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}">',
             f'<rect width="{width}" height="{height}" fill="white"/>',
             f'<text x="{width / 2}" y="22" text-anchor="middle" font-size="14">{title}</text>']
    for p, (_, component, label) in enumerate(PANELS):
        top = pad + p * (panel + pad)
        values = [v for m in modes for v in curve(drawn_blade(m), component)[1]]
        scale = max(max(abs(v) for v in values), 1e-12)
        sy = lambda v: top + panel / 2 - (panel / 2 - 5) * v / scale
        parts += [f'<rect x="{pad}" y="{top}" width="{width - 2 * pad}" height="{panel}" fill="none" stroke="#888"/>',
                  f'<line x1="{pad}" y1="{sy(0)}" x2="{width - pad}" y2="{sy(0)}" stroke="#ccc"/>',
                  f'<text x="{pad + 4}" y="{top + 14}" font-size="12">{label} (largest {scale:.3g})</text>',
                  f'<text x="{width / 2}" y="{top + panel + 30}" text-anchor="middle" font-size="11">'
                  f'radius r (m)</text>',
                  f'<text x="{pad}" y="{top + panel + 14}" font-size="10">{r_lo:.3g}</text>',
                  f'<text x="{width - pad}" y="{top + panel + 14}" text-anchor="end" font-size="10">{r_hi:.3g}</text>']
        for k, mode in enumerate(modes):
            rs, vs = curve(drawn_blade(mode), component)
            path = " ".join(f"{sx(r):.1f},{sy(v):.1f}" for r, v in zip(rs, vs))
            parts.append(f'<polyline points="{path}" fill="none" stroke="{COLOURS[k % len(COLOURS)]}" '
                         f'stroke-width="1.5"/>')
    y0 = pad + len(PANELS) * (panel + pad)
    for k, mode in enumerate(modes):
        text = f'{mode["name"]}: {mode["frequency_hz"]:.4g} Hz (blade {drawn_blade(mode)["blade"]})'
        parts.append(f'<text x="{pad}" y="{y0 + 16 * k}" font-size="12" fill="{COLOURS[k % len(COLOURS)]}">'
                     f'{text}</text>')
    parts.append("</svg>")
    return "\n".join(parts)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", type=pathlib.Path)
    parser.add_argument("--point", type=int, help="sweep point (default: the last one)")
    parser.add_argument("--modes", type=int, default=6, help="how many of the lowest modes")
    args = parser.parse_args()
    points = json.loads((args.dir / "mode_shapes.json").read_text())["points"]
    point = points[-1] if args.point is None else next(p for p in points if p["point"] == args.point)
    modes = point["modes"][: args.modes]
    values = ", ".join(f"{name} = {value:g}" for name, value in point["values"].items()) or "start"
    name = "mode_shapes.svg" if args.point is None else f"mode_shapes-{args.point}.svg"
    (args.dir / name).write_text(svg(modes, f"mode shapes at {values}"))
    print(f"wrote {args.dir / name}")


if __name__ == "__main__":
    main()
