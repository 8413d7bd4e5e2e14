/* engine._native: the exact search of engine.exact, compiled.
 *
 * A line-for-line mirror of the pure-Python search in engine/exact.py (the
 * reference): the same negamax, the same move order (most threats first,
 * then centre first), the same loss-avoiding filter, the same bound encoding
 * and the same fixed-size transposition table, so both give the same score
 * after exploring the same number of positions. Any change to one must be
 * made to the other; tests/test_exact_backends.py compares them.
 *
 * Boards whose bitboard fits 64 bits only: columns * (rows + 1) <= 64.
 * Python keeps the budget: every time `explored` reaches `next_check` the
 * search calls back `check(explored)`, which returns the next check or
 * raises SearchAborted; the exception unwinds the search unchanged.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t bitboard;

#define MAX_COLUMNS 64
/* A table code is ((bound + CODE_OFFSET) << 1) | is_upper_bound: never 0 for
 * a real bound (scores lie in -32..32), and the empty code 0 reads as the
 * lower bound -CODE_OFFSET, which never raises alpha. Same as table.py. */
#define CODE_OFFSET 64
/* Stores remembered one by one so that a small search resets the table by
 * clearing only them; past this many, the reset reallocates it instead. */
#define DIRTY_CAPACITY (1u << 17)

typedef struct {
    PyObject_HEAD
    int columns;
    int height;
    int connect;
    int cells;
    int winnable;
    bitboard bottom;
    bitboard board;
    bitboard ordered[MAX_COLUMNS]; /* column masks, centre first */
    /* Transposition table: slot key % size holds (key / size) << 8 | code. */
    uint64_t *table;
    uint64_t size;
    uint32_t *dirty;
    size_t dirty_count; /* DIRTY_CAPACITY + 1: too many to list */
    /* The running search. */
    long long explored;
    long long next_check;
    PyObject *check;
    int aborted;
} Search;

static inline bitboard shift_left(bitboard x, unsigned s) { return s < 64 ? x << s : 0; }
static inline bitboard shift_right(bitboard x, unsigned s) { return s < 64 ? x >> s : 0; }

static inline int popcount(bitboard x)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_popcountll(x);
#else
    int n = 0;
    for (; x; x &= x - 1) n++;
    return n;
#endif
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
    if (k == 4) {
        /* The usual game, unrolled: the same terms as the loop below. */
        bitboard r = (stones << 1) & (stones << 2) & (stones << 3);
        const unsigned ds[3] = {(unsigned)s->height, (unsigned)s->height + 1u,
                                (unsigned)s->height - 1u};
        for (int n = 0; n < 3; n++) {
            const unsigned d = ds[n];
            bitboard a1 = shift_left(stones, d), b1 = shift_right(stones, d);
            bitboard a2 = a1 & shift_left(stones, 2 * d), b2 = b1 & shift_right(stones, 2 * d);
            bitboard a3 = a2 & shift_left(stones, 3 * d), b3 = b2 & shift_right(stones, 3 * d);
            r |= a3 | b3 | (a1 & b2) | (a2 & b1);
        }
        return r & (s->board ^ mask);
    }
    bitboard r = ~(bitboard)0;
    for (int j = 1; j < k; j++) r &= shift_left(stones, (unsigned)j);
    const unsigned ds[3] = {(unsigned)s->height, (unsigned)s->height + 1u,
                            (unsigned)s->height - 1u};
    bitboard before[MAX_COLUMNS + 1], after[MAX_COLUMNS + 1];
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

/* --- Transposition table ------------------------------------------------- */

static int table_allocate(Search *s)
{
    if (s->table) return 0;
    s->table = (uint64_t *)calloc((size_t)s->size, sizeof(uint64_t));
    if (!s->table) {
        PyErr_NoMemory();
        return -1;
    }
    s->dirty_count = 0;
    return 0;
}

static void table_reset(Search *s)
{
    if (!s->table) return;
    if (s->dirty_count <= DIRTY_CAPACITY) {
        for (size_t i = 0; i < s->dirty_count; i++) s->table[s->dirty[i]] = 0;
        s->dirty_count = 0;
    } else {
        /* Freed and calloc'ed again: the system hands back zero pages as
         * they are touched, cheaper than writing 64 MB of zeros. */
        free(s->table);
        s->table = NULL;
    }
}

