/* The compiled search's leaf hook on the 12-stone 6 x 7 database of
 * connect_four.engine.database: included by engine/_native_search.h before its Search
 * type, which holds one Database and asks database_score at every node
 * with `stones` stones on the board, as the pure-Python search does.
 *
 * Python reads the file and hands over, once, as buffers
 * (Search.use_database): its records as they are (5 bytes each, sorted by
 * key: a signed big-endian 32-bit key and a value byte) and a 256-byte
 * table from a value byte to its Pons score (a signed byte, for the player
 * to move). The key of a position and of its mirror image are built from
 * one table per column field, as connect_four.engine.database.database_keys builds
 * them, and looked up by binary search.
 */
#ifndef NATIVE_DATABASE_H
#define NATIVE_DATABASE_H

/* The board the database is for: 7 columns of 6 rows (7 bits a column). */
#define DATABASE_COLUMNS 7
#define DATABASE_HEIGHT 7
#define DATABASE_FIELDS (1u << DATABASE_HEIGHT)
#define DATABASE_RECORD 5

typedef struct {
    Py_buffer records; /* held while in use */
    Py_buffer scores;  /* 256 bytes: a value byte's score */
    Py_ssize_t count;  /* records; 0: no database */
    int stones;       /* the stone count of every stored position; -1: none */
    uint32_t codes[DATABASE_FIELDS];  /* a column field's code, its final "0" included */
    uint8_t lengths[DATABASE_FIELDS]; /* and its length in bits */
} Database;

/* Forget the database (if any) and give its buffers back. */
static void database_release(Database *db)
{
    if (db->count) {
        PyBuffer_Release(&db->records);
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

/* Use `records` and `scores` (None: no database): 0 on success, -1 with an exception. */
static int database_set(Database *db, PyObject *records, PyObject *scores, int stones,
                        int columns, int height)
{
    database_release(db);
    if (records == Py_None) return 0;
    if (columns != DATABASE_COLUMNS || height != DATABASE_HEIGHT) {
        PyErr_SetString(PyExc_ValueError, "the database is for boards of 7 columns and 6 rows");
        return -1;
    }
    if (stones < 0) {
        PyErr_SetString(PyExc_ValueError, "stones must not be negative");
        return -1;
    }
    if (PyObject_GetBuffer(records, &db->records, PyBUF_SIMPLE) < 0) return -1;
    if (PyObject_GetBuffer(scores, &db->scores, PyBUF_SIMPLE) < 0) {
        PyBuffer_Release(&db->records);
        return -1;
    }
    if (db->records.len % DATABASE_RECORD || db->scores.len != 256) {
        PyBuffer_Release(&db->records);
        PyBuffer_Release(&db->scores);
        PyErr_SetString(PyExc_ValueError,
                        "the database is its 5-byte records and a 256-byte table of scores");
        return -1;
    }
    db->count = db->records.len / DATABASE_RECORD;
    db->stones = db->count ? stones : -1;
    database_build_codes(db);
    return 0;
}

/* The key of a record: 4 bytes, big-endian, signed. */
static inline int32_t database_key(const uint8_t *record)
{
    return (int32_t)(((uint32_t)record[0] << 24) | ((uint32_t)record[1] << 16) |
                     ((uint32_t)record[2] << 8) | (uint32_t)record[3]);
}

static inline int database_find(const Database *db, int32_t key, int *score)
{
    const uint8_t *records = (const uint8_t *)db->records.buf;
    Py_ssize_t low = 0, high = db->count;
    while (low < high) {
        const Py_ssize_t middle = low + (high - low) / 2;
        if (database_key(records + middle * DATABASE_RECORD) < key) low = middle + 1;
        else high = middle;
    }
    if (low < db->count && database_key(records + low * DATABASE_RECORD) == key) {
        const uint8_t value = records[low * DATABASE_RECORD + 4];
        *score = ((const int8_t *)db->scores.buf)[value];
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
