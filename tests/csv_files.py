"""Reads the files gltile wrote as a user would (the csv module, an XML
parser) and checks every column of every row; test_csv_files.c runs the
commands first.

usage: csv_files.py bench FILE.csv FILE.svg RENDERER
       csv_files.py compile FILE.csv RENDERER
Prints each problem found; exits 1 when there is one.
"""
import csv
import sys
import xml.etree.ElementTree as ET

BENCH_HEADER = ["op", "strategy", "type", "rows", "cols", "k", "ms", "gb_per_s", "gflop_per_s",
                "pct_of_copy", "pct_of_peak", "pct_of_clblast", "verified"]
COMPILE_HEADER = ["renderer", "program", "call", "calls", "auto", "built", "inst", "registers", "spills", "fills",
                  "occupancy", "occupancy_max", "cycles", "arith", "ldst", "nops", "sync_stalls",
                  "memory", "per_elem_inst", "per_elem_mem", "per_step_inst", "per_step_loads", "stats"]
TYPES = {"f32", "i32", "u32", "f16", "i16", "u16", "i8", "u8"}

problems = []


def problem(where, text):
    problems.append("%s: %s" % (where, text))


def number(where, name, text, empty_ok=False):
    """The column's value as a float, or None (a problem unless empty_ok
    and the field is empty)."""
    if text == "" and empty_ok:
        return None
    try:
        return float(text)
    except ValueError:
        problem(where, "%s is %r, not a number" % (name, text))
        return None


def count(where, name, text):
    if not text.isdigit():
        problem(where, "%s is %r, not a whole number" % (name, text))
        return None
    return int(text)


def read_rows(path, header):
    # strict: a quote inside an unquoted field, or one not doubled inside
    # a quoted field, is an error rather than a guess.
    try:
        with open(path, newline="", encoding="utf-8") as f:
            rows = list(csv.reader(f, strict=True))
    except csv.Error as e:
        problem(path, "not CSV: %s" % e)
        return []
    if not rows:
        problem(path, "empty")
        return []
    if rows[0] != header:
        problem(path + ":1", "header %r, want %r" % (rows[0], header))
    body = []
    for i, row in enumerate(rows[1:], start=2):
        where = "%s:%d" % (path, i)
        if len(row) != len(header):
            problem(where, "%d columns, want %d: %r" % (len(row), len(header), row))
            continue
        body.append((where, dict(zip(header, row))))
    if not body:
        problem(path, "no rows")
    return body


def check_bench(path, svg_path, renderer):
    rows = read_rows(path, BENCH_HEADER)
    plotted = set()
    for where, r in rows:
        if r["op"] not in ("transpose", "copy", "matmul"):
            problem(where, "op is %r" % r["op"])
        if r["strategy"] == "":
            problem(where, "no strategy")
        if r["type"] not in TYPES:
            problem(where, "type is %r" % r["type"])
        m, n, k = (count(where, c, r[c]) for c in ("rows", "cols", "k"))
        ms = number(where, "ms", r["ms"])
        gflop = number(where, "gflop_per_s", r["gflop_per_s"])
        for c in ("gb_per_s", "pct_of_copy", "pct_of_peak", "pct_of_clblast"):
            number(where, c, r[c])
        # Each row of this run is verified on the CPU and passes.
        if r["verified"] != "yes":
            problem(where, "verified is %r, want 'yes'" % r["verified"])
        # The figure in its own column: the throughput the row's shape and
        # time give, within the rounding of the two printed values.
        if r["op"] == "matmul" and None not in (m, n, k, ms, gflop) and ms > 0:
            want = 2.0 * m * n * k / (ms * 1e6)
            slack = want * 0.00005 / ms + 0.0005
            if abs(gflop - want) > slack * 1.01:
                problem(where, "gflop_per_s %s, but 2 m n k / ms gives %.3f" % (r["gflop_per_s"], want))
        if ms is not None and ms > 0:
            plotted.add(r["strategy"])
    strategies = {r["strategy"] for _, r in rows}
    if "auto+bias,relu" not in strategies:
        problem(path, "no row 'auto+bias,relu' (the epilogue's) among %r" % sorted(strategies))
    print("%s: %d rows; labels with commas: %r" % (path, len(rows), sorted(s for s in strategies if "," in s)))

    try:
        root = ET.parse(svg_path).getroot()
    except ET.ParseError as e:
        problem(svg_path, "not XML: %s" % e)
        return
    texts = list(root.iter("{http://www.w3.org/2000/svg}text"))
    title = "".join(texts[0].itertext()) if texts else None
    if title != "gltile bench on " + renderer:
        problem(svg_path, "title %r, want %r" % (title, "gltile bench on " + renderer))
    # The legend: a text in each line's colour per strategy plotted.
    legend = {"".join(t.itertext()) for t in texts if t.get("fill")}
    if legend != plotted:
        problem(svg_path, "legend %r, want the strategies timed %r" % (sorted(legend), sorted(plotted)))


def check_compile(path, renderer):
    rows = read_rows(path, COMPILE_HEADER)
    for where, r in rows:
        if r["renderer"] != renderer:
            problem(where, "renderer %r, want %r" % (r["renderer"], renderer))
        if r["auto"] not in ("yes", "no", "user"):
            problem(where, "auto is %r" % r["auto"])
        if r["built"] != "yes":
            problem(where, "built is %r, want 'yes'" % r["built"])
        if r["auto"] == "yes" and (r["call"] == "" or not r["calls"].startswith(r["call"])):
            problem(where, "calls %r do not begin with call %r" % (r["calls"], r["call"]))
        if r["auto"] != "yes" and r["call"] + r["calls"] != "":
            problem(where, "call %r, calls %r where auto is %r" % (r["call"], r["calls"], r["auto"]))
        for c in COMPILE_HEADER[6:-1]:
            number(where, c, r[c], empty_ok=True)
    programs = sorted(r["program"] for _, r in rows)
    want = ["user kernel (prelude, aliased)", "user kernel (prelude, restrict)"]
    if programs != want:
        problem(path, "programs %r, want %r" % (programs, want))
    print("%s: %d rows; renderer %r" % (path, len(rows), renderer))


def main(argv):
    if len(argv) == 5 and argv[1] == "bench":
        check_bench(argv[2], argv[3], argv[4])
    elif len(argv) == 4 and argv[1] == "compile":
        check_compile(argv[2], argv[3])
    else:
        sys.stderr.write(__doc__)
        return 2
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
