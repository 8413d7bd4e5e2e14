/* The exact search of connect_four.engine.exact, compiled: the body of connect_four.engine._native
 * (64-bit bitboards, engine/_native.c) and connect_four.engine._native128 (128-bit
 * bitboards, engine/_native128.c). Each of those files defines
 * BITBOARD_BITS, MODULE_NAME and MODULE_INIT, then includes this one, so
 * both modules run the same search; only the width of a bitboard differs.
 *
 * A line-for-line mirror of the pure-Python search in engine/exact.py (the
 * reference): the same negamax, the same move order (most threats first,
 * then centre first), the same loss-avoiding filter, the same bound
 * encoding, the same enhanced transposition cutoffs and the same fixed-size
 * transposition tables (a big one, and a small one for the positions near
 * the leaves), so both give the same score after exploring the same number
 * of positions. Any change to one must be made to the other;
 * tests/test_exact_backends.py compares them. What only the compiled search
 * does changes no count: each node works out its children's slots once and
 * asks the memory system for them before it reads its own (a big search
 * waits on the table's memory more than it computes), the boards most
 * played (7 x 6 and 5 x 8, four in a row) get searches compiled for their
 * shape, and a big table lies on huge pages where Linux offers them.
 *
 * Boards whose bitboard fits BITBOARD_BITS: columns * (rows + 1) <= 64, or
 * <= 128 with GCC's and Clang's unsigned __int128. Python keeps the budget:
 * every time `explored` reaches `next_check` the search calls back
 * `check(explored)`, which returns the next check or raises SearchAborted;
 * the exception unwinds the search unchanged. The search lets other Python
 * threads run, taking the GIL back for each check.
 *
 * With threads > 1 (64-bit boards, POSIX threads) helper threads search the
 * same window on the same table, each starting from other first moves, and
 * the first thread to finish answers (a lazy SMP search): the score is as
 * exact as one thread's, the positions searched vary with the timing. A slot
 * is read and written as one 64-bit word, so a thread never sees half of
 * another's entry.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif
#if defined(__unix__) || defined(__APPLE__)
#include <pthread.h>
#define HAVE_THREADS 1
#else
#define HAVE_THREADS 0
#endif

#if BITBOARD_BITS == 64
typedef uint64_t bitboard;
#elif BITBOARD_BITS == 128 && defined(__SIZEOF_INT128__)
typedef unsigned __int128 bitboard;
#else
#error "BITBOARD_BITS must be 64, or 128 where the compiler has unsigned __int128"
#endif

#include "_native_database.h"

/* 64-bit keys are divided by the table size through a 128-bit reciprocal
 * where the compiler has unsigned __int128 (see table_slot). */
#if BITBOARD_BITS == 64 && defined(__SIZEOF_INT128__)
#define FAST_DIVISION 1
#else
#define FAST_DIVISION 0
#endif

/* A column takes at least 2 bits (a row and the sentinel). */
#define MAX_COLUMNS (BITBOARD_BITS / 2)
/* A chain that can be won is shorter than the bitboard (one column of
 * BITBOARD_BITS - 1 rows at most): winning_cells' partial chains fit. */
#define MAX_CHAIN BITBOARD_BITS
/* A table code is ((bound + CODE_OFFSET) << 1) | is_upper_bound, as in
 * table.py: never 0 for a real bound, and the empty code 0 reads as the
 * lower bound -CODE_OFFSET, which never raises alpha. A stored bound is a
 * child's score or an alpha clamped to the node's range, so it lies within
 * +-(cells - 1) / 2: -31..31 on 64 bits, -63..63 on 128 bits (at most 127
 * cells), and the code fits a byte. table.py's dict table for boards of
 * over 63 cells adds max(64, cells + 1) instead; the bounds read back are
 * the same, and its empty code is just as useless, so both prune alike. */
#define CODE_OFFSET 64
/* Nodes with at least this many empty cells look up their children in the
 * table before searching any (as connect_four.engine.exact.ETC_MIN_EMPTY): nearer the
 * leaves the extra reads cost more than the positions they save (measured
 * on Begin-Hard: 11 % less CPU at 20, 5 % more at 12). */
#define ETC_MIN_EMPTY 20
/* Positions with at most LEAF_EMPTY empty cells are kept in a table of
 * their own, LEAF_SIZE slots (as connect_four.engine.exact.LEAF_EMPTY and
 * LEAF_TABLE_SIZE): 2 MiB, one huge page, which stays in the processor's
 * caches, so the many positions near the leaves no longer send the search
 * to main memory, nor push out of the big table the few positions near the
 * root that each save a large search. Each thread has its own. Measured on
 * Begin-Hard (first 4, load 6-8), against 5.74 s and 104.3 M positions with
 * one table: 14 empty cells 4.13 s and 106.0 M positions, 16 4.08 s and
 * 108.3 M, 18 4.09 s and 110.7 M; at 16, 131,063 slots 4.03 s and 111.2 M,
 * 524,269 slots 4.03 s and 105.4 M (noise is about 3 %). Without any table
 * there instead (8 empty cells or fewer): 5.49 s and 126.7 M. */
#define LEAF_EMPTY 16
#define LEAF_SIZE 262139u
/* Stores remembered one by one so that a small search resets the table by
 * clearing only them; past this many, the reset reallocates it instead. */
#define DIRTY_CAPACITY (1u << 17)
/* The most threads one search may run (Search(..., threads=N)). */
#define MAX_THREADS 64
/* Helper threads search the first plies in an order of their own (see
 * helper_order), so that they fill the table ahead of the main thread.
 * Measured on Begin-Hard (first 4, load 1.4-1.9, one thread 5.9-6.1 s wall
 * and 104.3 M positions), two threads' wall time and positions: 1 ply 6.26 s
 * and 157 M, 2 plies 4.77 s and 138 M, 3 plies 5.25 s and 159 M; before the
 * workers were set apart (see APART), 4, 8 and 64 plies took 9.4 to 13.3 s.
 * Since deferral (DEFER_MIN_EMPTY) and the leaf tables, one ply is best
 * (quiet machine, load 1.0-1.2, one thread 3.95 s and 108.3 M positions):
 * 1 ply 0.57-0.58 of one thread's wall time and 124 M positions, 2 plies
 * 0.60-0.61 and 129 M, 3 plies 0.70 and 153 M. */
