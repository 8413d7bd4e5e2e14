/* The compiled search's leaf hook on the 12-stone 7 x 6 database of
 * engine.database: included by engine/_native_search.h before its Search
 * type, which holds one Database and asks database_score at every node
 * with `stones` stones on the board, as the pure-Python search does.
 *
 * Python reads the file and hands over two parallel arrays, once, as
 * buffers (Search.use_database): the keys (signed 32-bit, sorted) and the
 * scores (signed bytes, Pons' scores for the player to move). The key of a
 * position and of its mirror image are built from one table per column
 * field, as engine.database.database_keys builds them, and looked up by
 * binary search.
 */
#ifndef NATIVE_DATABASE_H
#define NATIVE_DATABASE_H

/* The board the database is for: 7 columns of 6 rows (7 bits a column). */
#define DATABASE_COLUMNS 7
#define DATABASE_HEIGHT 7
#define DATABASE_FIELDS (1u << DATABASE_HEIGHT)

typedef struct {
    Py_buffer keys;   /* int32, sorted; held while in use */
    Py_buffer scores; /* int8, the same count */
    Py_ssize_t count; /* 0: no database */
    int stones;       /* the stone count of every stored position; -1: none */
    uint32_t codes[DATABASE_FIELDS];  /* a column field's code, its final "0" included */
    uint8_t lengths[DATABASE_FIELDS]; /* and its length in bits */
} Database;

/* Forget the database (if any) and give its buffers back. */
static void database_release(Database *db)
{
    if (db->count) {
        PyBuffer_Release(&db->keys);
        PyBuffer_Release(&db->scores);
    }
    db->count = 0;
    db->stones = -1;
}

/* Each column field's code: the stones from the bottom, "10" for the
 * player to move (the first player, with an even stone count), "11" for
 * the other, then "0". */
static void database_build_codes(Database *db)
{
    for (unsigned field = 0; field < DATABASE_FIELDS; field++) {
        int height = 0;
        while ((field + 1u) >> (height + 1)) height++;
        if (height > DATABASE_HEIGHT - 1) {
            db->codes[field] = 0;
            db->lengths[field] = 0;
            continue;
        }
        const unsigned ours = field - ((1u << height) - 1u);
        uint32_t code = 0;
        for (int row = 0; row < height; row++) code = (code << 2) | ((ours >> row) & 1u ? 2u : 3u);
        db->codes[field] = code << 1;
        db->lengths[field] = (uint8_t)(2 * height + 1);
    }
}

static int is_signed_format(const Py_buffer *view, const char *codes)
{
    const char *format = view->format ? view->format : "B";
    const size_t length = strlen(format);
    return length && strchr(codes, format[length - 1]) != NULL;
}

/* Use `keys` and `scores` (None: no database): 0 on success, -1 with an exception. */
static int database_set(Database *db, PyObject *keys, PyObject *scores, int stones, int columns,
                        int height)
{
    database_release(db);
    if (keys == Py_None) return 0;
    if (columns != DATABASE_COLUMNS || height != DATABASE_HEIGHT) {
        PyErr_SetString(PyExc_ValueError, "the database is for boards of 7 columns and 6 rows");
        return -1;
    }
    if (stones < 0) {
        PyErr_SetString(PyExc_ValueError, "stones must not be negative");
        return -1;
    }
    const int flags = PyBUF_FORMAT | PyBUF_C_CONTIGUOUS;
    if (PyObject_GetBuffer(keys, &db->keys, flags) < 0) return -1;
    if (PyObject_GetBuffer(scores, &db->scores, flags) < 0) {
        PyBuffer_Release(&db->keys);
        return -1;
    }
    if (db->keys.itemsize != 4 || !is_signed_format(&db->keys, "il") ||
        db->scores.itemsize != 1 || !is_signed_format(&db->scores, "b") ||
        db->keys.len / 4 != db->scores.len) {
        PyBuffer_Release(&db->keys);
        PyBuffer_Release(&db->scores);
        PyErr_SetString(PyExc_ValueError,
                        "the database is two arrays of one length: keys 'i' (32-bit), scores 'b'");
        return -1;
    }
    db->count = db->scores.len;
    db->stones = db->count ? stones : -1;
    database_build_codes(db);
    return 0;
}

static inline int database_find(const Database *db, int32_t key, int *score)
{
    const int32_t *keys = (const int32_t *)db->keys.buf;
    Py_ssize_t low = 0, high = db->count;
    while (low < high) {
        const Py_ssize_t middle = low + (high - low) / 2;
        if (keys[middle] < key) low = middle + 1;
        else high = middle;
    }
    if (low < db->count && keys[low] == key) {
        *score = ((const int8_t *)db->scores.buf)[low];
        return 1;
    }
    return 0;
}

/* The stored score of the position (its stone count is db->stones) in
 * *score: 1 if the position or its mirror image is stored, else 0. */
static inline int database_score(const Database *db, bitboard current, bitboard mask, int *score)
{
    if (!db->count) return 0;
    const bitboard key = current + mask;
    uint32_t code = 0, mirrored = 0;
    unsigned shift = 0;
    for (int column = 0; column < DATABASE_COLUMNS; column++) {
        const unsigned field =
            (unsigned)(key >> (column * DATABASE_HEIGHT)) & (DATABASE_FIELDS - 1u);
        code = (code << db->lengths[field]) | db->codes[field];
        mirrored |= db->codes[field] << shift;
        shift += db->lengths[field];
    }
    /* The final "0" of the key; the 32 bits read as signed, as stored. */
    code <<= 1;
    mirrored <<= 1;
    return database_find(db, (int32_t)code, score) ||
           (mirrored != code && database_find(db, (int32_t)mirrored, score));
}

#endif
