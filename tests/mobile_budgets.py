#!/usr/bin/env python3
"""The mobile compilers' budget gate: checks the CSV of `gltile compile
--auto --stats --csv` on one fake GPU against tests/mobile_budgets.csv.

    mobile_budgets.py [--write] [--occupancy FILE] [--targets FILE]
                      BUDGETS COMPILE_CSV TOOL GPU

Budgets: every program AUTO chose on the tool (compiler generation) and
GPU has a row there, and every row there is a program AUTO chose, with
the compiler's statistics. Each figure a row gives must hold: inst,
per_elem_inst, per_elem_mem, per_step_inst and per_step_loads at most the
budget, occupancy at least. An empty cell checks nothing. So a program
that gets costlier, a call that reaches a new program and a program no
call reaches any more each fail.

--write: rewrite the tool's and GPU's rows to the figures reached (the
rest of the file as it is), and check nothing: for a change that makes
programs cheaper, or that a dated note under docs/notes/ explains.

--occupancy FILE (tests/mobile_occupancy.csv): per tool and GPU, at most
how many of AUTO's programs run below the GPU's full occupancy; a tool and
GPU without a row there miss too.

--targets FILE (tests/mobile_targets.csv): reports, and does not fail,
how far each program stands from the headline calls' figures, against the
factors the strictest class of the calls that asked for it may reach.

Exit 1 on any miss, 0 otherwise."""
import argparse
import csv
import fcntl
import re
import sys

AT_MOST = ("inst", "per_elem_inst", "per_elem_mem", "per_step_inst", "per_step_loads")
AT_LEAST = ("occupancy",)
FIELDS = ("tool", "gpu", "program") + AT_MOST + AT_LEAST


def data_lines(f):
    return (line for line in f if not line.startswith("#"))


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
        mine = [r for r in csv.DictReader(data_lines(f)) if r["tool"] == tool and r["gpu"] == gpu]
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


def budget_row(tool, gpu, name, r):
    """The budget a program's figures give: each as the compile CSV has it."""
    row = {"tool": tool, "gpu": gpu, "program": name}
    for field in AT_MOST + AT_LEAST:
        row[field] = r[field]
    return row


def write(budgets_path, rows, tool, gpu):
    """Replaces the tool's and GPU's rows with rows' figures, under a lock:
    the mobile tests may write at once."""
    with open(budgets_path, "r+", newline="") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        lines = f.read().splitlines(keepends=True)
        comments = [line for line in lines if line.startswith("#")]
        kept = [r for r in csv.DictReader(data_lines(lines)) if (r["tool"], r["gpu"]) != (tool, gpu)]
        mine = [budget_row(tool, gpu, name, rows[name]) for name in sorted(rows) if rows[name]["stats"] != ""]
        f.seek(0)
        f.truncate()
        f.writelines(comments)
        w = csv.DictWriter(f, FIELDS, lineterminator="\n")
        w.writeheader()
        order = lambda r: (r["tool"], r["gpu"], r["program"])
        w.writerows(sorted(kept + mine, key=order))
    print(f"{gpu} ({tool}): {len(mine)} budget rows written to {budgets_path}")


def check_budgets(budgets_path, rows, tool, gpu):
    """Misses of the budgets, and the number of figures checked."""
    with open(budgets_path, newline="") as f:
        budgets = [r for r in csv.DictReader(data_lines(f)) if r["tool"] == tool and r["gpu"] == gpu]
    misses = checks = 0
    cheaper = []
    named = {b["program"] for b in budgets}
    for name in sorted(rows):
        if name not in named:
            print(f"MISS {gpu} ({tool}): {name} ({rows[name]['call']}): AUTO's, with no budget row")
            misses += 1
    for budget in budgets:
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
            if not ok:
                word = "at most" if field in AT_MOST else "at least"
                print(f"MISS {gpu} ({tool}): {name} ({row['call']}): {field} {got} ({word} {want:g})")
                misses += 1
            elif got != want:
                cheaper.append(f"{name}: {field} {got:g} (budget {want:g})")
    for line in cheaper:
        print(f"lower {gpu} ({tool}): {line}")
    print(f"{gpu} ({tool}): {len(budgets)} budget rows, {checks} figures checked, {misses} missed"
          + (f", {len(cheaper)} below their budget (--write lowers them)" if cheaper else ""))
    return misses, checks