#define HELPER_PLIES 1
/* With threads, a node of at least DEFER_MIN_EMPTY empty cells leaves to
 * the end the children (but the first) that another thread is searching,
 * so that the threads part ways instead of searching the same subtree side
 * by side (as ABDADA does). Measured on Begin-Hard (first 4, 3 interleaved
 * runs, load 1.6-3.6, one thread 6.1-6.4 s wall and 104.3 M positions), two
 * threads' wall time over one thread's: without 0.66-0.82 and 139-141 M
 * positions; from 18 empty cells 0.59-0.69 and 126-129 M; from 14 0.61-0.66
 * and 125-126 M; from 22 no better than without; deferring the first child
 * too (helpers only) no better either. Then, on a quieter machine (load
 * 1.1-1.4, 3 runs each): 0.66-0.67 (140.5-141 M) before, 0.59-0.61 (126-127 M). */
#define DEFER_SEARCHED (BITBOARD_BITS == 64 && HAVE_THREADS)
#define DEFER_MIN_EMPTY 18
#define SEARCHING_SLOTS (1u << 12)

struct Search;

/* Apart by this many bytes, two threads' counters never share a cache line
 * (nor the pair of lines some processors fetch together). */
#define CACHE_LINE_PAIR 128
#if defined(__GNUC__) || defined(__clang__)
#define APART __attribute__((aligned(CACHE_LINE_PAIR)))
#else
#define APART
#endif

/* A position as its parent hands it to negamax: the move that made it, the
 * winning cells of the player who made it, and its table slot (key % size
 * and key / size), computed once by the parent, which asks the memory
 * system for the slot while it orders its moves. */
typedef struct {
    bitboard cell;
    bitboard threats;
    bitboard quotient;
    uint64_t slot;
    int count; /* threats made: the move order's first key */
    int rank;  /* place in centre-first order: the second */
} Child;

/* A transposition table: slot key % size holds (key / size) << 8 | code.
 * With a size of at least 256 the quotient takes at most BITBOARD_BITS - 8
 * bits, so an entry is one bitboard-wide integer: 8 bytes, or 16. */
typedef struct {
    bitboard *slots; /* NULL until the first search */
    uint64_t size;
#if FAST_DIVISION
    /* ceil(2**128 / size), for division by the size without a divide. */
    unsigned __int128 reciprocal;
#endif
    uint32_t *dirty;
    size_t dirty_count; /* DIRTY_CAPACITY + 1: too many to list */
} Table;

/* One thread's share of a search: its count of positions, and, for a
 * helper, the call it repeats. Worker 0 is the caller's thread. Each thread
 * writes its count at every position: the workers lie CACHE_LINE_PAIR bytes
 * apart, or the two cores would pass the line back and forth (measured:
 * two threads took 102 ns a position instead of 58). */
typedef struct APART {
    struct Search *search;
    long long explored;
    long long next_check; /* worker 0 only: when to call check */
    int aborted;          /* ABORT_ERROR or ABORT_STOPPED, or 0 */
    int helper;           /* 0 for the caller's thread, 1.. for helpers */
    int root_moves;
    bitboard current, mask;
    Child root; /* the position searched: its threats and slot */
    int moves, alpha, beta;
    Table leaf; /* the positions near the leaves this thread stored */
#if HAVE_THREADS
    pthread_t thread;
#endif
} Worker;

/* Why a worker stopped early: check raised (a Python exception is set), or
 * another thread of the same search finished first. */
#define ABORT_ERROR 1
#define ABORT_STOPPED 2

typedef struct Search {
    PyObject_HEAD
    int columns;
    int height;
    int connect;
    int cells;
    int winnable;
    bitboard bottom;
    bitboard board;
    bitboard ordered[MAX_COLUMNS]; /* column masks, centre first */
    Table table; /* the positions of more than LEAF_EMPTY empty cells */
    /* The running search. */
    PyObject *check;
    int threads;
    int stop;   /* set once the first thread finishes, or worker 0 gives up */
    int result; /* the score of the thread that set stop by finishing */
    /* The workers, apart from the fields every thread reads at every
     * position (Python allocates this object on 16 bytes only). */
    char apart_before[CACHE_LINE_PAIR];
    Worker workers[MAX_THREADS];
    char apart_after[CACHE_LINE_PAIR];
#if DEFER_SEARCHED
    /* Keys of the positions some thread is searching now (0: none), by key
     * modulo the size: the others search them last (see negamax). */
    uint64_t searching[SEARCHING_SLOTS];
#endif
    /* The 12-stone 7 x 6 database at the leaves (connect_four.engine.database), if given. */
    Database database;
    /* Set, under the GIL, while a search runs: the search lets the GIL go,
     * and another thread must not run, reset or rebuild the same table. */
    int busy;
    PyThreadState *released;
} Search;

static inline bitboard shift_left(bitboard x, unsigned s)
{
    return s < BITBOARD_BITS ? x << s : 0;
}
static inline bitboard shift_right(bitboard x, unsigned s)
{
    return s < BITBOARD_BITS ? x >> s : 0;
}

static inline int popcount(bitboard x)
{
#if (defined(__GNUC__) || defined(__clang__)) && BITBOARD_BITS == 64
    return __builtin_popcountll(x);
#elif defined(__GNUC__) || defined(__clang__)
    return __builtin_popcountll((unsigned long long)x) +
           __builtin_popcountll((unsigned long long)(x >> 64));
#else
    int n = 0;
    for (; x; x &= x - 1) n++;
    return n;
#endif
}

/* Inlined wherever it is called (the search's specialised bodies, see
 * negamax_shaped); a plain inline elsewhere. */
