#!/bin/sh
# Makes the recorded runs of this folder (see README.md): nine identical fio runs (aa01..aa09)
# one after another, then four at a larger block size (bs64k-1..4), each two psync randread
# processes for 10 s on a file in the page cache, histogram logs every 500 ms, gzipped.
# Usage: make.sh OUTDIR [FIO]   (OUTDIR gets one folder per run; a scratch file goes to $TMPDIR)
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
     --bs="$bs" --invalidate=0 --time_based=1 --runtime=10 --numjobs=2 \
     --log_hist_msec=500 --write_hist_log=h --log_unix_epoch=1 \
     --output-format=json --output=fio.json &&
   gzip -9n h_clat_hist.*.log)
}
for i in 01 02 03 04 05 06 07 08 09; do run aa$i 4k; done
for i in 1 2 3 4; do run bs64k-$i 64k; done
