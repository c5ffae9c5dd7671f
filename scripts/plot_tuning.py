#!/usr/bin/env python3
"""Plots a tuning table (`cascade tune --out`): GiP/s against image size, one line per realisation,
one panel per boundary, for the entries of one filter shape.

Usage: scripts/plot_tuning.py TABLE.json OUT.png SHAPE [TITLE]   (needs gnuplot)
  SHAPE as the table writes it, e.g. 'y:c+r x:c+r'; of several filters of that shape, the first.
"""
import json
import subprocess
import sys
import tempfile
from collections import defaultdict


def main():
    source, target, shape = sys.argv[1], sys.argv[2], sys.argv[3]
    title = (sys.argv[4] if len(sys.argv) > 4 else f"cascade tune, {shape}").replace("'", "''")
    entries = [e for e in json.load(open(source))["entries"] if e["shape"] == shape]
    if not entries:
        sys.exit(f"plot_tuning.py: no entry of shape '{shape}' in {source}")
    first_filter = entries[0]["filter"]
    panels = defaultdict(lambda: defaultdict(list))  # boundary -> realisation -> [(Mpx, GiP/s)]
    for e in entries:
        if e["filter"] != first_filter:
            continue
        for c in e["candidates"]:
            panels[e["boundary"]][c["name"]].append((e["width"] * e["height"] / 2**20, c["gips"]))
    plots = []
    with tempfile.NamedTemporaryFile("w", suffix=".dat", delete=False) as data:
        index = 0
        for boundary, series in panels.items():
            block = []
            for name, points in sorted(series.items()):
                data.write(f'"{name}"\n')
                for megapixels, gips in sorted(points):
                    data.write(f"{megapixels} {gips}\n")
                data.write("\n\n")
                block.append(f"'{data.name}' index {index} with linespoints title columnheader(1)")
                index += 1
            plots.append((boundary, ", ".join(block)))
    script = f"""
set terminal pngcairo size {560 * len(plots)},520 font 'sans,10'
set output '{target}'
set multiplot layout 1,{len(plots)} title '{title}'
set logscale x 2
set xlabel 'image size (Mpixels)'
set ylabel 'GiP/s'
set key top left font 'sans,8'
set grid
"""
    for boundary, block in plots:
        script += f"set title 'boundary {boundary}'\nplot {block}\n"
    script += "unset multiplot\n"
    subprocess.run(["gnuplot"], input=script, text=True, check=True)


if __name__ == "__main__":
    main()
