/* The exact search of connect_four.engine.exact, compiled: the search alone, shared by
 * connect_four.engine._native (64-bit bitboards, engine/_native.c) and
 * connect_four.engine._native128 (128-bit bitboards, engine/_native128.c), whose
 * Python type is engine/_native_module.h. Each .c file defines BITBOARD_BITS
 * and includes the module, which includes this file.
 *
 * A mirror of the pure-Python search in engine/exact.py (the reference), as
 * Pascal Pons' tutorial builds it: negamax with alpha-beta, the same move
 * order (most threats first, then centre first), the same loss-avoiding
 * filter, the same table entries, the same enhanced transposition cutoffs
 * and the same two tables (a big one, and a small one for the positions
 * near the leaves). Both give the same score after exploring the same
 * number of positions; tests/test_exact_backends.py compares them. What
 * only this search does changes no count: a node works out its children's
 * slots once and asks the memory system for them before it reads its own,
 * the boards most played get searches compiled for their shape, and
 * several threads may search one table (a lazy SMP search: the first to
 * finish answers). docs/search-history.md says what each idea cost or saved.
 *
 * Boards are written rows x columns, as engine.rules.Rules takes them:
 * 6 x 7 is Pons' board, 5 x 8 the game's. A column takes rows + 1 bits
 * (its sentinel), its `height`.
 *
 * Invariants, asserted in a debug build (compiled without NDEBUG):
 *   - a node is searched with alpha < beta, and returns the exact score if
 *     it lies in [alpha, beta], else a bound on the same side: at most alpha
 *     (fail low) or at least beta (fail high);
 *   - the player to move cannot win at once (the caller plays no move that
 *     lets them);
 *   - current holds the stones of the player to move, mask every stone;
 *     moves counts them, at most cells (a root may be full);
 *   - a child's slot and quotient are its key's (current + mask) in the
 *     table of its empty cells.
 */
#ifndef NATIVE_SEARCH_H
#define NATIVE_SEARCH_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <assert.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
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
#include "_native_table.h"

/* A column takes at least 2 bits (a row and the sentinel). */
#define MAX_COLUMNS (BITBOARD_BITS / 2)
/* A chain that can be won is shorter than the bitboard: winning_cells'
 * partial chains fit. */
#define MAX_CHAIN BITBOARD_BITS
/* Nodes with at least this many empty cells look up their children in the
 * table before searching any (as engine.exact.ETC_MIN_EMPTY). */
#define ETC_MIN_EMPTY 20
/* Positions with at most LEAF_EMPTY empty cells are kept in a table of
 * their own, LEAF_SIZE slots, one a thread (as engine.exact.LEAF_EMPTY and
 * LEAF_TABLE_SIZE): 2 MiB, which stays in the processor's caches. */
#define LEAF_EMPTY 16
#define LEAF_SIZE 262139u
/* The most threads one search may run (Search(..., threads=N)). */
#define MAX_THREADS 64
/* Helper threads start once the caller's thread has searched this many
 * positions: a smaller search ends before a thread would help it. */
#define HELPERS_AFTER 4096
/* Helper threads search the first HELPER_PLIES plies in an order of their
 * own (see helper_order), so that they fill the table ahead of the main
 * thread. */
#define HELPER_PLIES 1
/* With threads, a node of at least DEFER_MIN_EMPTY empty cells leaves to
 * the end the children (but the first) that another thread is searching,
 * so that the threads part ways (as ABDADA does). */
#define DEFER_SEARCHED (BITBOARD_BITS == 64 && HAVE_THREADS)
#define DEFER_MIN_EMPTY 18
#define SEARCHING_SLOTS (1u << 12)
/* Positions between two looks for a signal (Ctrl-C) when there is no budget. */
#define SIGNAL_EVERY (1LL << 16)

/* The shape of a board: the bits of a column (rows + 1), the chain that
 * wins, the columns and the cells. */
typedef struct {
    int height;
    int connect;
    int columns;
    int cells;
} Shape;

/* The boards with searches of their own (four in a row). */
#define SHAPE_6X7 ((Shape){.height = 7, .connect = 4, .columns = 7, .cells = 42})
#define SHAPE_5X8 ((Shape){.height = 6, .connect = 4, .columns = 8, .cells = 40})

static inline int shape_is(Shape a, Shape b)
{
    return a.height == b.height && a.connect == b.connect && a.columns == b.columns &&
           a.cells == b.cells;
}

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
} Child;