#if defined(__GNUC__) || defined(__clang__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE inline
#endif

/* Whether a chain of `connect` fits the board at all (a column holds
 * height - 1 stones, a row `columns`). */
static inline int chain_fits(int height, int connect, int columns)
{
    return connect <= (height - 1 > columns ? height - 1 : columns);
}

/* The cells that complete a chain of four `stones` in a column of `height`
 * bits, empty or not: Layout.winning_cells' terms for four, unrolled. With
 * a constant height (a specialised search) every shift is a constant. */
static ALWAYS_INLINE bitboard chains_of_four(bitboard stones, const int height)
{
    bitboard r = (stones << 1) & (stones << 2) & (stones << 3);
    const unsigned ds[3] = {(unsigned)height, (unsigned)height + 1u, (unsigned)height - 1u};
    for (int n = 0; n < 3; n++) {
        const unsigned d = ds[n];
        bitboard a1 = shift_left(stones, d), b1 = shift_right(stones, d);
        bitboard a2 = a1 & shift_left(stones, 2 * d), b2 = b1 & shift_right(stones, 2 * d);
        bitboard a3 = a2 & shift_left(stones, 3 * d), b3 = b2 & shift_right(stones, 3 * d);
        r |= a3 | b3 | (a1 & b2) | (a2 & b1);
    }
    return r;
}

/* The empty cells that would complete a chain of `stones`, as
 * Layout.winning_cells: for each line direction d, an empty cell wins when
 * the a cells before it and the b cells after it are stones, a + b =
 * connect - 1. */
static bitboard winning_cells(const Search *s, bitboard stones, bitboard mask)
{
    const int k = s->connect;
    if (k == 1) return s->board & ~mask;
    if (!s->winnable) return 0;
    if (k == 4) return chains_of_four(stones, s->height) & (s->board ^ mask);
    bitboard r = ~(bitboard)0;
    for (int j = 1; j < k; j++) r &= shift_left(stones, (unsigned)j);
    const unsigned ds[3] = {(unsigned)s->height, (unsigned)s->height + 1u,
                            (unsigned)s->height - 1u};
    bitboard before[MAX_CHAIN], after[MAX_CHAIN];
    for (int n = 0; n < 3; n++) {
        const unsigned d = ds[n];
        before[0] = after[0] = ~(bitboard)0;
        for (int j = 1; j < k; j++) {
            before[j] = before[j - 1] & shift_left(stones, (unsigned)j * d);
            after[j] = after[j - 1] & shift_right(stones, (unsigned)j * d);
        }
        r |= before[k - 1] | after[k - 1];
        for (int a = 1; a < k - 1; a++) r |= before[a] & after[k - 1 - a];
    }
    return r & (s->board ^ mask);
}

/* winning_cells for a board of this shape: inlined, with constant shifts,
 * for four in a row; every other chain length calls the general loop. */
static ALWAYS_INLINE bitboard winning_cells_shaped(const Search *s, bitboard stones,
                                                   bitboard mask, const int height,
                                                   const int connect, const int columns)
{
    if (connect == 4 && chain_fits(height, connect, columns))
        return chains_of_four(stones, height) & (s->board ^ mask);
    return winning_cells(s, stones, mask);
}

/* --- Transposition table ------------------------------------------------- */

/* Tables from half this size on are aligned to, and rounded up to, huge
 * pages (the leaf table is just under one). */
#define HUGE_PAGE ((size_t)2 << 20)

/* An empty table of `size` slots, not yet allocated. */
static void table_init(Table *t, uint64_t size)
{
    t->slots = NULL;
    t->size = size;
#if FAST_DIVISION
    t->reciprocal = ~(unsigned __int128)0 / size + 1;
#endif
    t->dirty_count = 0;
}

/* Emptied tables whose searches were freed, kept for the next table of the
 * same size. A fresh table costs the system one zeroed page for each page
 * the search touches, and a search's keys land all over it: a new Solver's
 * 64 MB table cost 12 ms of a 15 ms small search, where a kept one costs
 * clearing the slots its last search listed (or 9 ms rewriting all of it
 * after a search too big to list them). Holding the GIL guards them:
 * tables are allocated and freed only while it is held. */
#define SPARE_TABLES 4
/* Bigger tables (a book build's) go back to the system: at most 256 MiB is
 * kept. */
#define SPARE_MOST_BYTES ((size_t)64 << 20)
static Table spare_tables[SPARE_TABLES];

static void table_reset(Table *t);

/* Give back a table's memory: into the spares, emptied, if one is free. */
static void table_free(Table *t)
{
    if (t->slots && (size_t)t->size * sizeof(bitboard) <= SPARE_MOST_BYTES) {
        for (int i = 0; i < SPARE_TABLES; i++) {
            if (!spare_tables[i].slots) {
                table_reset(t);
                spare_tables[i] = *t;
                t->slots = NULL;
                t->dirty = NULL;
                return;
            }
        }
    }
    free(t->slots);
    t->slots = NULL;
    free(t->dirty);
    t->dirty = NULL;
    t->dirty_count = 0;
}

/* An empty spare table of `t`'s size into `t`: 1, or 0 if none is kept. */
static int table_take_spare(Table *t)
{
    for (int i = 0; i < SPARE_TABLES; i++) {
        if (spare_tables[i].slots && spare_tables[i].size == t->size) {
            t->slots = spare_tables[i].slots;
            t->dirty = spare_tables[i].dirty;
            t->dirty_count = 0;
            spare_tables[i].slots = NULL;
            spare_tables[i].dirty = NULL;
            return 1;
        }
    }
    return 0;
}

