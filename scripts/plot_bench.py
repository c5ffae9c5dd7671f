#!/usr/bin/env python3
"""Plots `cascade bench --json` output: GiP/s against image size, one line per op/variant.

Usage: scripts/plot_bench.py BENCH.jsonl OUT.png [TITLE]   (needs gnuplot)
"""
import json
import subprocess
import sys
import tempfile
from collections import defaultdict


def main():
    source, target = sys.argv[1], sys.argv[2]
    title = sys.argv[3] if len(sys.argv) > 3 else "cascade bench"
    series = defaultdict(list)
    for line in open(source):
        row = json.loads(line)
        if "op" not in row or row.get("gips") in (None, 0):
            continue
        name = row["op"] if row.get("variant") in (None, "", "-") else f'{row["op"]} {row["variant"]}'
        series[name].append((row["width"] * row["height"] / 2**20, row["gips"]))
    with tempfile.NamedTemporaryFile("w", suffix=".dat", delete=False) as data:
        for name, points in series.items():
            data.write(f'"{name}"\n')
            for megapixels, gips in sorted(points):
                data.write(f"{megapixels} {gips}\n")
            data.write("\n\n")
    plots = ", ".join(f"'{data.name}' index {i} with linespoints title columnheader(1)" for i in range(len(series)))
    script = f"""
set terminal pngcairo size 900,560 font 'sans,11'
set output '{target}'
set title '{title}'
set logscale x 2
set xlabel 'image size (Mpixels)'
set ylabel 'GiP/s (2^{{30}} pixels per second)'
set key outside right
set grid
plot {plots}
"""
    subprocess.run(["gnuplot"], input=script, text=True, check=True)


if __name__ == "__main__":
    main()
