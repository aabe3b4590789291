"""Trim examples/bo105.json from hover to 70 m/s and compare with Padfield's Bo105 flight tests.

Each speed is trimmed by `orchestrator trim --speed V --out` (warm-started from the previous
speed's trimmed file); the main- and tail-rotor power are then averaged over one main-rotor
revolution of `orchestrator run` on the trimmed file with the airframe held on its trimmed motion
(`--set fuselage.dof_mask=0`, as the trim's own trials) after the trim's settling revolutions.
Writes DIR/bo105-trim.csv, DIR/bo105-trim.md (the table) and DIR/bo105-trim.svg.

    python3 examples/bo105/trim_sweep.py --out out/bo105 [--speeds 0,10,...] [--orchestrator PATH]
        [--fuselage table|drag-area]

Needs ROTORCRAFT_FMU_DIR or a built workspace, as `orchestrator trim` does (examples/README.md).
"""

import argparse
import csv
import json
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import padfield_bo105 as ref  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SYSTEM = os.path.join(ROOT, "examples", "bo105.json")


def run_held(orchestrator, system, speed, out_dir, revolutions, outputs, sets=()):
    """Runs `system` with the airframe held on its motion (dof_mask = 0, as the trim's trials)
    for `revolutions` main-rotor revolutions; returns the rows of the last one."""
    with open(system) as f:
        description = json.load(f)
    step = description["experiment"]["step"]
    omega = description["fmus"]["rotor"]["parameters"]["Omega"]
    steps_per_rev = round(2 * math.pi / omega / step)
    results = os.path.join(out_dir, f"held-{speed:g}.csv")
    command = [orchestrator, "run", system, "--set", "fuselage.dof_mask=0",
               "--stop", str(revolutions * steps_per_rev * step), "--out", results]
    for name in outputs:
        command += ["--output", name]
    for s in sets:
        command += ["--set", s]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    with open(results) as f:
        return list(csv.DictReader(f))[-steps_per_rev:]


def trim(orchestrator, system, speed, out_dir):
    """Trims `system` at `speed`; returns (trimmed file, summary).

    The trim carries only the rotors' states from trial to trial; the Aero's Pitt-Peters inflow
    restarts at its lambda*_start parameters in every trial and, started far from its forward-
    flight value, keeps the trim from converging. So: (1) trim with the quasi-steady momentum
    inflow (inflow_model = 1), (2) settle the Pitt-Peters states on that trim with the airframe
    held, (3) trim with Pitt-Peters started there (the starts are kept in the trimmed file)."""
    trimmed = os.path.join(out_dir, f"trim-{speed:g}.json")
    summary = os.path.join(out_dir, f"trim-{speed:g}.summary.json")
    subprocess.run([orchestrator, "trim", system, "--speed", str(speed), "--set", "aero.inflow_model=1",
                    "--out", trimmed], check=True, stdout=subprocess.DEVNULL)
    states = ["aero.inflow", "aero.inflow_s", "aero.inflow_c"]
    last = run_held(orchestrator, trimmed, speed, out_dir, 10, states, ["aero.inflow_model=2"])[-1]
    starts = [f"aero.{name}_start={float(last[state])!r}"
              for name, state in zip(["lambda0", "lambda_s", "lambda_c"], states)]
    command = [orchestrator, "trim", system, "--speed", str(speed), "--out", trimmed,
               "--summary-json", summary]
    for s in starts:
        command += ["--set", s]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    with open(summary) as f:
        return trimmed, json.load(f)


def revolution_mean_power(orchestrator, trimmed, out_dir, speed):
    """Main- and tail-rotor power (W) averaged over the last of settle + 1 revolutions."""
    with open(trimmed) as f:
        revolutions = json.load(f)["trim"].get("settle_revolutions", 1) + 1
    rows = run_held(orchestrator, trimmed, speed, out_dir, revolutions, ["aero.power", "tail_aero.power"])
    main = sum(float(r["aero.power"]) for r in rows) / len(rows)
    tail = sum(float(r["tail_aero.power"]) for r in rows) / len(rows)
    return main, tail