/* One thread's share of a search. Worker 0 is the caller's thread. Each
 * thread writes its count at every position: the workers lie apart, or two
 * cores would pass the line back and forth. */
typedef struct APART {
    struct Search *search;
    long long explored;
    long long next_event; /* worker 0 only: next_check, or when the helpers start */
    long long next_check; /* worker 0 only: when to call the budget */
    int aborted;          /* ABORT_ERROR or ABORT_STOPPED, or 0 */
    int helper;           /* 0 for the caller's thread, 1.. for helpers */
    int root_moves;       /* the stones of the position searched */
    bitboard current, mask;
    Child root; /* the position searched: its threats and slot */
    int moves, alpha, beta;
    Table leaf;         /* the positions near the leaves this thread stored */
    Stores big_stores;  /* the slots this thread stored in the big table */
    Stores leaf_stores; /* and in its leaf table */
#if HAVE_THREADS
    pthread_t thread;
#endif
} Worker;

/* Why a worker stopped early: the budget raised (a Python exception is
 * set), or another thread of the same search finished first. */
#define ABORT_ERROR 1
#define ABORT_STOPPED 2

typedef struct Search {
    Shape shape;
    int winnable; /* a chain of `connect` fits the board */
    bitboard bottom;
    bitboard board;
    bitboard ordered[MAX_COLUMNS]; /* column masks, centre first */
    Table table;                   /* the positions of more than LEAF_EMPTY empty cells */
    int threads;
    int started;          /* threads running: 1 until the helpers start */
    int helpers_pending;  /* the helpers are to start... */
    long long helpers_at; /* ...once worker 0 has counted this many positions */
    int stop;             /* set once the first thread finishes, or worker 0 gives up */
    int result;           /* the score of the thread that set stop by finishing */
    /* The workers, apart from the fields every thread reads at every
     * position (Python allocates its objects on 16 bytes only). */
    char apart_before[CACHE_LINE_PAIR];
    Worker workers[MAX_THREADS];
    char apart_after[CACHE_LINE_PAIR];
#if DEFER_SEARCHED
    /* Keys of the positions some thread is searching now (0: none), by key
     * modulo the size: the others search them last. */
    uint64_t searching[SEARCHING_SLOTS];
#endif
    /* The 12-stone 6 x 7 database at the leaves (engine.database), if given. */
    Database database;
} Search;

/* The budget, which the module provides (engine/_native_module.h): called
 * by worker 0 with every thread's count, it sets *next to the count at
 * which to call it again; -1 (with a Python exception set) stops the search. */
static int search_budget(Search *s, long long explored, long long *next);

/* --- Bitboards ----------------------------------------------------------- */

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

/* Inlined wherever it is called (the searches compiled for a shape, see
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
 * a constant height every shift is a constant. */
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
    const int k = s->shape.connect, height = s->shape.height;
    if (k == 1) return s->board & ~mask;
    if (!s->winnable) return 0;
    if (k == 4) return chains_of_four(stones, height) & (s->board ^ mask);
    bitboard r = ~(bitboard)0;
    for (int j = 1; j < k; j++) r &= shift_left(stones, (unsigned)j);
    const unsigned ds[3] = {(unsigned)height, (unsigned)height + 1u, (unsigned)height - 1u};
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
                                                   bitboard mask, const Shape shape)
{
    if (shape.connect == 4 && chain_fits(shape.height, shape.connect, shape.columns))
        return chains_of_four(stones, shape.height) & (s->board ^ mask);
    return winning_cells(s, stones, mask);
}

/* --- The steps of a node -------------------------------------------------- */

/* The table of the positions of `empty` empty cells that worker `w` searches,
 * and the list of the slots it stored there. */
static inline Table *table_of(Worker *w, int empty)
{
    return empty > LEAF_EMPTY ? &w->search->table : &w->leaf;
}
static inline Stores *stores_of(Worker *w, int empty)
{
    return empty > LEAF_EMPTY ? &w->big_stores : &w->leaf_stores;
}

/* Positions searched so far by all the threads of the search of `w`. */
static long long explored_by_all(const Worker *w)
{
    const Search *s = w->search;
    long long total = w->explored;
    for (int i = 1; i < s->threads; i++)
        total += __atomic_load_n(&s->workers[i].explored, __ATOMIC_RELAXED);
    return total;
}