/* The table's memory, zeroed: 0, or -1 with MemoryError set. */
static int table_allocate(Table *t)
{
    if (t->slots || table_take_spare(t)) return 0;
    if (!t->dirty) {
        t->dirty = (uint32_t *)malloc(DIRTY_CAPACITY * sizeof(uint32_t));
        if (!t->dirty) {
            PyErr_NoMemory();
            return -1;
        }
    }
    t->dirty_count = 0;
    const size_t bytes = (size_t)t->size * sizeof(bitboard);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (bytes >= HUGE_PAGE / 2) {
        const size_t rounded = (bytes + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
        void *memory = NULL;
        if (posix_memalign(&memory, HUGE_PAGE, rounded) != 0) {
            PyErr_NoMemory();
            return -1;
        }
        madvise(memory, rounded, MADV_HUGEPAGE);
        memset(memory, 0, bytes);
        t->slots = (bitboard *)memory;
        return 0;
    }
#endif
    t->slots = (bitboard *)calloc((size_t)t->size, sizeof(bitboard));
    if (!t->slots) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void table_reset(Table *t)
{
    if (!t->slots) return;
    if (t->dirty_count <= DIRTY_CAPACITY) {
        for (size_t i = 0; i < t->dirty_count; i++) t->slots[t->dirty[i]] = 0;
    } else {
        /* Rewritten in place: cheaper than freeing it and faulting the zero
         * pages in again during the next search (measured 9 ms against about 90). */
        memset(t->slots, 0, (size_t)t->size * sizeof(bitboard));
    }
    t->dirty_count = 0;
}

/* The slot of `key` (key % size), and key / size in *quotient: one division,
 * which on 128 bits is a call into the compiler's runtime. */
static inline uint64_t table_slot(const Table *t, bitboard key, bitboard *quotient)
{
#if FAST_DIVISION
    /* floor(key * ceil(2**128 / size) / 2**128) is key / size for every
     * 64-bit key and size (Lemire, Kaser and Kurz, "Faster remainder by
     * direct computation", 2019): two multiplications instead of a divide. */
    const unsigned __int128 high = (unsigned __int128)key * (uint64_t)(t->reciprocal >> 64);
    const unsigned __int128 low = (unsigned __int128)key * (uint64_t)t->reciprocal;
    const bitboard q = (bitboard)((high + (low >> 64)) >> 64);
#else
    const bitboard q = key / t->size;
#endif
    *quotient = q;
    return (uint64_t)(key - q * t->size);
}

/* Ask the memory system for a slot ahead of its probe. */
static inline void table_prefetch(const Table *t, uint64_t slot)
{
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(&t->slots[slot]);
#else
    (void)t;
    (void)slot;
#endif
}

/* A slot read and written whole, even while other threads of the same
 * search write it (one 64-bit access; the 128-bit search runs one thread). */
static inline bitboard table_load(const Table *t, uint64_t slot)
{
#if BITBOARD_BITS == 64 && HAVE_THREADS
    return __atomic_load_n(&t->slots[slot], __ATOMIC_RELAXED);
#else
    return t->slots[slot];
#endif
}

/* Store a code; `listed`: remember the slot for table_reset (one thread
 * only: with more, the reset clears the whole table, see Search_negamax). */
static inline void table_store(Table *t, int listed, uint64_t slot, bitboard quotient, int code)
{
    const bitboard entry = (quotient << 8) | (bitboard)code;
#if BITBOARD_BITS == 64 && HAVE_THREADS
    __atomic_store_n(&t->slots[slot], entry, __ATOMIC_RELAXED);
#else
    t->slots[slot] = entry;
#endif
    if (!listed) return;
    if (t->dirty_count < DIRTY_CAPACITY) t->dirty[t->dirty_count++] = (uint32_t)slot;
    else t->dirty_count = DIRTY_CAPACITY + 1;
}

/* --- Search ---------------------------------------------------------------- */

/* Nodes between two looks for a signal (Ctrl-C) when there is no budget. */
#define SIGNAL_EVERY (1LL << 16)

/* Positions searched so far by all the threads of the search of `w`. */
static long long explored_by_all(const Worker *w)
{
    const Search *s = w->search;
    long long total = w->explored;
    for (int i = 1; i < s->threads; i++)
        total += __atomic_load_n(&s->workers[i].explored, __ATOMIC_RELAXED);
    return total;
}

/* The budget check of worker 0, with the GIL taken back for it (the search
 * runs without). The budget counts the positions of every thread. */
static int call_check(Worker *w)
{
    Search *s = w->search;
    int status = 0;
    const long long explored_now = explored_by_all(w);
    PyEval_RestoreThread(s->released);
    if (s->check == Py_None) {
        /* No budget to look at, but let Ctrl-C through. */
        w->next_check = w->explored + SIGNAL_EVERY;
        if (PyErr_CheckSignals() < 0) status = -1;
    } else {
        PyObject *explored = PyLong_FromLongLong(explored_now);
        PyObject *result = explored ? PyObject_CallOneArg(s->check, explored) : NULL;
        Py_XDECREF(explored);
        long long next = result ? PyLong_AsLongLong(result) : -1;
        Py_XDECREF(result);
        if (!result || (next == -1 && PyErr_Occurred())) status = -1;
        else w->next_check = w->explored + (next - explored_now);
    }
    s->released = PyEval_SaveThread();
    if (status < 0) w->aborted = ABORT_ERROR;
    return status;
}

static int refuse_if_busy(const Search *s)
{
    if (s->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this search is already running");
        return -1;
    }
    return 0;
}

/* A helper's order of the children near the root: rotated by an amount of
 * its own, so that each helper starts on other subtrees than the others. */
static void helper_order(const Worker *w, Child *children, int n, int moves)
{
    const int ply = moves - w->root_moves;
    if (n < 2 || ply >= HELPER_PLIES) return;
    const int by = (w->helper + ply) % n;
    if (!by) return;
    Child rotated[MAX_COLUMNS];
    for (int i = 0; i < n; i++) rotated[i] = children[(i + by) % n];
    memcpy(children, rotated, (size_t)n * sizeof(Child));
}

/* The table of the positions of `empty` empty cells that worker `w` searches. */
static inline Table *table_of(Worker *w, int empty)
{
    return empty > LEAF_EMPTY ? &w->search->table : &w->leaf;
}

typedef int (*Negamax)(Worker *w, bitboard current, bitboard mask, int moves, int alpha,
                       int beta, const Child *self);

/* connect_four.engine.exact's negamax: the exact score if it lies in [alpha, beta], else a
 * bound on the same side. `self->threats` are the winning cells of the
 * player who just moved; the player to move cannot win at once. The
 * position's slot comes from the parent (see Child), which asked for it in
 * time: the compiled search reads the table in the reference's order, only
 * its memory requests go earlier, and no slot is computed twice.
 *
 * The body of every search of this file, inlined into each: the board's
 * shape (height, connect, columns, cells) comes in as arguments, constants
 * in a search specialised for one board (see negamax_7x6) and the Search's
 * fields in negamax_any, and `recurse` is the search itself. With constants
 * the compiler makes every shift of winning_cells an immediate and unrolls
 * the loops over the columns: the same steps, fewer instructions. */
static ALWAYS_INLINE int negamax_shaped(Worker *w, bitboard current, bitboard mask, int moves,
                                        int alpha, int beta, const Child *self,
                                        const int height, const int connect,
                                        const int columns, const int cells, Negamax recurse)
{
    Search *const s = w->search;
    __atomic_store_n(&w->explored, w->explored + 1, __ATOMIC_RELAXED);
    if (w->explored >= w->next_check && call_check(w) < 0) return 0;
    if (__atomic_load_n(&s->stop, __ATOMIC_RELAXED)) {
        w->aborted = ABORT_STOPPED;
        return 0;
    }
    if (moves == s->database.stones) {
        int known;
        if (database_score(&s->database, current, mask, &known)) return known;
    }
    const bitboard threats = self->threats;
    bitboard possible = (mask + s->bottom) & s->board;
    const bitboard forced = possible & threats;
    if (forced) {
        if (forced & (forced - 1)) return -((cells - moves) / 2); /* two threats */
        possible = forced;
    }
    possible &= ~(threats >> 1); /* never play just below a threat */
    if (!possible) return -((cells - moves) / 2);
    if (moves >= cells - 2) return 0;
    const int lowest = -((cells - 2 - moves) / 2);
    if (alpha < lowest) {
        alpha = lowest;
        if (alpha >= beta) return alpha;
    }
    const int highest = (cells - 1 - moves) / 2;
    if (beta > highest) {
        beta = highest;
        if (alpha >= beta) return beta;
    }
    /* The children in centre-first order, and their slots, asked for at
     * once: they arrive while this node reads its own slot (which the
     * parent asked for) and orders its moves. A child's key is its mask
     * plus its player's stones. This node's entry is in `own`, its
     * children's in `next`: the leaf table near the leaves. */
    Table *const own = table_of(w, cells - moves);
    Table *const next = table_of(w, cells - moves - 1);
    const int listed = s->threads == 1;
    const bitboard base = (current ^ mask) + mask;
    Child children[MAX_COLUMNS];
    int n = 0;
    for (int i = 0; i < columns; i++) {
        const bitboard cell = possible & s->ordered[i];
        if (!cell) continue;
        children[n].cell = cell;
        children[n].slot = table_slot(next, base + cell, &children[n].quotient);
        table_prefetch(next, children[n].slot);
        n++;
    }
    const uint64_t slot = self->slot;
    const bitboard quotient = self->quotient;
    const bitboard entry = table_load(own, slot);
    if ((entry >> 8) == quotient) {
        const int code = (int)(entry & 0xff);
        const int bound = (code >> 1) - CODE_OFFSET;
        if (code & 1) {
            if (beta > bound) {
                beta = bound;
                if (alpha >= beta) return beta;
            }
        } else if (alpha < bound) {
            alpha = bound;
            if (alpha >= beta) return alpha;
        }
    }
    if (cells - moves >= ETC_MIN_EMPTY) {
        /* Enhanced transposition cutoff: a child the table already bounds
         * at or below -beta refutes this node before any search; the first
         * in centre-first order answers. */
        for (int i = 0; i < n; i++) {
            const bitboard child = table_load(next, children[i].slot);
            if ((child >> 8) == children[i].quotient && (child & 1)) {
                const int score = CODE_OFFSET - (int)((child & 0xff) >> 1);
                if (score >= beta) return score;
            }
        }
    }
    /* Most threats first; ties keep the centre-first order. */
    for (int i = 0; i < n; i++) {
        const bitboard cell = children[i].cell;
        children[i].threats =
            winning_cells_shaped(s, current | cell, mask | cell, height, connect, columns);
        children[i].count = popcount(children[i].threats);
        const Child moved = children[i];
        int j = i;
        while (j > 0 && children[j - 1].count < moved.count) {
            children[j] = children[j - 1];
            j--;
        }
        children[j] = moved;
    }
    if (w->helper) helper_order(w, children, n, moves);
    const bitboard opponent = current ^ mask;
#if DEFER_SEARCHED
    if (s->threads > 1 && cells - moves >= DEFER_MIN_EMPTY) {
        /* Two passes: the first leaves out the children (but the first)
         * another thread is searching, the second searches those. */
        int deferred[MAX_COLUMNS];
        int n_deferred = 0;
        for (int pass = 0; pass < 2; pass++) {
            const int count = pass ? n_deferred : n;
            for (int k = 0; k < count; k++) {
                const int i = pass ? deferred[k] : k;
                const bitboard child_mask = mask | children[i].cell;
                const uint64_t key = (uint64_t)(opponent + child_mask);
                uint64_t *const mark = &s->searching[key % SEARCHING_SLOTS];
                if (!pass && i > 0 && __atomic_load_n(mark, __ATOMIC_RELAXED) == key) {
                    deferred[n_deferred++] = i;
                    continue;
                }
                __atomic_store_n(mark, key, __ATOMIC_RELAXED);
                const int score =
                    -recurse(w, opponent, child_mask, moves + 1, -beta, -alpha, &children[i]);
                uint64_t expected = key;
                __atomic_compare_exchange_n(mark, &expected, 0, 0, __ATOMIC_RELAXED,
                                            __ATOMIC_RELAXED);
                if (w->aborted) return 0;
                if (score >= beta) {
                    table_store(own, listed, slot, quotient, (score + CODE_OFFSET) << 1);
                    return score;
                }
                if (score > alpha) alpha = score;
            }
        }
        table_store(own, listed, slot, quotient, ((alpha + CODE_OFFSET) << 1) | 1);
        return alpha;
    }
#endif
    for (int i = 0; i < n; i++) {
        const int score = -recurse(w, opponent, mask | children[i].cell, moves + 1, -beta,
                                   -alpha, &children[i]);
        if (w->aborted) return 0;
        if (score >= beta) {
            table_store(own, listed, slot, quotient, (score + CODE_OFFSET) << 1);
            return score;
        }
        if (score > alpha) alpha = score;
    }
    table_store(own, listed, slot, quotient, ((alpha + CODE_OFFSET) << 1) | 1);
    return alpha;
}

/* The search of any board. */
static int negamax_any(Worker *w, bitboard current, bitboard mask, int moves, int alpha, int beta,
                       const Child *self)
{
    const Search *s = w->search;
    return negamax_shaped(w, current, mask, moves, alpha, beta, self, s->height, s->connect,
                          s->columns, s->cells, negamax_any);
}

/* On x86 processors the specialised searches count threats with the popcnt
 * instruction where the processor has it (every one since about 2008):
 * compiled for it whatever the build's flags, and chosen at run time (see
 * negamax_for); without, the build's baseline calls a library function,
 * about 2 ns a position dearer. */
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__) && !defined(__POPCNT__)
#define WITH_POPCNT __attribute__((target("popcnt")))
#define LOOK_FOR_POPCNT 1
#else
#define WITH_POPCNT
#define LOOK_FOR_POPCNT 0
#endif

#if BITBOARD_BITS == 64
/* The search of the 7 x 6 board with four in a row (Pons' benchmarks, the
 * book), its shape constant. */
static WITH_POPCNT int negamax_7x6(Worker *w, bitboard current, bitboard mask, int moves, int alpha, int beta,
                       const Child *self)
{
    return negamax_shaped(w, current, mask, moves, alpha, beta, self, 7, 4, 7, 42,
                          negamax_7x6);
}

/* The search of the 5 x 8 board with four in a row (the game's default). */
static WITH_POPCNT int negamax_5x8(Worker *w, bitboard current, bitboard mask, int moves, int alpha, int beta,
                       const Child *self)
{
    return negamax_shaped(w, current, mask, moves, alpha, beta, self, 6, 4, 8, 40,
                          negamax_5x8);
}
#endif

/* The search for the board of `s`: a specialised one where there is one. */
static Negamax negamax_for(const Search *s)
{
#if BITBOARD_BITS == 64
#if LOOK_FOR_POPCNT
    if (!__builtin_cpu_supports("popcnt")) return negamax_any;
#endif
    if (s->connect == 4 && s->height == 7 && s->columns == 7 && s->cells == 42)
        return negamax_7x6;
    if (s->connect == 4 && s->height == 6 && s->columns == 8 && s->cells == 40)
        return negamax_5x8;
#endif
    return negamax_any;
}

/* --- Python ints and bitboards ---------------------------------------------- */

#if BITBOARD_BITS == 64

/* `number` as a bitboard: 0 on success, -1 with OverflowError or TypeError set. */
static int bitboard_from_int(PyObject *number, bitboard *out)
{
    const unsigned long long value = PyLong_AsUnsignedLongLong(number);
    if (value == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    *out = value;
    return 0;
}

static PyObject *int_from_bitboard(bitboard x) { return PyLong_FromUnsignedLongLong(x); }

#else

/* `number` as a bitboard, from its two 64-bit halves: 0 on success, -1 with
 * OverflowError (negative, or 2**128 or more) or TypeError set. */
static int bitboard_from_int(PyObject *number, bitboard *out)
{
    if (!PyLong_Check(number)) {
        PyErr_Format(PyExc_TypeError, "a bitboard is an int, not %.100s",
                     Py_TYPE(number)->tp_name);
        return -1;
    }
    PyObject *shift = PyLong_FromLong(64);
    PyObject *high_part = shift ? PyNumber_Rshift(number, shift) : NULL;
    Py_XDECREF(shift);
    if (!high_part) return -1;
    /* Negative numbers stay negative when shifted: refused here, as above. */
    const unsigned long long high = PyLong_AsUnsignedLongLong(high_part);
    Py_DECREF(high_part);
    if (high == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    const unsigned long long low = PyLong_AsUnsignedLongLongMask(number);
    if (low == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    *out = ((bitboard)high << 64) | (bitboard)low;
    return 0;
}

static PyObject *int_from_bitboard(bitboard x)
{
    PyObject *high = PyLong_FromUnsignedLongLong((unsigned long long)(x >> 64));
    PyObject *low = PyLong_FromUnsignedLongLong((unsigned long long)x);
    PyObject *shift = PyLong_FromLong(64);
    PyObject *shifted = high && low && shift ? PyNumber_Lshift(high, shift) : NULL;
    PyObject *result = shifted ? PyNumber_Or(shifted, low) : NULL;
    Py_XDECREF(high);
    Py_XDECREF(low);
    Py_XDECREF(shift);
    Py_XDECREF(shifted);
    return result;
}

#endif

/* --- Python type --------------------------------------------------------- */

static int Search_init(Search *self, PyObject *args, PyObject *kwds)
{
    static char *keywords[] = {"height", "connect", "cells", "bottom_mask", "board_mask",
                               "ordered_columns", "table_size", "threads", NULL};
    int height, connect, cells, threads = 1;
    unsigned long long size;
    PyObject *bottom_mask, *board_mask, *ordered;
    bitboard bottom, board;
    if (refuse_if_busy(self) < 0) return -1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iiiOOOK|i", keywords, &height, &connect, &cells,
                                     &bottom_mask, &board_mask, &ordered, &size, &threads))
        return -1;
    if (bitboard_from_int(bottom_mask, &bottom) < 0 || bitboard_from_int(board_mask, &board) < 0)
        return -1;
    PyObject *sequence = PySequence_Fast(ordered, "ordered_columns must be a sequence");
    if (!sequence) return -1;
    Py_ssize_t columns = PySequence_Fast_GET_SIZE(sequence);
    if (columns < 1 || columns > MAX_COLUMNS || height < 2 ||
        columns * height > BITBOARD_BITS || connect < 1 || cells < 1 || cells > BITBOARD_BITS) {
        Py_DECREF(sequence);
        PyErr_Format(PyExc_ValueError, "the board does not fit a %d-bit bitboard",
                     BITBOARD_BITS);
        return -1;
    }
    if (size < 256 || size > UINT32_MAX) {
        Py_DECREF(sequence);
        PyErr_SetString(PyExc_ValueError, "table_size must be in 256 .. 2**32 - 1");
        return -1;
    }
    if (threads < 1 || threads > MAX_THREADS ||
        (threads > 1 && (!HAVE_THREADS || BITBOARD_BITS != 64))) {
        Py_DECREF(sequence);
        if (threads < 1 || threads > MAX_THREADS)
            PyErr_Format(PyExc_ValueError, "threads must be in 1 .. %d", MAX_THREADS);
        else
            PyErr_SetString(PyExc_ValueError,
                            BITBOARD_BITS == 64 ? "this build has no threads"
                                                : "the 128-bit search runs one thread");
        return -1;
    }
    for (Py_ssize_t i = 0; i < columns; i++) {
        if (bitboard_from_int(PySequence_Fast_GET_ITEM(sequence, i), &self->ordered[i]) < 0) {
            Py_DECREF(sequence);
            return -1;
        }
    }
    Py_DECREF(sequence);
    self->columns = (int)columns;
    self->height = height;
    self->connect = connect;
    self->cells = cells;
    self->winnable = chain_fits(height, connect, (int)columns);
    self->bottom = bottom;
    self->board = board;
    self->threads = threads;
    table_free(&self->table);
    table_init(&self->table, size);
    for (int i = 0; i < MAX_THREADS; i++) {
        table_free(&self->workers[i].leaf);
        table_init(&self->workers[i].leaf, LEAF_SIZE);
    }
    database_release(&self->database);
    return 0;
}

static void Search_dealloc(Search *self)
{
    database_release(&self->database);
    table_free(&self->table);
    for (int i = 0; i < MAX_THREADS; i++) table_free(&self->workers[i].leaf);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Record the score of the first thread to finish, and stop the others. A
 * finished thread's score is as exact as any other's: they all search the
 * same window on the same table. */
static void finish(Search *s, int score)
{
    int expected = 0;
    if (__atomic_compare_exchange_n(&s->stop, &expected, 1, 0, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE))
        s->result = score;
}

#if HAVE_THREADS
static void *helper_run(void *argument)
{
    Worker *w = (Worker *)argument;
    const int score =
        negamax_for(w->search)(w, w->current, w->mask, w->moves, w->alpha, w->beta, &w->root);
    if (!w->aborted) finish(w->search, score);
    return NULL;
}
#endif

/* Start the helpers of a search of more than one thread: how many started
 * (those the system refused simply do not help). */
static int start_helpers(Search *s)
{
    int started = 1;
#if HAVE_THREADS
    while (started < s->threads &&
           pthread_create(&s->workers[started].thread, NULL, helper_run,
                          &s->workers[started]) == 0)
        started++;
#endif
    return started;
}

static void join_helpers(Search *s, int started)
{
#if HAVE_THREADS
    for (int i = 1; i < started; i++) pthread_join(s->workers[i].thread, NULL);
#endif
    /* The helpers that never started searched nothing. */
    for (int i = started; i < s->threads; i++) s->workers[i].explored = 0;
}

/* The big table and each thread's leaf table, allocated where they were
 * not: 0, or -1 with MemoryError set. */
static int tables_allocate(Search *s)
{
    if (table_allocate(&s->table) < 0) return -1;
    for (int i = 0; i < s->threads; i++)
        if (table_allocate(&s->workers[i].leaf) < 0) return -1;
    return 0;
}

static PyObject *Search_negamax(Search *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 8) {
        PyErr_SetString(PyExc_TypeError,
                        "negamax(current, mask, moves, alpha, beta, threats, explored, check)");
        return NULL;
    }
    bitboard current, mask, threats;
    if (bitboard_from_int(args[0], &current) < 0 || bitboard_from_int(args[1], &mask) < 0 ||
        bitboard_from_int(args[5], &threats) < 0)
        return NULL;
    long moves = PyLong_AsLong(args[2]);
    long alpha = PyLong_AsLong(args[3]);
    long beta = PyLong_AsLong(args[4]);
    long long explored = PyLong_AsLongLong(args[6]);
    if (PyErr_Occurred()) return NULL;
    if (args[7] != Py_None && !PyCallable_Check(args[7])) {
        PyErr_SetString(PyExc_TypeError, "check must be callable or None");
        return NULL;
    }
    if (refuse_if_busy(self) < 0 || tables_allocate(self) < 0) return NULL;
    self->busy = 1;
    self->check = args[7];
    self->stop = 0;
    if (self->threads > 1) { /* stores go unlisted */
        self->table.dirty_count = DIRTY_CAPACITY + 1;
        for (int i = 0; i < self->threads; i++)
            self->workers[i].leaf.dirty_count = DIRTY_CAPACITY + 1;
    }
    for (int i = 0; i < self->threads; i++) {
        Worker *w = &self->workers[i];
        w->search = self;
        w->explored = i ? 0 : explored;
        /* Worker 0 looks at the budget on the first node; None: there is no
         * budget to look at. Helpers never look. */
        w->next_check = i ? LLONG_MAX : args[7] == Py_None ? explored + SIGNAL_EVERY : explored;
        w->aborted = 0;
        w->helper = i;
        w->root_moves = (int)moves;
        w->current = current;
        w->mask = mask;
        w->root.threats = threats;
        w->root.slot =
            table_slot(table_of(w, self->cells - (int)moves), current + mask, &w->root.quotient);
        w->moves = (int)moves;
        w->alpha = (int)alpha;
        w->beta = (int)beta;
    }
    /* Other threads run while this one searches; call_check takes the GIL back. */
    self->released = PyEval_SaveThread();
    const int started = start_helpers(self);
    Worker *const first = &self->workers[0];
    int score = negamax_for(self)(first, current, mask, (int)moves, (int)alpha, (int)beta,
                                  &first->root);
    if (!first->aborted) finish(self, score);
    else __atomic_store_n(&self->stop, 1, __ATOMIC_RELAXED); /* a helper finished, or an error */
    join_helpers(self, started);
    PyEval_RestoreThread(self->released);
    self->released = NULL;
    self->busy = 0;
    self->check = NULL;
    long long total = 0;
    for (int i = 0; i < self->threads; i++) total += self->workers[i].explored;
    if (first->aborted == ABORT_ERROR) return NULL;
    return Py_BuildValue("iL", self->result, total);
}

static PyObject *Search_winning_cells(Search *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "winning_cells(stones, mask)");
        return NULL;
    }
    bitboard stones, mask;
    if (bitboard_from_int(args[0], &stones) < 0 || bitboard_from_int(args[1], &mask) < 0)
        return NULL;
    return int_from_bitboard(winning_cells(self, stones, mask));
}