def report_targets(targets_path, rows, tool, gpu):
    """How far each program stands from the headline calls' figures: a
    report, no miss."""
    with open(targets_path, newline="") as f:
        classes = list(csv.DictReader(data_lines(f)))
    heads = [c for c in classes if c["class"].startswith("headline")]
    kinds = [c for c in classes if not c["class"].startswith("headline")]
    calls = {name: r["calls"].split("; ") for name, r in rows.items()}
    headlines = {}
    for c in heads:
        mine = [r for name, r in rows.items() if c["calls"] in calls[name] and r[c["instructions_of"]] != ""]
        if mine:  # the call's program that does the most work: its lowest count
            headlines[c["measure"]] = min(mine, key=lambda r: float(r[c["instructions_of"]]))

    def strictest(name):
        """The class of each call that asked for the program (the first
        row matching it), the strictest of them."""
        mine = [next((c for c in kinds if re.search(c["calls"], call)), None) for call in calls[name]]
        mine = [c for c in mine if c is not None]
        return min(mine, key=lambda c: (float(c["instructions"]), float(c["loads"])), default=None)

    within = outside = unmeasured = 0
    lines = []
    for name in sorted(rows):
        r = rows[name]
        c = strictest(name)
        if c is None:
            continue
        h = headlines.get(c["measure"])
        inst_field, loads_field = c["instructions_of"], c["loads_of"]
        if h is None or r[inst_field] == "" or r[loads_field] == "":
            unmeasured += 1
            continue
        inst = float(r[inst_field]) / float(h[inst_field])
        loads = float(r[loads_field]) / float(h[loads_field]) if float(h[loads_field]) else 0.0
        if inst <= float(c["instructions"]) and loads <= float(c["loads"]):
            within += 1
            continue
        outside += 1
        lines.append(f"target {gpu} ({tool}): {name} ({c['class']}; first {r['call']}): "
                     f"{inst:.2f}x the headline's instructions (at most {c['instructions']}), "
                     f"{loads:.2f}x its loads (at most {c['loads']})")
    for line in lines:
        print(line)
    heads = "; ".join(f"{m}: {h['program']}" for m, h in sorted(headlines.items()))
    print(f"{gpu} ({tool}): targets: {within} programs within their class's factors, {outside} outside, "
          f"{unmeasured} without the figures (headlines: {heads or 'none'})")


def main(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--write", action="store_true")
    p.add_argument("--occupancy")
    p.add_argument("--targets")
    p.add_argument("budgets")
    p.add_argument("compile_csv")
    p.add_argument("tool")
    p.add_argument("gpu")
    a = p.parse_args(argv)
    with open(a.compile_csv, newline="") as f:
        rows = {r["program"]: r for r in csv.DictReader(f) if r["auto"] == "yes"}
    if a.write:
        write(a.budgets, rows, a.tool, a.gpu)
        return 0
    misses = 0
    if a.occupancy is not None:
        misses += check_occupancy(a.occupancy, rows, a.tool, a.gpu)
    budget_misses, checks = check_budgets(a.budgets, rows, a.tool, a.gpu)
    misses += budget_misses
    if checks == 0:
        print(f"MISS {a.gpu} ({a.tool}): no budget rows: add its figures to {a.budgets} (--write)")
        misses += 1
    if a.targets is not None:
        report_targets(a.targets, rows, a.tool, a.gpu)
    print(f"{misses} missed")
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