static void start_helpers(Search *s);

/* Worker 0's events, due at w->next_event: the helpers' start and the
 * budget's checks. 0, or -1 when the budget stopped the search. */
static int worker_event(Worker *w)
{
    Search *s = w->search;
    if (s->helpers_pending && w->explored >= s->helpers_at) start_helpers(s);
    if (w->explored >= w->next_check) {
        const long long all = explored_by_all(w);
        long long next;
        if (search_budget(s, all, &next) < 0) {
            w->aborted = ABORT_ERROR;
            return -1;
        }
        w->next_check = w->explored + (next - all);
    }
    w->next_event = w->next_check;
    if (s->helpers_pending && s->helpers_at < w->next_event) w->next_event = s->helpers_at;
    return 0;
}

/* Whether `self` holds the slot of `key` in `table` (for asserts). */
static inline int is_slot_of(const Table *table, bitboard key, const Child *self)
{
    bitboard quotient;
    return table_slot(table, key, &quotient) == self->slot && quotient == self->quotient;
}

/* Count a position: 1 if the search must stop (the budget ran out, or
 * another thread finished first), else 0. */
static ALWAYS_INLINE int count_and_stop(Worker *w)
{
    __atomic_store_n(&w->explored, w->explored + 1, __ATOMIC_RELAXED);
    if (w->explored >= w->next_event && worker_event(w) < 0) return 1;
    if (__atomic_load_n(&w->search->stop, __ATOMIC_RELAXED)) {
        w->aborted = ABORT_STOPPED;
        return 1;
    }
    return 0;
}

/* The moves worth searching: the one that blocks a single threat, or all
 * but those just below a threat; 0 when every move loses at once. */
static ALWAYS_INLINE bitboard moves_worth_searching(const Search *s, bitboard mask,
                                                    bitboard threats)
{
    bitboard possible = (mask + s->bottom) & s->board;
    const bitboard forced = possible & threats;
    if (forced) {
        if (forced & (forced - 1)) return 0; /* two threats: lost */
        possible = forced;
    }
    return possible & ~(threats >> 1);
}

/* Raise alpha to `bound`: 1 if the window closes (alpha is the score). */
static ALWAYS_INLINE int raise_alpha(int *alpha, int beta, int bound)
{
    if (*alpha < bound) *alpha = bound;
    return *alpha >= beta;
}

/* Lower beta to `bound`: 1 if the window closes (beta is the score). */
static ALWAYS_INLINE int lower_beta(int alpha, int *beta, int bound)
{
    if (*beta > bound) *beta = bound;
    return alpha >= *beta;
}

/* The children in centre-first order, with their slots in `next`, asked
 * of the memory system at once: they arrive while the node reads its own
 * slot and orders its moves. A child's key is its mask plus its player's
 * stones. Their count. */
static ALWAYS_INLINE int list_children(const Search *s, const Table *next, bitboard current,
                                       bitboard mask, bitboard possible, Child *children,
                                       const int columns)
{
    const bitboard base = (current ^ mask) + mask;
    int n = 0;
    for (int i = 0; i < columns; i++) {
        const bitboard cell = possible & s->ordered[i];
        if (!cell) continue;
        children[n].cell = cell;
        children[n].slot = table_slot(next, base + cell, &children[n].quotient);
        table_prefetch(next, children[n].slot);
        n++;
    }
    return n;
}

/* Narrow the window by the table's bound of the node: 1 if it closes, the
 * score in *score. */
static ALWAYS_INLINE int table_settles(const Table *own, const Child *self, int *alpha, int *beta,
                                       int *score)
{
    const bitboard entry = table_load(own, self->slot);
    if ((entry >> 8) != self->quotient) return 0;
    const int code = (int)(entry & 0xff);
    const int bound = (code >> 1) - CODE_OFFSET;
    *score = bound; /* the window closes on the bound, if at all */
    return code & 1 ? lower_beta(*alpha, beta, bound) : raise_alpha(alpha, *beta, bound);
}

/* Enhanced transposition cutoff: a child the table bounds at or below
 * -beta refutes the node before any search; the first in centre-first
 * order answers, in *score. */
