#!/usr/bin/env python3
"""The mobile compilers' budget gate: checks the CSV of `gltile compile
--auto --stats --csv` on one fake GPU against tests/mobile_budgets.csv.

    mobile_budgets.py BUDGETS COMPILE_CSV TOOL GPU [OCCUPANCY]

Each budget row names a tool (compiler generation), a GPU and a program.
The program must be one AUTO chose, with the compiler's statistics, and
each figure the row gives must hold: inst, per_elem_inst, per_elem_mem,
per_step_inst and per_step_loads at most the budget, occupancy at least.
An empty budget cell checks nothing. Exit 1 on any miss, and where the
tool and GPU have no budget row (a GPU the mobile label gains is given
its figures), 0 otherwise.

OCCUPANCY (tests/mobile_occupancy.csv): per tool and GPU, at most how many
of AUTO's programs run below the GPU's full occupancy; a tool and GPU
without a row there miss too."""
import csv
import sys

AT_MOST = ("inst", "per_elem_inst", "per_elem_mem", "per_step_inst", "per_step_loads")
AT_LEAST = ("occupancy",)


def below_full(rows):
    """AUTO's programs whose occupancy is under the GPU's full figure."""
    return sorted(
        name
        for name, r in rows.items()
        if r["occupancy"] != "" and r["occupancy_max"] != "" and int(r["occupancy"]) < int(r["occupancy_max"])
    )


def check_occupancy(occupancy_path, rows, tool, gpu):
    """Misses (0 or 1) of the occupancy gate."""
    with open(occupancy_path, newline="") as f:
        lines = (line for line in f if not line.startswith("#"))
        mine = [r for r in csv.DictReader(lines) if r["tool"] == tool and r["gpu"] == gpu]
    limit = int(mine[0]["below_full"]) if mine else None
    below = below_full(rows)
    if limit is None:
        print(f"MISS {gpu} ({tool}): no occupancy row: add {len(below)} to {occupancy_path}")
        return 1
    ok = len(below) <= limit
    print(f"{'ok  ' if ok else 'MISS'} {gpu} ({tool}): {len(below)} of AUTO's programs below full occupancy (at most {limit})")
    if not ok:
        for name in below:
            print(f"     below: {name}")
    return 0 if ok else 1


def main(budgets_path, compile_path, tool, gpu, occupancy_path=None):
    with open(compile_path, newline="") as f:
        rows = {r["program"]: r for r in csv.DictReader(f) if r["auto"] == "yes"}
    misses = checks = 0
    if occupancy_path is not None:
        misses += check_occupancy(occupancy_path, rows, tool, gpu)
    with open(budgets_path, newline="") as f:
        lines = (line for line in f if not line.startswith("#"))
        for budget in csv.DictReader(lines):
            if budget["tool"] != tool or budget["gpu"] != gpu:
                continue
            name = budget["program"]
            row = rows.get(name)
            if row is None or row["stats"] == "":
                print(f"MISS {gpu} ({tool}): {name}: not among AUTO's programs with statistics")
                misses += 1
                continue
            for field in AT_MOST + AT_LEAST:
                if budget[field] == "":
                    continue
                checks += 1
                want = float(budget[field])
                got = float(row[field]) if row[field] != "" else None
                ok = got is not None and (got <= want if field in AT_MOST else got >= want)
                word = "at most" if field in AT_MOST else "at least"
                print(f"{'ok  ' if ok else 'MISS'} {gpu} ({tool}): {name}: {field} {got} ({word} {want:g})")
                misses += not ok
    if checks == 0:
        print(f"MISS {gpu} ({tool}): no budget rows: add its figures to {budgets_path}")
        misses += 1
    print(f"{checks} budget checks, {misses} missed")
    return 1 if misses else 0


if __name__ == "__main__":
    if len(sys.argv) not in (5, 6):
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
