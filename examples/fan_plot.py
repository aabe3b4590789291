#!/usr/bin/env python3
"""Fan (Campbell) diagram of an elastic rotor from `orchestrator modes --sweep rotor.Omega=...`.

Reads DIR/modes.csv, names each oscillatory mode by the kind of its dominant state (the
`mode` column: `u.z`/`psi.y` flap, `u.y`/`psi.z` lag, `psi.x` torsion, `u.x` axial; with
`modes --multiblade` also its multiblade coordinate: collective, cyclic regressive or progressive,
differential) and its rank among the modes of that kind and coordinate at the same rotor speed
(1st flap, 2nd flap, 1st lag cyclic regressive, ...), and writes
DIR/fan.csv (Omega, frequency in rad/s and per rev, name) and DIR/fan.svg (frequency against
rotor speed, per-rev lines 1..6/rev). Usage:

    orchestrator modes examples/rotor-elastic-vacuum.json --out fan \\
        --sweep rotor.Omega=5,10,20,30,44.401,55
    python3 examples/fan_plot.py fan [--max-frequency 300] [--reference CSV]

`--reference CSV` adds reference frequencies as black dots: a CSV (`#` comment lines) whose first
column is the rotor speed in rad/s and whose other columns are frequencies in rad/s, e.g.
examples/rotating-beam-reference.csv for examples/rotating-beam.json.
"""

import argparse
import csv
import math
import pathlib
import re

KINDS = {"u.z": "flap", "psi.y": "flap", "u.y": "lag", "psi.z": "lag", "psi.x": "torsion", "u.x": "axial",
         "v.z": "flap", "w.y": "flap", "v.y": "lag", "w.z": "lag", "w.x": "torsion", "v.x": "axial"}
# A mode's dominant state group: `...node[k].u.z` (rotating frame) or, with `modes --multiblade`,
# `...node[k].u.z.collective`, `...cyclic regressive`, `...differential`.
GROUP = re.compile(r"\.(u|psi|v|w)\.([xyz])(?:\.(collective|differential|cyclic\d*))?( regressive| progressive)?$")
ORDINAL = {1: "1st", 2: "2nd", 3: "3rd"}
COLOURS = {"flap": "#1f77b4", "lag": "#d62728", "torsion": "#2ca02c", "axial": "#7f7f7f"}


def named_modes(modes_csv):
    """[(Omega, frequency rad/s, name)] of the modes with positive imaginary part."""
    by_point = {}
    with open(modes_csv) as f:
        for row in csv.DictReader(f):
            im = float(row["im [rad/s]"])
            if im <= 0.0:
                continue
            omega = float(list(row.values())[1])  # the swept parameter (the rotor speed)
            group = GROUP.search(row["mode"])
            kind = KINDS.get(f"{group[1]}.{group[2]}", "other") if group else "other"
            coordinate = " ".join(filter(None, [group[3], (group[4] or "").strip()])) if group else ""
            by_point.setdefault(omega, []).append((im, kind, coordinate))
    out = []
    for omega, modes in sorted(by_point.items()):
        rank = {}
        for im, kind, coordinate in sorted(modes):
            rank[kind, coordinate] = rank.get((kind, coordinate), 0) + 1
            n = rank[kind, coordinate]
            out.append((omega, im, " ".join(filter(None, [f"{ORDINAL.get(n, str(n) + 'th')} {kind}", coordinate]))))
    return out


def reference_points(path):
    """[(Omega, frequency rad/s)] of every frequency cell of a reference CSV."""
    with open(path) as f:
        rows = list(csv.reader(line for line in f if not line.startswith("#")))
    return [(float(row[0]), float(v)) for row in rows[1:] for v in row[1:]]


def tick_step(span):
    """A round tick spacing (1, 2 or 5 x 10^k) giving about five ticks over `span`."""
    raw = span / 5.0
    power = 10.0 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= raw)