static ALWAYS_INLINE int child_refutes(const Table *next, const Child *children, int n, int beta,
                                       int *score)
{
    for (int i = 0; i < n; i++) {
        const bitboard entry = table_load(next, children[i].slot);
        if ((entry >> 8) == children[i].quotient && (entry & 1)) {
            *score = CODE_OFFSET - (int)((entry & 0xff) >> 1);
            if (*score >= beta) return 1;
        }
    }
    return 0;
}

/* A helper's order of the children near the root: rotated by an amount of
 * its own, so that each helper starts on other subtrees than the others. */
static void helper_order(const Worker *w, Child *children, int n, int ply)
{
    if (n < 2 || ply >= HELPER_PLIES) return;
    const int by = (w->helper + ply) % n;
    if (!by) return;
    Child rotated[MAX_COLUMNS];
    for (int i = 0; i < n; i++) rotated[i] = children[(i + by) % n];
    memcpy(children, rotated, (size_t)n * sizeof(Child));
}

/* Most threats first (each child's threats worked out here, once); ties
 * keep the centre-first order. */
static ALWAYS_INLINE void order_children(Worker *w, bitboard current, bitboard mask,
                                         Child *children, int n, int moves, const Shape shape)
{
    for (int i = 0; i < n; i++) {
        const bitboard cell = children[i].cell;
        children[i].threats = winning_cells_shaped(w->search, current | cell, mask | cell, shape);
        children[i].count = popcount(children[i].threats);
        const Child moved = children[i];
        int j = i;
        for (; j > 0 && children[j - 1].count < moved.count; j--) children[j] = children[j - 1];
        children[j] = moved;
    }
    if (w->helper) helper_order(w, children, n, moves - w->root_moves);
}

/* The mark that another thread is searching the position of `key` (NULL
 * where no thread defers). */
static inline uint64_t *searching_mark(Search *s, uint64_t key)
{
#if DEFER_SEARCHED
    return &s->searching[key % SEARCHING_SLOTS];
#else
    (void)s;
    (void)key;
    return NULL;
#endif
}

typedef int (*Negamax)(Worker *w, bitboard current, bitboard mask, int moves, int alpha,
                       int beta, const Child *self);

/* Whether another thread is searching the position of `key` now. */
static inline int another_searches(const uint64_t *mark, uint64_t key)
{
    return __atomic_load_n(mark, __ATOMIC_RELAXED) == key;
}

/* A child's score (for the player to move in the node), its position
 * marked as being searched where threads defer (`mark`). */
