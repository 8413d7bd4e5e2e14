/* The Python module around the compiled search (engine/_native_search.h):
 * its Search type, the type's methods, and the module's init. Included by
 * engine/_native.c (64-bit bitboards) and engine/_native128.c (128-bit),
 * each of which defines BITBOARD_BITS, MODULE_NAME and MODULE_INIT first.
 *
 * Python keeps the budget: every time the search's count reaches the
 * next check, it calls back `check(explored)`, which returns the next
 * check or raises SearchAborted; the exception unwinds the search
 * unchanged. The search lets other Python threads run, taking the GIL
 * back for each check.
 */
#include <stddef.h>

#include "_native_search.h"

typedef struct {
    PyObject_HEAD
    /* Set, under the GIL, while a search runs: the search lets the GIL go,
     * and another thread must not run, reset or rebuild the same tables. */
    int busy;
    PyObject *check; /* the running search's budget, or None */
    PyThreadState *released;
    Search search;
} SearchObject;

static SearchObject *object_of(Search *s)
{
    return (SearchObject *)((char *)s - offsetof(SearchObject, search));
}

/* The budget (see engine/_native_search.h), with the GIL taken back for it. */
static int search_budget(Search *s, long long explored, long long *next)
{
    SearchObject *self = object_of(s);
    int status = 0;
    PyEval_RestoreThread(self->released);
    if (self->check == Py_None) {
        /* No budget to look at, but let Ctrl-C through. */
        *next = explored + SIGNAL_EVERY;
        if (PyErr_CheckSignals() < 0) status = -1;
    } else {
        PyObject *count = PyLong_FromLongLong(explored);
        PyObject *result = count ? PyObject_CallOneArg(self->check, count) : NULL;
        Py_XDECREF(count);
        *next = result ? PyLong_AsLongLong(result) : -1;
        Py_XDECREF(result);
        if (!result || (*next == -1 && PyErr_Occurred())) status = -1;
    }
    self->released = PyEval_SaveThread();
    return status;
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

/* --- The Search type ------------------------------------------------------- */

static int refuse_if_busy(const SearchObject *self)
{
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this search is already running");
        return -1;
    }
    return 0;
}

/* The board's shape and threads, checked: 0, or -1 with ValueError set. */
static int check_board(Py_ssize_t columns, int height, int connect, int cells,
                       unsigned long long size, int threads)
{
    if (columns < 1 || columns > MAX_COLUMNS || height < 2 || columns * height > BITBOARD_BITS ||
        connect < 1 || cells < 1 || cells > BITBOARD_BITS) {
        PyErr_Format(PyExc_ValueError, "the board does not fit a %d-bit bitboard",
                     BITBOARD_BITS);
        return -1;
    }
    if (size < 256 || size > UINT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "table_size must be in 256 .. 2**32 - 1");
        return -1;
    }
    if (threads < 1 || threads > MAX_THREADS) {
        PyErr_Format(PyExc_ValueError, "threads must be in 1 .. %d", MAX_THREADS);
        return -1;
    }
    if (threads > 1 && (!HAVE_THREADS || BITBOARD_BITS != 64)) {
        PyErr_SetString(PyExc_ValueError, BITBOARD_BITS == 64
                                              ? "this build has no threads"
                                              : "the 128-bit search runs one thread");
        return -1;
    }
    return 0;
}

static int Search_init(SearchObject *self, PyObject *args, PyObject *kwds)
{
    static char *keywords[] = {"height", "connect", "cells", "bottom_mask", "board_mask",
                               "ordered_columns", "table_size", "threads", NULL};
    int height, connect, cells, threads = 1;
    unsigned long long size;
    PyObject *bottom_mask, *board_mask, *ordered;
    bitboard bottom, board, masks[MAX_COLUMNS];
    if (refuse_if_busy(self) < 0) return -1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iiiOOOK|i", keywords, &height, &connect, &cells,
                                     &bottom_mask, &board_mask, &ordered, &size, &threads))
        return -1;
    if (bitboard_from_int(bottom_mask, &bottom) < 0 || bitboard_from_int(board_mask, &board) < 0)
        return -1;
    PyObject *sequence = PySequence_Fast(ordered, "ordered_columns must be a sequence");
    if (!sequence) return -1;
    const Py_ssize_t columns = PySequence_Fast_GET_SIZE(sequence);
    int status = check_board(columns, height, connect, cells, size, threads);
    for (Py_ssize_t i = 0; status == 0 && i < columns; i++)
        status = bitboard_from_int(PySequence_Fast_GET_ITEM(sequence, i), &masks[i]);
    Py_DECREF(sequence);
    if (status < 0) return -1;
    Search *s = &self->search;
    search_free(s);
    s->shape = (Shape){.height = height, .connect = connect, .columns = (int)columns,
                       .cells = cells};
    s->winnable = chain_fits(height, connect, (int)columns);
    s->bottom = bottom;
    s->board = board;
    memcpy(s->ordered, masks, (size_t)columns * sizeof(bitboard));
    s->threads = threads;
    table_init(&s->table, size);
    for (int i = 0; i < MAX_THREADS; i++) table_init(&s->workers[i].leaf, LEAF_SIZE);
    database_release(&s->database);
    return 0;
}