static inline void table_store(Search *s, bitboard key, int code)
{
    uint64_t index = key % s->size;
    s->table[index] = ((key / s->size) << 8) | (uint64_t)code;
    if (s->dirty_count < DIRTY_CAPACITY) s->dirty[s->dirty_count++] = (uint32_t)index;
    else s->dirty_count = DIRTY_CAPACITY + 1;
}

/* --- Search ---------------------------------------------------------------- */

static int call_check(Search *s)
{
    PyObject *explored = PyLong_FromLongLong(s->explored);
    if (!explored) goto fail;
    PyObject *result = PyObject_CallOneArg(s->check, explored);
    Py_DECREF(explored);
    if (!result) goto fail;
    long long next = PyLong_AsLongLong(result);
    Py_DECREF(result);
    if (next == -1 && PyErr_Occurred()) goto fail;
    s->next_check = next;
    return 0;
fail:
    s->aborted = 1;
    return -1;
}

typedef struct {
    bitboard cell;
    bitboard ours;
    int count;
} Child;

/* engine.exact's negamax: the exact score if it lies in [alpha, beta], else a
 * bound on the same side. `threats` are the winning cells of the player who
 * just moved; the player to move cannot win at once. */
static int negamax(Search *s, bitboard current, bitboard mask, int moves, int alpha, int beta,
                   bitboard threats)
{
    s->explored++;
    if (s->explored >= s->next_check && call_check(s) < 0) return 0;
    const int cells = s->cells;
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
    const bitboard key = current + mask;
    const uint64_t entry = s->table[key % s->size];
    if ((entry >> 8) == key / s->size) {
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
    /* Most threats first; ties keep the centre-first order. */
    Child children[MAX_COLUMNS];
    int n = 0;
    for (int i = 0; i < s->columns; i++) {
        const bitboard cell = possible & s->ordered[i];
        if (!cell) continue;
        const bitboard ours = winning_cells(s, current | cell, mask | cell);
        const int count = popcount(ours);
        int j = n++;
        while (j > 0 && children[j - 1].count < count) {
            children[j] = children[j - 1];
            j--;
        }
        children[j].cell = cell;
        children[j].ours = ours;
        children[j].count = count;
    }
    const bitboard opponent = current ^ mask;
    for (int i = 0; i < n; i++) {
        const int score = -negamax(s, opponent, mask | children[i].cell, moves + 1, -beta,
                                   -alpha, children[i].ours);
        if (s->aborted) return 0;
        if (score >= beta) {
            table_store(s, key, (score + CODE_OFFSET) << 1);
            return score;
        }
        if (score > alpha) alpha = score;
    }
    table_store(s, key, ((alpha + CODE_OFFSET) << 1) | 1);
    return alpha;
}

/* --- Python type --------------------------------------------------------- */

static int Search_init(Search *self, PyObject *args, PyObject *kwds)
{
    static char *keywords[] = {"height", "connect", "cells", "bottom_mask", "board_mask",
                               "ordered_columns", "table_size", NULL};
    int height, connect, cells;
    unsigned long long bottom, board, size;
    PyObject *ordered;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iiiKKOK", keywords, &height, &connect, &cells,
                                     &bottom, &board, &ordered, &size))
        return -1;
    PyObject *sequence = PySequence_Fast(ordered, "ordered_columns must be a sequence");
    if (!sequence) return -1;
    Py_ssize_t columns = PySequence_Fast_GET_SIZE(sequence);
    if (columns < 1 || columns > MAX_COLUMNS || height < 2 || columns * height > 64 ||
        connect < 1 || cells < 1 || cells > 64) {
        Py_DECREF(sequence);
        PyErr_SetString(PyExc_ValueError, "the board does not fit a 64-bit bitboard");
        return -1;
    }
    if (size < 256 || size > UINT32_MAX) {
        Py_DECREF(sequence);
        PyErr_SetString(PyExc_ValueError, "table_size must be in 256 .. 2**32 - 1");
        return -1;
    }
    for (Py_ssize_t i = 0; i < columns; i++) {
        self->ordered[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(sequence, i));
        if (self->ordered[i] == (bitboard)-1 && PyErr_Occurred()) {
            Py_DECREF(sequence);
            return -1;
        }
    }
    Py_DECREF(sequence);
    self->columns = (int)columns;
    self->height = height;
    self->connect = connect;
    self->cells = cells;
    self->winnable = connect <= (height - 1 > columns ? height - 1 : (int)columns);
    self->bottom = bottom;
    self->board = board;
    free(self->table);
    self->table = NULL;
    self->size = size;
    if (!self->dirty) {
        self->dirty = (uint32_t *)malloc(DIRTY_CAPACITY * sizeof(uint32_t));
        if (!self->dirty) {
            PyErr_NoMemory();
            return -1;
        }
    }
    self->dirty_count = 0;
    return 0;
}