def flight_test(speed):
    """Padfield's flight-test values interpolated at `speed` (NaN beyond the tests' speeds)."""
    inside = speed <= ref.THETA0_DEG[-1][0] * ref.KNOT
    series = {"test_theta0_centre_deg": ref.THETA0_DEG, "test_theta1s_deg": ref.THETA1S_DEG,
              "test_theta1c_deg": ref.THETA1C_DEG, "test_pitch_deg": ref.PITCH_DEG,
              "test_power_kw": ref.POWER_KW}
    return {k: ref.interpolate(v, speed) if inside else math.nan for k, v in series.items()}


def drag_area_only(out_dir):
    """examples/bo105.json with the fuselage as its drag area alone (the example before the
    fuselage table: `drag_area` = the table's D/q at zero angles, 580.6 N / q_100 = 1.0203 m^2,
    no lift, side force or moments); returns the path of the copy written to `out_dir`."""
    with open(SYSTEM) as f:
        description = json.load(f)
    fuselage = description["fmus"]["fuselage"]["parameters"]
    fuselage.pop("fuselage_table_file")
    fuselage["drag_area"] = 1.0203
    description["outputs"] = [o for o in description["outputs"] if not o.startswith("fuselage.fuselage.")]
    path = os.path.join(out_dir, "bo105-drag-area.json")
    with open(path, "w") as f:
        json.dump(description, f, indent=2)
    return path


def sweep(orchestrator, speeds, out_dir, system=SYSTEM):
    """Trims every speed; returns one dict per speed."""
    rows = []
    for speed in speeds:
        trimmed, summary = trim(orchestrator, system, speed, out_dir)
        main, tail = revolution_mean_power(orchestrator, trimmed, out_dir, speed)
        c, a = summary["controls_rad"], summary["attitude_rad"]
        rows.append({
            "speed_m_per_s": speed,
            "theta0_centre_deg": ref.collective_at_centre_deg(c["controls.collective"]),
            "theta0_075_deg": math.degrees(c["controls.collective"]),
            "theta1s_deg": -math.degrees(c["controls.lon_cyclic"]),
            "theta1c_deg": -math.degrees(c["controls.lat_cyclic"]),
            "tail_collective_deg": math.degrees(c["controls.pedal"]),
            "pitch_deg": math.degrees(a["theta"]),
            "roll_deg": math.degrees(a["phi"]),
            "main_power_kw": main / 1e3,
            "tail_power_kw": tail / 1e3,
            "momentum_power_kw": sum(ref.momentum_power_w(speed)) / 1e3,
            **flight_test(speed),
            "residual": summary["residual_max"],
        })
        system = trimmed
        print(f"{speed:5.1f} m/s: {rows[-1]}", flush=True)
    return rows


# Quantities compared with the flight tests: (column, label, Padfield points, unit).
COMPARED = [
    ("theta0_centre_deg", "collective theta0 (rotor centre)", ref.THETA0_DEG, "deg"),
    ("theta1s_deg", "longitudinal cyclic theta1s", ref.THETA1S_DEG, "deg"),
    ("theta1c_deg", "lateral cyclic theta1c", ref.THETA1C_DEG, "deg"),
    ("pitch_deg", "pitch attitude", ref.PITCH_DEG, "deg"),
]


def table(rows):
    """Markdown table of the sweep beside the interpolated flight-test values."""
    head = ("| V m/s | theta0 (centre) deg: ours / test | theta1s deg: ours / test | theta1c deg: ours / "
            "test | pitch deg: ours / test | roll deg | main + tail power kW: ours / test | main kW | "
            "momentum estimate kW |\n|---|---|---|---|---|---|---|---|---|\n")
    lines = []
    max_test_speed = ref.THETA0_DEG[-1][0] * ref.KNOT
    for r in rows:
        v = r["speed_m_per_s"]

        def pair(col, pts):
            test = f"{ref.interpolate(pts, v):.2f}" if v <= max_test_speed else "-"
            return f"{r[col]:.2f} / {test}"
        power = r["main_power_kw"] + r["tail_power_kw"]
        test_power = f"{ref.interpolate(ref.POWER_KW, v):.0f}" if v <= max_test_speed else "-"
        lines.append(f"| {v:g} | {pair('theta0_centre_deg', ref.THETA0_DEG)} | "
                     f"{pair('theta1s_deg', ref.THETA1S_DEG)} | {pair('theta1c_deg', ref.THETA1C_DEG)} | "
                     f"{pair('pitch_deg', ref.PITCH_DEG)} | {r['roll_deg']:.2f} | {power:.0f} / {test_power} | "
                     f"{r['main_power_kw']:.0f} | {r['momentum_power_kw']:.0f} |")
    return head + "\n".join(lines) + "\n"


