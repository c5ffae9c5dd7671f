#!/usr/bin/env python3
"""The markdown table of docs/tuning.md from a tuning run and its --check-auto run.

Usage: scripts/tuning_table.py TABLE.json CHECK.json NAMES
  NAMES: comma-separated filter names in the tables' order of filters (first seen first), e.g.
  'van Vliet σ 4,van Vliet σ 30,quintic B-spline,random 4th order (c+c)'.
Per entry: candidates timed, the winner, its GiP/s, the fixed choice's, their ratio; from the
check: what auto ran, auto's time over the check's best candidate and over the fixed choice.
"""
import json
import sys


def key(e):
    return (e["device"], e["filter"], e["boundary"], e["width"], e["height"])


def main():
    table = json.load(open(sys.argv[1]))["entries"]
    check = {key(e): e for e in json.load(open(sys.argv[2]))["entries"]}
    names = sys.argv[3].split(",")
    filters = []
    for e in table:
        if e["filter"] not in filters:
            filters.append(e["filter"])
    print("| filter | boundary | size | timed | winner | GiP/s | fixed choice GiP/s | winner ÷ fixed "
          "| check: auto ran | auto ÷ best | auto ÷ fixed |")
    print("|---|---|---|---:|---|---:|---:|---:|---|---:|---:|")
    last = None
    for e in sorted(table, key=lambda e: (filters.index(e["filter"]), e["boundary"], e["width"] * e["height"])):
        by_name = {c["name"]: c for c in e["candidates"]}
        winner, fixed = by_name[e["winner"]], by_name.get(e["fixed_choice"])
        name = names[filters.index(e["filter"])] if e["filter"] != last else ""
        last = e["filter"]
        row = [name, e["boundary"], f"{e['width']}²" if e["width"] == e["height"] else f"{e['width']}×{e['height']}", str(len(e["candidates"])), f"`{e['winner']}`",
               f"{winner['gips']:.3g}", f"{fixed['gips']:.3g}" if fixed else "—",
               f"{fixed['ms'] / winner['ms']:.3f}" if fixed else "—"]
        c = check.get(key(e))
        if c and c.get("auto_ms"):
            best = min(x["ms"] for x in c["candidates"])
            fixed_ms = next((x["ms"] for x in c["candidates"] if x["name"] == c["fixed_choice"]), None)
            ran = "the same" if c["auto_choice"] == e["winner"] else f"`{c['auto_choice']}`"
            row += [ran, f"{c['auto_ms'] / best:.3f}", f"{c['auto_ms'] / fixed_ms:.3f}" if fixed_ms else "—"]
        else:
            row += ["—", "—", "—"]
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
