#!/usr/bin/env python3
"""Writes naca0012_sheldahl_re2e6.c81 from the Sheldahl and Klimas (1981) NACA 0012 table.

Source of the numbers: R. E. Sheldahl and P. C. Klimas, "Aerodynamic Characteristics of Seven
Symmetrical Airfoil Sections Through 180-Degree Angle of Attack for Use in Aerodynamic Analysis of
Vertical Axis Wind Turbines", SAND80-2114, Sandia National Laboratories, 1981
(https://doi.org/10.2172/6548367), NACA 0012, Reynolds number 2,000,000, as transcribed in the
spreadsheet `sandia0012data.xlsx` of github.com/TAARG-Education/Eli-TAARG (commit
756d8622a8c65106364593176ff88f36bac3846c; columns `alpha` (rad), `ClRe2e6`, `CdRe2e6`).

The C81 header counts are two-digit (at most 99 angles), the report's 59 angles 0..180 deg would
give 117 on -180..180: every angle to 30 deg is kept (1 deg steps to 27), beyond it every 10 deg
and 175 deg (the 35, 45, ..., 165 deg points are dropped). Every value written is the report's.

The report gives 0..180 deg; a symmetric section has cl(-a) = -cl(a), cd(-a) = cd(a), which
gives -180..0. The report has no pitching moment: the moment table is zero (one entry per
angle). One Mach column (0.0): the data are incompressible wind-tunnel values, so the table is
Mach-independent.

Usage: make_naca0012_c81.py sandia0012data.xlsx > naca0012_sheldahl_re2e6.c81
"""

import math
import re
import sys
import zipfile
import xml.etree.ElementTree as ET

NS = {"m": "http://schemas.openxmlformats.org/spreadsheetml/2006/main"}


def read_sheet(path):
    """Rows of the first sheet as {column letter: text}."""
    z = zipfile.ZipFile(path)
    shared = [
        "".join(t.text or "" for t in si.iter("{%s}t" % NS["m"]))
        for si in ET.fromstring(z.read("xl/sharedStrings.xml")).findall("m:si", NS)
    ]
    rows = []
    for r in ET.fromstring(z.read("xl/worksheets/sheet1.xml")).iter("{%s}row" % NS["m"]):
        row = {}
        for c in r.findall("m:c", NS):
            v = c.find("m:v", NS)
            if v is None:
                continue
            col = re.match("[A-Z]+", c.get("r")).group()
            row[col] = shared[int(v.text)] if c.get("t") == "s" else v.text
        rows.append(row)
    return rows


def main():
    rows = read_sheet(sys.argv[1])
    head = rows[0]
    col = {name: letter for letter, name in head.items()}
    a_col, cl_col, cd_col = col["alpha"], col["ClRe2e6"], col["CdRe2e6"]
    data = [(round(math.degrees(float(r[a_col])), 6), r[cl_col], r[cd_col]) for r in rows[1:] if a_col in r]
    data = [d for d in data if d[0] <= 30.0 or d[0] % 10.0 == 0.0 or d[0] == 175.0]
    # -180..180: the mirror of 180..1 deg, then 0..180 deg as given.
    lift = [(-a, "-" + cl if float(cl) != 0.0 else cl) for a, cl, _ in reversed(data[1:])]
    lift = [(a, cl.replace("--", "")) for a, cl in lift] + [(a, cl) for a, cl, _ in data]
    drag = [(-a, cd) for a, _, cd in reversed(data[1:])] + [(a, cd) for a, _, cd in data]
    n = len(lift)
    out = sys.stdout
    out.write(f"{'NACA0012 SHELDAHL-KLIMAS RE2E6':<30}{1:02d}{n:02d}{1:02d}{n:02d}{1:02d}{2:02d}\n")
    for table in (lift, drag):
        out.write(f"{'':7}{0.0:<7.1f}\n")
        for a, v in table:
            out.write(f"{a:<7g}{v}\n")
    out.write(f"{'':7}{0.0:<7.1f}\n")
    out.write(f"{-180:<7g}0.0\n{180:<7g}0.0\n")


if __name__ == "__main__":
    main()