def axis_ticks(sx, sy, x_max, y_max):
    """Axis lines with labelled ticks (SVG elements)."""
    parts = [f'<line x1="{sx(0)}" y1="{sy(0)}" x2="{sx(x_max)}" y2="{sy(0)}" stroke="black"/>',
             f'<line x1="{sx(0)}" y1="{sy(0)}" x2="{sx(0)}" y2="{sy(y_max)}" stroke="black"/>']
    for limit, along_x in ((x_max, True), (y_max, False)):
        step = tick_step(limit)
        for k in range(int(limit / step + 1e-9) + 1):
            v = k * step
            label = f"{v:g}"
            if along_x:
                parts.append(f'<line x1="{sx(v)}" y1="{sy(0)}" x2="{sx(v)}" y2="{sy(0) + 4}" stroke="black"/>'
                             f'<text x="{sx(v)}" y="{sy(0) + 16}" font-size="10" text-anchor="middle">{label}</text>')
            else:
                parts.append(f'<line x1="{sx(0) - 4}" y1="{sy(v)}" x2="{sx(0)}" y2="{sy(v)}" stroke="black"/>'
                             f'<text x="{sx(0) - 6}" y="{sy(v) + 3}" font-size="10" text-anchor="end">{label}</text>')
    return parts


def svg(rows, max_frequency, reference=()):
    """The fan diagram as SVG text; `reference` points (Omega, rad/s) as black dots."""
    width, height, pad = 640, 480, 50
    omegas = [r[0] for r in rows]
    x_max = max(omegas) * 1.05
    sx = lambda w: pad + (width - 2 * pad) * w / x_max
    sy = lambda f: height - pad - (height - 2 * pad) * min(f, max_frequency) / max_frequency
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}">',
             f'<rect width="{width}" height="{height}" fill="white"/>',
             f'<text x="{width / 2}" y="{height - 10}" text-anchor="middle">rotor speed Omega (rad/s)</text>',
             f'<text x="12" y="{height / 2}" transform="rotate(-90 12 {height / 2})" text-anchor="middle">'
             f'frequency (rad/s)</text>']
    parts += axis_ticks(sx, sy, x_max, max_frequency)
    for n in range(1, 7):
        parts.append(f'<line x1="{sx(0)}" y1="{sy(0)}" x2="{sx(x_max)}" y2="{sy(n * x_max)}" stroke="#bbb" '
                     f'stroke-dasharray="4 3"/><text x="{sx(min(x_max, max_frequency / n))}" '
                     f'y="{sy(min(n * x_max, max_frequency)) - 4}" font-size="10" fill="#888">{n}/rev</text>')
    names = sorted({r[2] for r in rows if r[1] <= max_frequency})
    for name in names:
        points = [(sx(w), sy(f)) for w, f, n in rows if n == name]
        colour = COLOURS.get(name.split()[1], "black")
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        parts.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="1.5"/>')
        x, y = points[-1]
        parts.append(f'<text x="{x + 3:.1f}" y="{y:.1f}" font-size="10" fill="{colour}">{name}</text>')
    for w, f in reference:
        if f <= max_frequency:
            parts.append(f'<circle cx="{sx(w):.1f}" cy="{sy(f):.1f}" r="3" fill="black"/>')
    parts.append("</svg>")
    return "\n".join(parts)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", type=pathlib.Path)
    parser.add_argument("--max-frequency", type=float, default=300.0, help="plot range, rad/s")
    parser.add_argument("--reference", type=pathlib.Path, help="reference frequencies CSV, drawn as dots")
    args = parser.parse_args()
    rows = named_modes(args.dir / "modes.csv")
    with open(args.dir / "fan.csv", "w") as f:
        f.write("Omega [rad/s],frequency [rad/s],frequency [/rev],mode\n")
        for omega, im, name in rows:
            per_rev = im / omega if omega > 0 else float("nan")
            f.write(f"{omega},{im},{per_rev},{name}\n")
    reference = reference_points(args.reference) if args.reference else ()
    (args.dir / "fan.svg").write_text(svg(rows, args.max_frequency, reference))
    print(f"wrote {args.dir / 'fan.csv'} and {args.dir / 'fan.svg'}")


if __name__ == "__main__":
    main()
