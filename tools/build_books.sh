#!/usr/bin/env bash
# Build, or resume, the two shipped opening books: the default 5 x 8 board first, then 7 x 6.
# Safe to stop (kill) and re-run at any time: each board's progress is in
# $BOOK_WORK_DIR/<board>-tree<depth>-hard<nodes>/nodes.txt ($BOOK_WORK_DIR defaults to
# tools/book-progress, where the shipped books' nodes are committed: there it only rewrites them).
# The finished books are written to $BOOK_WORK_DIR/book-<rows>x<columns>-connect4.bin; copy them
# to engine/data/ to ship them.
# Run it detached:  BOOK_WORK_DIR=/tmp/books setsid nohup tools/build_books.sh >> book-build.log 2>&1 < /dev/null &
set -euo pipefail
cd "$(dirname "$0")/.."
work=${BOOK_WORK_DIR:-tools/book-progress}
workers=${BOOK_WORKERS:-2}
python=${PYTHON:-python3}
for board in "5 8" "6 7"; do
    read -r rows columns <<< "$board"
    "$python" -m tools.make_book --rows "$rows" --columns "$columns" --tree --depth 24 \
        --hard-nodes 4000000 --solver native --workers "$workers" --work-dir "$work" \
        --output "$work/book-${rows}x${columns}-connect4.bin"
done
