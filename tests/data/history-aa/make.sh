#!/bin/sh
# Makes the recorded runs of this folder (see README.md): nine identical fio runs (aa01..aa09)
# one after another, then four at a larger block size (bs64k-1..4), then five more identical
# to the nine (aa10..aa14), each two psync randread processes for 10 s on a file in the page
# cache, each held to 25000 reads/s (so the I/O rate is the job's, not what the busy CPU
# leaves), histogram logs every 500 ms, gzipped.
# Usage: make.sh OUTDIR [FIO [NAME:BS ...]]   (default: all of them, in that order; OUTDIR
# gets one folder per run; a scratch file goes to $TMPDIR)
set -eu
out=$1
fio=${2:-fio}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
"$fio" --name=layout --filename="$scratch/data.bin" --size=64m --rw=write --bs=1m \
  --output=/dev/null
run() {
  name=$1 bs=$2
  mkdir -p "$out/$name"
  (cd "$out/$name" &&
   "$fio" --name=r --filename="$scratch/data.bin" --size=64m --ioengine=psync --rw=randread \
     --bs="$bs" --rate_iops=25000 --invalidate=0 --time_based=1 --runtime=10 --numjobs=2 \
     --log_hist_msec=500 --write_hist_log=h --log_unix_epoch=1 \
     --output-format=json --output=fio.json &&
   gzip -9n h_clat_hist.*.log)
}
shift $(($# < 2 ? $# : 2))
if [ $# -eq 0 ]; then
  set -- aa01:4k aa02:4k aa03:4k aa04:4k aa05:4k aa06:4k aa07:4k aa08:4k aa09:4k \
    bs64k-1:64k bs64k-2:64k bs64k-3:64k bs64k-4:64k aa10:4k aa11:4k aa12:4k aa13:4k aa14:4k
fi
for spec in "$@"; do run "${spec%%:*}" "${spec#*:}"; done