static PyObject *Search_reset(Search *self, PyObject *Py_UNUSED(ignored))
{
    if (refuse_if_busy(self) < 0) return NULL;
    table_reset(&self->table);
    for (int i = 0; i < MAX_THREADS; i++) table_reset(&self->workers[i].leaf);
    Py_RETURN_NONE;
}

static PyObject *Search_touch(Search *self, PyObject *Py_UNUSED(ignored))
{
    if (refuse_if_busy(self) < 0 || tables_allocate(self) < 0) return NULL;
    /* Every slot written: the threads' leaf tables too. */
    self->table.dirty_count = DIRTY_CAPACITY + 1;
    table_reset(&self->table);
    for (int i = 0; i < self->threads; i++) {
        self->workers[i].leaf.dirty_count = DIRTY_CAPACITY + 1;
        table_reset(&self->workers[i].leaf);
    }
    Py_RETURN_NONE;
}

static PyObject *Search_use_database(Search *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "use_database(records, scores, stones)");
        return NULL;
    }
    const long stones = PyLong_AsLong(args[2]);
    if (stones == -1 && PyErr_Occurred()) return NULL;
    if (refuse_if_busy(self) < 0 ||
        database_set(&self->database, args[0], args[1], (int)stones, self->columns,
                     self->height) < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *Search_database_score(Search *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "database_score(current, mask)");
        return NULL;
    }
    bitboard current, mask;
    if (bitboard_from_int(args[0], &current) < 0 || bitboard_from_int(args[1], &mask) < 0)
        return NULL;
    int score;
    if (!database_score(&self->database, current, mask, &score)) Py_RETURN_NONE;
    return PyLong_FromLong(score);
}

