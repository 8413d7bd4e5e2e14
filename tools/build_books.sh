#!/usr/bin/env bash
# Build, or resume, the two shipped opening books: the default 5 x 8 board first, then 6 x 7.
# Safe to stop (kill) and re-run at any time: progress is appended to files in $BOOK_WORK_DIR
# (default tools/book-progress, where the shipped books' progress is committed):
#   <board>-tree<depth>-hard<nodes>/nodes.txt  the play tree of a perfect computer (both boards)
#   5x8-connect4-ply8/solved.txt               every 5 x 8 position of 8 stones, solved (hours)
#   5x8-connect4-ply9/solved.txt               every one of 9 stones (more hours; each search
#                                              starts from the bound the 8-stone scores give)
# Each 5 x 8 book written takes in what the full-width build has settled so far, so that hints and
# reviews off the computer's lines are exact too; 6 x 7 has bitbully-databases' 12-stone table.
# The finished books are written to $BOOK_WORK_DIR/book-<rows>x<columns>-connect4.bin; copy them
# to engine/data/ to ship them.
# Run it detached:  BOOK_WORK_DIR=/tmp/books setsid nohup tools/build_books.sh >> book-build.log 2>&1 < /dev/null &
set -euo pipefail
cd "$(dirname "$0")/.."
work=${BOOK_WORK_DIR:-tools/book-progress}
workers=${BOOK_WORKERS:-2}
python=${PYTHON:-python3}
for depth in 8 9; do
    "$python" -m tools.make_book --rows 5 --columns 8 --depth "$depth" --solver native \
        --workers "$workers" --work-dir "$work" --output "$work/book-5x8-connect4-ply$depth.bin"
done
for board in "5 8 --full-width 9" "6 7"; do
    read -r rows columns extra <<< "$board"
    # shellcheck disable=SC2086 # $extra is empty or one option and its value
    "$python" -m tools.make_book --rows "$rows" --columns "$columns" --tree --depth 24 \
        --hard-nodes 4000000 --solver native --workers "$workers" --work-dir "$work" \
        --output "$work/book-${rows}x${columns}-connect4.bin" $extra
done