static ALWAYS_INLINE int child_score(Worker *w, Negamax recurse, uint64_t *mark, uint64_t key,
                                     bitboard opponent, bitboard child_mask, int moves, int alpha,
                                     int beta, const Child *child)
{
    if (!mark) return -recurse(w, opponent, child_mask, moves + 1, -beta, -alpha, child);
    __atomic_store_n(mark, key, __ATOMIC_RELAXED);
    const int score = -recurse(w, opponent, child_mask, moves + 1, -beta, -alpha, child);
    uint64_t expected = key;
    __atomic_compare_exchange_n(mark, &expected, 0, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    return score;
}

/* --- Negamax --------------------------------------------------------------- */

/* engine.exact's negamax: the exact score if it lies in [alpha, beta], else
 * a bound on the same side. `self->threats` are the winning cells of the
 * player who just moved; `self->slot` the node's slot, from its parent.
 *
 * The body of every search of this file, inlined into each: `shape` is a
 * constant in a search compiled for one board (negamax_6x7, negamax_5x8),
 * where the compiler makes every shift an immediate and unrolls the loops
 * over the columns, and the Search's shape in negamax_any; `recurse` is
 * the search itself. */
static ALWAYS_INLINE int negamax_shaped(Worker *w, bitboard current, bitboard mask, int moves,
                                        int alpha, int beta, const Child *self,
                                        const Shape shape, Negamax recurse)
{
    Search *const s = w->search;
    assert(alpha < beta);
    assert(moves <= shape.cells);
    assert(!(winning_cells(s, current, mask) & ((mask + s->bottom) & s->board)));
    assert(is_slot_of(table_of(w, shape.cells - moves), current + mask, self));
    if (count_and_stop(w)) return 0;
    int score;
    if (moves == s->database.stones && database_score(&s->database, current, mask, &score))
        return score;
    const int empty = shape.cells - moves;
    const bitboard possible = moves_worth_searching(s, mask, self->threats);
    if (!possible) return -(empty / 2);
    if (empty <= 2) return 0;
    if (raise_alpha(&alpha, beta, -((empty - 2) / 2))) return alpha; /* no loss next move */
    if (lower_beta(alpha, &beta, (empty - 1) / 2)) return beta;      /* no win this move */
    Table *const own = table_of(w, empty), *const next = table_of(w, empty - 1);
    Child children[MAX_COLUMNS];
    const int n = list_children(s, next, current, mask, possible, children, shape.columns);
    if (table_settles(own, self, &alpha, &beta, &score)) return score;
    if (empty >= ETC_MIN_EMPTY && child_refutes(next, children, n, beta, &score)) return score;
    order_children(w, current, mask, children, n, moves, shape);
    /* The children in order, once; where threads defer, those another
     * thread is searching (but the first) go to the end, in `deferred`. */
    const int defer = DEFER_SEARCHED && s->threads > 1 && empty >= DEFER_MIN_EMPTY;
    const bitboard opponent = current ^ mask;
    int deferred[MAX_COLUMNS], count = n;
    for (int k = 0; k < count; k++) {
        const int i = k < n ? k : deferred[k - n];
        const bitboard child_mask = mask | children[i].cell;
        const uint64_t key = (uint64_t)(opponent + child_mask);
        uint64_t *const mark = defer ? searching_mark(s, key) : NULL;
        if (mark && 0 < k && k < n && another_searches(mark, key)) {
            deferred[count++ - n] = i;
            continue;
        }
        score = child_score(w, recurse, mark, key, opponent, child_mask, moves, alpha, beta,
                            &children[i]);
        if (w->aborted) return 0;
        if (score >= beta) {
            table_store(own, stores_of(w, empty), self->slot, self->quotient,
                        (score + CODE_OFFSET) << 1); /* a lower bound */
            return score;
        }
        if (score > alpha) alpha = score;
    }
    table_store(own, stores_of(w, empty), self->slot, self->quotient,
                ((alpha + CODE_OFFSET) << 1) | 1); /* an upper bound */
    return alpha;
}

/* The search of any board. */
static int negamax_any(Worker *w, bitboard current, bitboard mask, int moves, int alpha, int beta,
                       const Child *self)
{
    return negamax_shaped(w, current, mask, moves, alpha, beta, self, w->search->shape,
                          negamax_any);
}

/* On x86 processors the searches compiled for a shape count threats with
 * the popcnt instruction where the processor has it (every one since about
 * 2008): compiled for it whatever the build's flags, and chosen at run time
 * (see negamax_for). */
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__) && !defined(__POPCNT__)
#define WITH_POPCNT __attribute__((target("popcnt")))
#define LOOK_FOR_POPCNT 1
#else
#define WITH_POPCNT
#define LOOK_FOR_POPCNT 0
#endif

#if BITBOARD_BITS == 64
/* The search of the 6 x 7 board (Pons' benchmarks, the book), its shape constant. */
static WITH_POPCNT int negamax_6x7(Worker *w, bitboard current, bitboard mask, int moves,
                                   int alpha, int beta, const Child *self)
{
    return negamax_shaped(w, current, mask, moves, alpha, beta, self, SHAPE_6X7, negamax_6x7);
}

/* The search of the 5 x 8 board (the game's default). */
static WITH_POPCNT int negamax_5x8(Worker *w, bitboard current, bitboard mask, int moves,
                                   int alpha, int beta, const Child *self)
{
    return negamax_shaped(w, current, mask, moves, alpha, beta, self, SHAPE_5X8, negamax_5x8);
}
#endif

/* The search for the board of `s`: one compiled for its shape where there is one. */
static Negamax negamax_for(const Search *s)
{
#if BITBOARD_BITS == 64
#if LOOK_FOR_POPCNT
    if (!__builtin_cpu_supports("popcnt")) return negamax_any;
#endif
    if (shape_is(s->shape, SHAPE_6X7)) return negamax_6x7;
    if (shape_is(s->shape, SHAPE_5X8)) return negamax_5x8;
#endif
    return negamax_any;
}

/* --- Tables and threads ------------------------------------------------------ */

/* The big table, each thread's leaf table and their lists of stores,
 * allocated where they were not: 0, or -1 on failure. */
static int search_allocate(Search *s)
{
    if (table_allocate(&s->table) < 0) return -1;
    for (int i = 0; i < s->threads; i++) {
        Worker *w = &s->workers[i];
        if (table_allocate(&w->leaf) < 0 || stores_allocate(&w->big_stores) < 0 ||
            stores_allocate(&w->leaf_stores) < 0)
            return -1;
    }
    return 0;
}