static PyObject *Search_get_table_size(Search *self, void *Py_UNUSED(closure))
{
    return PyLong_FromUnsignedLongLong(self->table.size);
}

static PyMethodDef Search_methods[] = {
    {"negamax", (PyCFunction)(void (*)(void))Search_negamax, METH_FASTCALL,
     "negamax(current, mask, moves, alpha, beta, threats, explored, check) -> (score, explored)\n"
     "The search of connect_four.engine.exact; check(explored) returns the next check or raises;\n"
     "check None: no budget (only Ctrl-C is looked for)."},
    {"winning_cells", (PyCFunction)(void (*)(void))Search_winning_cells, METH_FASTCALL,
     "winning_cells(stones, mask) -> the empty cells that complete a chain of stones."},
    {"reset", (PyCFunction)Search_reset, METH_NOARGS, "Empty the transposition table."},
    {"touch", (PyCFunction)Search_touch, METH_NOARGS,
     "Empty the table by writing all of it, so that no search pays for its first touch."},
    {"use_database", (PyCFunction)(void (*)(void))Search_use_database, METH_FASTCALL,
     "use_database(records, scores, stones): the search takes the score of a position of\n"
     "`stones` stones from the database (connect_four.engine.database's buffers); records None: none."},
    {"database_score", (PyCFunction)(void (*)(void))Search_database_score, METH_FASTCALL,
     "database_score(current, mask) -> the database's score of the position, or None."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Search_getset[] = {
    {"table_size", (getter)Search_get_table_size, NULL, "Slots in the transposition table.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = MODULE_NAME ".Search",
    .tp_basicsize = sizeof(Search),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = PyDoc_STR("Search(height, connect, cells, bottom_mask, board_mask, "
                        "ordered_columns, table_size): the exact search of one board, "
                        "with its transposition table."),
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Search_init,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_methods = Search_methods,
    .tp_getset = Search_getset,
};

static struct PyModuleDef native_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = MODULE_NAME,
    .m_doc = PyDoc_STR("The exact Connect Four search of connect_four.engine.exact, compiled."),
    .m_size = -1,
};

/* Whether this compiler has unsigned __int128, so that the 128-bit module
 * can be built with it: the tests then fail in CI if it was not. */
#ifdef __SIZEOF_INT128__
#define COMPILER_HAS_INT128 1
#else
#define COMPILER_HAS_INT128 0
#endif

PyMODINIT_FUNC MODULE_INIT(void)
{
    if (PyType_Ready(&SearchType) < 0) return NULL;
    PyObject *module = PyModule_Create(&native_module);
    if (!module) return NULL;
    if (PyModule_AddIntConstant(module, "BITS", BITBOARD_BITS) < 0 ||
        PyModule_AddIntConstant(module, "COMPILER_HAS_INT128", COMPILER_HAS_INT128) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(module, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(&SearchType);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
