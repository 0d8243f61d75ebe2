#!/usr/bin/env python3
"""Regenerates tests/bad/corpus/ from real fio 3.33 lines (randrw4 job 1, coarse job 1).

Run once by hand when a case changes: python3 make_corpus.py [FIO_LOGS_DIR]. The files are
committed, so the tests do not need the shared data. Cases that are binary or large are
made at test time by run_bad.py instead.
"""
import gzip
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "corpus")
LOGS = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "data", "fio-logs")


def read_lines(rel, count):
    with open(os.path.join(LOGS, rel)) as f:
        return [next(f).rstrip("\n") for _ in range(count)]


REAL = read_lines("randrw4/randrw4_clat_hist.1.log", 58)
BASE = REAL[:6]  # 1001 r/w, 2001 r/w, 3001 r/w
COARSE = read_lines("coarse/coarse_clat_hist.1.log", 6)


def fields(line):
    return [f.strip() for f in line.split(",")]


def join(cols):
    return ", ".join(cols)


def set_col(line, index, value):
    """Replaces 0-based column `index` (0 time, 1 direction, 2 bs, 3.. counts)."""
    cols = fields(line)
    cols[index] = value
    return join(cols)


def synthetic(t, d, counts, columns=1856):
    c = ["0"] * columns
    for k, v in counts.items():
        c[k] = str(v)
    return join([str(t), str(d), "4096"] + c)


def write(name, lines, end="\n", last_end="\n"):
    text = end.join(lines[:-1]) + (end if len(lines) > 1 else "") + lines[-1] + last_end
    with open(os.path.join(OUT, name), "w", newline="") as f:
        f.write(text)


def main():
    os.makedirs(OUT, exist_ok=True)
    write("base.log", BASE)
    write("coarse.log", COARSE)
    # fio killed mid-write: the last line stops after a comma, or inside a number.
    write("truncated_last_line.log", BASE + [REAL[6][:2000]], last_end="")
    write("truncated_mid_number.log", BASE + [REAL[6][:2001].rstrip(", ") + "1"], last_end="")
    # Killed within the first interval: one cut line is the whole log.
    write("first_line_truncated.log", [join(fields(REAL[0])[:32])], last_end="")
    write("non_numeric.log", BASE[:2] + [set_col(BASE[2], 4, "abc")] + BASE[3:])
    write("float_time.log", BASE[:2] + [set_col(BASE[2], 0, "2001.5")] + BASE[3:])
    write("negative_count.log", BASE[:2] + [set_col(BASE[2], 4, "-3")] + BASE[3:])
    write("overflow_count.log", BASE[:2] + [set_col(BASE[2], 4, "18446744073709551616")] + BASE[3:])
    over = set_col(set_col(BASE[2], 4, "18446744073709551615"), 5, "1")
    write("overflow_sum.log", BASE[:2] + [over] + BASE[3:])
    write("bad_direction.log", BASE[:2] + [set_col(BASE[2], 1, "3")] + BASE[3:])
    write("too_few_columns.log", BASE[:2] + ["2001, 0, 4096"] + BASE[3:])
    write("wrong_column_count.log", BASE[:2] + [join(fields(BASE[2])[:-1])] + BASE[3:])
    write("column_count_changes.log", BASE[:4] + [set_col(COARSE[4], 0, "3001"),
                                                  set_col(COARSE[5], 0, "3001")])
    write("time_backwards.log", BASE[:4] + [set_col(BASE[4], 0, "1500"), BASE[5]])
    write("duplicate_records.log", BASE + BASE[4:6])
    write("empty.log", [""], last_end="")
    write("header_only.log", ["time, direction, bs, c0, c1, c2"])
    write("header_then_records.log", ["msec, dir, bs, buckets..."] + BASE)
    write("crlf.log", BASE, end="\r\n", last_end="\r\n")
    spaced = ["  " + ",\t ".join(c + " " for c in fields(line)) + " \t" for line in BASE]
    write("extra_spaces.log", spaced)
    write("blank_lines.log", BASE[:2] + ["", "   "] + BASE[2:] + [""])
    write("one_record.log", BASE[:2])
    write("huge_time.log", BASE[:4] + [set_col(BASE[4], 0, "9223372036854775807"), BASE[5]])
    write("time_jump.log", BASE[:4] + [set_col(BASE[4], 0, "100000003001"), BASE[5]])
    # A stall: no I/O for 2 hours, then the record that closes it holds 10 reads, 10 writes.
    write("stall.log", BASE[:4] + [synthetic(7202001, 0, {600: 10}),
                                   synthetic(7202001, 1, {700: 10}),
                                   set_col(BASE[4], 0, "7203001"), set_col(BASE[5], 0, "7203001")])
    # Latencies beyond fio's last bucket are clamped into it (column index 1855).
    top = [set_col(line, 3 + 1855, "50") if fields(line)[1] == "0" else line for line in BASE]
    write("top_bucket.log", top)
    zero = [join(fields(line)[:3] + ["0"] * 1856) for line in BASE]
    write("all_zero.log", zero)  # clat_percentiles=0
    # gzip: the whole real log, then cut or damaged copies of it.
    data = gzip.compress(("\n".join(REAL) + "\n").encode(), mtime=0)
    with open(os.path.join(OUT, "truncated_gzip.log.gz"), "wb") as f:
        f.write(data[: len(data) // 2])
    bad = bytearray(data)
    for i in range(len(bad) // 2, len(bad) // 2 + 64):
        bad[i] ^= 0x55
    with open(os.path.join(OUT, "corrupt_gzip.log.gz"), "wb") as f:
        f.write(bytes(bad))
    crc = bytearray(data)
    crc[-6] ^= 0xFF  # the CRC-32 of the trailer
    with open(os.path.join(OUT, "crc_mismatch.log.gz"), "wb") as f:
        f.write(bytes(crc))


if __name__ == "__main__":
    main()