/* Empty every table: the slots each thread listed, or all of a table where
 * a thread stored too many to list. */
static void search_empty(Search *s)
{
    int all_of_big = 0;
    for (int i = 0; i < MAX_THREADS; i++) {
        Worker *w = &s->workers[i];
        if (!table_clear_listed(&s->table, &w->big_stores)) all_of_big = 1;
        if (!table_clear_listed(&w->leaf, &w->leaf_stores)) table_clear_all(&w->leaf);
    }
    if (all_of_big) table_clear_all(&s->table);
}

/* The slots in use in every table: 0 once they are emptied. */
static uint64_t search_filled(const Search *s)
{
    uint64_t filled = table_filled(&s->table);
    for (int i = 0; i < MAX_THREADS; i++) filled += table_filled(&s->workers[i].leaf);
    return filled;
}

/* Every table emptied by writing all of it, so that no search pays for
 * its first touch of the memory (benchmarks): 0, or -1 on failure. */
static int search_touch(Search *s)
{
    if (search_allocate(s) < 0) return -1;
    for (int i = 0; i < MAX_THREADS; i++)
        s->workers[i].big_stores.overflowed = s->workers[i].leaf_stores.overflowed = 1;
    search_empty(s);
    return 0;
}

/* Give every table and list back (the tables emptied, to the spares). */
static void search_free(Search *s)
{
    search_empty(s);
    table_free(&s->table);
    for (int i = 0; i < MAX_THREADS; i++) {
        table_free(&s->workers[i].leaf);
        stores_free(&s->workers[i].big_stores);
        stores_free(&s->workers[i].leaf_stores);
    }
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

/* Start the helpers (worker 0 calls it once it has searched HELPERS_AFTER
 * positions); those the system refuses simply do not help. */
static void start_helpers(Search *s)
{
    s->helpers_pending = 0;
#if HAVE_THREADS
    while (s->started < s->threads &&
           pthread_create(&s->workers[s->started].thread, NULL, helper_run,
                          &s->workers[s->started]) == 0)
        s->started++;
#endif
}

static void join_helpers(Search *s)
{
#if HAVE_THREADS
    for (int i = 1; i < s->started; i++) pthread_join(s->workers[i].thread, NULL);
#endif
}

/* The root of a search, as Search.negamax takes it. */
typedef struct {
    bitboard current, mask, threats;
    int moves, alpha, beta;
} Root;

/* Search `root` on every thread; the score, with the positions searched
 * added to *explored. Worker 0 calls the budget on the first position if
 * `budgeted`, else every SIGNAL_EVERY positions. Runs without the GIL. */
static int search_run(Search *s, Root root, int budgeted, long long *explored)
{
    s->stop = 0;
    s->started = 1;
    s->helpers_pending = s->threads > 1;
    s->helpers_at = *explored + HELPERS_AFTER;
    for (int i = 0; i < s->threads; i++) {
        Worker *w = &s->workers[i];
        w->search = s;
        w->explored = i ? 0 : *explored;
        w->next_check = i ? LLONG_MAX : budgeted ? *explored : *explored + SIGNAL_EVERY;
        w->next_event = w->next_check;
        if (!i && s->helpers_pending && s->helpers_at < w->next_event)
            w->next_event = s->helpers_at;
        w->aborted = 0;
        w->helper = i;
        w->root_moves = root.moves;
        w->current = root.current;
        w->mask = root.mask;
        w->root.threats = root.threats;
        w->root.slot = table_slot(table_of(w, s->shape.cells - root.moves),
                                  root.current + root.mask, &w->root.quotient);
        w->moves = root.moves;
        w->alpha = root.alpha;
        w->beta = root.beta;
    }
    Worker *const first = &s->workers[0];
    const int score = negamax_for(s)(first, root.current, root.mask, root.moves, root.alpha,
                                     root.beta, &first->root);
    if (!first->aborted) finish(s, score);
    else __atomic_store_n(&s->stop, 1, __ATOMIC_RELAXED); /* a helper finished, or an error */
    join_helpers(s);
    long long total = 0;
    for (int i = 0; i < s->started; i++) total += s->workers[i].explored;
    *explored = total;
    return s->result;
}

#endif
