#!/usr/bin/env bash
# Build, or resume, the two shipped opening books: the default 5 x 8 board first, then 7 x 6.
# Safe to stop (kill) and re-run at any time: each board's progress is in
# $BOOK_WORK_DIR/<board>-tree<depth>-hard<nodes>/nodes.txt. The finished books are written to
# $BOOK_WORK_DIR/book-<rows>x<columns>-connect4.bin; copy them to engine/data/ to ship them.
# Run it detached:  setsid nohup tools/build_books.sh >> /work/book-build/build.log 2>&1 < /dev/null &
set -euo pipefail
cd "$(dirname "$0")/.."
work=${BOOK_WORK_DIR:-/work/book-build}
workers=${BOOK_WORKERS:-2}
for board in "5 8" "6 7"; do
    read -r rows columns <<< "$board"
    python3 tools/make_book.py --rows "$rows" --columns "$columns" --tree --depth 24 \
        --hard-nodes 4000000 --solver native --workers "$workers" --work-dir "$work" \
        --output "$work/book-${rows}x${columns}-connect4.bin"
done