def svg(rows):
    """Six panels against speed: our trim (line) and Padfield's flight tests (dots)."""
    panels = COMPARED + [("roll_deg", "roll attitude", None, "deg"),
                         ("power_kw", "power: main + tail (line), main (dashed), momentum (dotted)",
                          ref.POWER_KW, "kW")]
    for r in rows:
        r["power_kw"] = r["main_power_kw"] + r["tail_power_kw"]
    width, height, cols = 900, 780, 2
    pw, ph = 380, 200
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="sans-serif" font-size="11">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           '<text x="10" y="16" font-size="13">examples/bo105.json trimmed by orchestrator trim (lines) '
           'against Padfield (1996) Bo105 flight tests, Figs. 4.6(a), 4.10, 4.11 (dots)</text>']
    vmax = 70.0
    for k, (col, label, pts, unit) in enumerate(panels):
        x0 = 60 + (k % cols) * (pw + 70)
        y0 = 40 + (k // cols) * (ph + 50)
        ours = [(r["speed_m_per_s"], r[col]) for r in rows]
        extra = []
        if col == "power_kw":
            extra = [[(r["speed_m_per_s"], r["main_power_kw"]) for r in rows],
                     [(r["speed_m_per_s"], r["momentum_power_kw"]) for r in rows]]
        test = ref.series_m_per_s(pts) if pts else []
        values = [v for _, v in ours + test] + [v for e in extra for _, v in e]
        lo, hi = min(values), max(values)
        pad = 0.08 * (hi - lo or 1.0)
        lo, hi = lo - pad, hi + pad

        def sx(v):
            return x0 + pw * v / vmax

        def sy(v):
            return y0 + ph * (hi - v) / (hi - lo)
        out.append(f'<rect x="{x0}" y="{y0}" width="{pw}" height="{ph}" fill="none" stroke="#444"/>')
        out.append(f'<text x="{x0}" y="{y0 - 6}">{label}, {unit}</text>')
        for i in range(5):
            v = lo + (hi - lo) * i / 4
            out.append(f'<text x="{x0 - 4}" y="{sy(v) + 4:.1f}" text-anchor="end">{v:.3g}</text>')
            out.append(f'<line x1="{x0}" x2="{x0 + pw}" y1="{sy(v):.1f}" y2="{sy(v):.1f}" stroke="#ddd"/>')
        for v in range(0, 71, 10):
            out.append(f'<text x="{sx(v):.1f}" y="{y0 + ph + 14}" text-anchor="middle">{v}</text>')
        out.append(f'<text x="{x0 + pw / 2}" y="{y0 + ph + 28}" text-anchor="middle">airspeed, m/s</text>')

        def line(points, style):
            d = " ".join(f"{sx(a):.1f},{sy(b):.1f}" for a, b in points)
            return f'<polyline points="{d}" fill="none" stroke="#1f4e9c" stroke-width="1.8" {style}/>'
        out.append(line(ours, ""))
        for e, style in zip(extra, ['stroke-dasharray="6,3"', 'stroke-dasharray="2,3"']):
            out.append(line(e, style))
        for a, b in test:
            if a <= vmax:
                out.append(f'<circle cx="{sx(a):.1f}" cy="{sy(b):.1f}" r="3" fill="#c0392b"/>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="out/bo105")
    parser.add_argument("--speeds", default="0,10,20,30,40,50,60,70")
    parser.add_argument("--orchestrator", default=os.path.join(ROOT, "target", "release", "orchestrator"))
    parser.add_argument("--fuselage", choices=["table", "drag-area"], default="table",
                        help="the example's Padfield fuselage table (default) or its drag area alone")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    system = SYSTEM if args.fuselage == "table" else drag_area_only(args.out)
    rows = sweep(args.orchestrator, [float(s) for s in args.speeds.split(",")], args.out, system)
    with open(os.path.join(args.out, "bo105-trim.csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    with open(os.path.join(args.out, "bo105-trim.md"), "w") as f:
        f.write(table(rows))
    with open(os.path.join(args.out, "bo105-trim.svg"), "w") as f:
        f.write(svg(rows))
    print(table(rows))


if __name__ == "__main__":
    main()