static void Search_dealloc(Search *self)
{
    free(self->table);
    free(self->dirty);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Search_negamax(Search *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 8) {
        PyErr_SetString(PyExc_TypeError,
                        "negamax(current, mask, moves, alpha, beta, threats, explored, check)");
        return NULL;
    }
    bitboard current = PyLong_AsUnsignedLongLong(args[0]);
    bitboard mask = PyLong_AsUnsignedLongLong(args[1]);
    long moves = PyLong_AsLong(args[2]);
    long alpha = PyLong_AsLong(args[3]);
    long beta = PyLong_AsLong(args[4]);
    bitboard threats = PyLong_AsUnsignedLongLong(args[5]);
    long long explored = PyLong_AsLongLong(args[6]);
    if (PyErr_Occurred()) return NULL;
    if (!PyCallable_Check(args[7])) {
        PyErr_SetString(PyExc_TypeError, "check must be callable");
        return NULL;
    }
    if (table_allocate(self) < 0) return NULL;
    self->explored = explored;
    self->next_check = explored; /* look at the budget on the first node */
    self->check = args[7];
    self->aborted = 0;
    int score = negamax(self, current, mask, (int)moves, (int)alpha, (int)beta, threats);
    self->check = NULL;
    if (self->aborted) return NULL;
    return Py_BuildValue("iL", score, self->explored);
}

static PyObject *Search_winning_cells(Search *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "winning_cells(stones, mask)");
        return NULL;
    }
    bitboard stones = PyLong_AsUnsignedLongLong(args[0]);
    bitboard mask = PyLong_AsUnsignedLongLong(args[1]);
    if (PyErr_Occurred()) return NULL;
    return PyLong_FromUnsignedLongLong(winning_cells(self, stones, mask));
}

static PyObject *Search_reset(Search *self, PyObject *Py_UNUSED(ignored))
{
    table_reset(self);
    Py_RETURN_NONE;
}

static PyObject *Search_get_table_size(Search *self, void *Py_UNUSED(closure))
{
    return PyLong_FromUnsignedLongLong(self->size);
}

static PyMethodDef Search_methods[] = {
    {"negamax", (PyCFunction)(void (*)(void))Search_negamax, METH_FASTCALL,
     "negamax(current, mask, moves, alpha, beta, threats, explored, check) -> (score, explored)\n"
     "The search of engine.exact; check(explored) returns the next check or raises."},
    {"winning_cells", (PyCFunction)(void (*)(void))Search_winning_cells, METH_FASTCALL,
     "winning_cells(stones, mask) -> the empty cells that complete a chain of stones."},
    {"reset", (PyCFunction)Search_reset, METH_NOARGS, "Empty the transposition table."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Search_getset[] = {
    {"table_size", (getter)Search_get_table_size, NULL, "Slots in the transposition table.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "engine._native.Search",
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
    .m_name = "engine._native",
    .m_doc = PyDoc_STR("The exact Connect Four search of engine.exact, compiled."),
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__native(void)
{
    if (PyType_Ready(&SearchType) < 0) return NULL;
    PyObject *module = PyModule_Create(&native_module);
    if (!module) return NULL;
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(module, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(&SearchType);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