static void Search_dealloc(SearchObject *self)
{
    database_release(&self->search.database);
    search_free(&self->search);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Search_negamax(SearchObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 8) {
        PyErr_SetString(PyExc_TypeError,
                        "negamax(current, mask, moves, alpha, beta, threats, explored, check)");
        return NULL;
    }
    Root root;
    if (bitboard_from_int(args[0], &root.current) < 0 ||
        bitboard_from_int(args[1], &root.mask) < 0 || bitboard_from_int(args[5], &root.threats) < 0)
        return NULL;
    const long moves = PyLong_AsLong(args[2]);
    const long alpha = PyLong_AsLong(args[3]);
    const long beta = PyLong_AsLong(args[4]);
    long long explored = PyLong_AsLongLong(args[6]);
    if (PyErr_Occurred()) return NULL;
    root.moves = (int)moves;
    root.alpha = (int)alpha;
    root.beta = (int)beta;
    if (args[7] != Py_None && !PyCallable_Check(args[7])) {
        PyErr_SetString(PyExc_TypeError, "check must be callable or None");
        return NULL;
    }
    if (refuse_if_busy(self) < 0) return NULL;
    if (search_allocate(&self->search) < 0) return PyErr_NoMemory();
    self->busy = 1;
    self->check = args[7];
    /* Other threads run while this one searches; search_budget takes the GIL back. */
    self->released = PyEval_SaveThread();
    const int score = search_run(&self->search, root, args[7] != Py_None, &explored);
    PyEval_RestoreThread(self->released);
    self->released = NULL;
    self->busy = 0;
    self->check = NULL;
    if (self->search.workers[0].aborted == ABORT_ERROR) return NULL;
    return Py_BuildValue("iL", score, explored);
}

static PyObject *Search_winning_cells(SearchObject *self, PyObject *const *args,
                                      Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "winning_cells(stones, mask)");
        return NULL;
    }
    bitboard stones, mask;
    if (bitboard_from_int(args[0], &stones) < 0 || bitboard_from_int(args[1], &mask) < 0)
        return NULL;
    return int_from_bitboard(winning_cells(&self->search, stones, mask));
}

static PyObject *Search_reset(SearchObject *self, PyObject *Py_UNUSED(ignored))
{
    if (refuse_if_busy(self) < 0) return NULL;
    search_empty(&self->search);
    Py_RETURN_NONE;
}

static PyObject *Search_touch(SearchObject *self, PyObject *Py_UNUSED(ignored))
{
    if (refuse_if_busy(self) < 0) return NULL;
    if (search_touch(&self->search) < 0) return PyErr_NoMemory();
    Py_RETURN_NONE;
}

static PyObject *Search_filled(SearchObject *self, PyObject *Py_UNUSED(ignored))
{
    if (refuse_if_busy(self) < 0) return NULL;
    return PyLong_FromUnsignedLongLong(search_filled(&self->search));
}

static PyObject *Search_use_database(SearchObject *self, PyObject *const *args,
                                     Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "use_database(records, scores, stones)");
        return NULL;
    }
    const long stones = PyLong_AsLong(args[2]);
    if (stones == -1 && PyErr_Occurred()) return NULL;
    const Shape shape = self->search.shape;
    if (refuse_if_busy(self) < 0 ||
        database_set(&self->search.database, args[0], args[1], (int)stones, shape.columns,
                     shape.height) < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *Search_database_score(SearchObject *self, PyObject *const *args,
                                       Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "database_score(current, mask)");
        return NULL;
    }
    bitboard current, mask;
    if (bitboard_from_int(args[0], &current) < 0 || bitboard_from_int(args[1], &mask) < 0)
        return NULL;
    int score;
    if (!database_score(&self->search.database, current, mask, &score)) Py_RETURN_NONE;
    return PyLong_FromLong(score);
}

static PyObject *Search_get_table_size(SearchObject *self, void *Py_UNUSED(closure))
{
    return PyLong_FromUnsignedLongLong(self->search.table.size);
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
    {"filled", (PyCFunction)Search_filled, METH_NOARGS,
     "filled() -> the slots in use in every table (a scan of all of them): 0 after reset()."},
    {"use_database", (PyCFunction)(void (*)(void))Search_use_database, METH_FASTCALL,
     "use_database(records, scores, stones): the search takes the score of a position of\n"
     "`stones` stones from the database (connect_four.engine.database's buffers); records None: "
     "none."},
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
    .tp_basicsize = sizeof(SearchObject),
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

/* --- The module -------------------------------------------------------------- */

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
