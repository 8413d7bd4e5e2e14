/* The compiled search's transposition tables (included by engine/_native_search.h,
 * which defines `bitboard` first).
 *
 * A table of `size` slots, as engine/table.py's: slot key % size holds
 * (key / size) << 8 | code, where the code is ((bound + CODE_OFFSET) << 1)
 * | is_upper_bound. With a size of at least 256 the quotient takes at most
 * BITBOARD_BITS - 8 bits, so an entry is one bitboard-wide integer (8
 * bytes, or 16), read and written whole.
 *
 * What a table costs outside the search is kept in proportion to what the
 * search did (see docs/search-history.md for the measures):
 *   - its memory comes from the system as zero pages, which cost only when
 *     first touched (a table that is written in full before its first
 *     search cost a small search 5 to 300 ms);
 *   - each thread lists the slots it stores (Stores), so that emptying a
 *     table clears those slots only, unless there were too many to list;
 *   - a freed table is kept, emptied, for the next table of the same size
 *     (a new Solver for each hint costs no new memory).
 */
#ifndef NATIVE_TABLE_H
#define NATIVE_TABLE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

/* 64-bit keys are divided by the table size through a 128-bit reciprocal
 * where the compiler has unsigned __int128 (see table_slot). */
#if BITBOARD_BITS == 64 && defined(__SIZEOF_INT128__)
#define FAST_DIVISION 1
#else
#define FAST_DIVISION 0
#endif

/* A table code is ((bound + CODE_OFFSET) << 1) | is_upper_bound, as in
 * table.py: never 0 for a real bound, and the empty code 0 reads as the
 * lower bound -CODE_OFFSET, which never raises alpha. A stored bound is a
 * child's score or an alpha clamped to the node's range, so it lies within
 * +-(cells - 1) / 2: -31..31 on 64 bits, -63..63 on 128 bits (at most 127
 * cells), and the code fits a byte. table.py's dict table for boards of
 * over 63 cells adds max(64, cells + 1) instead; the bounds read back are
 * the same, and its empty code is just as useless, so both prune alike. */
#define CODE_OFFSET 64

/* Stores one thread lists in one table; past this many, emptying the
 * table rewrites all of it. The list starts small and grows (a new list
 * of the most stores would cost a small search more than its search). */
#define STORES_CAPACITY (1u << 17)
#define STORES_FIRST_CAPACITY (1u << 10)

/* Tables from this size on are mapped from the system directly: zero
 * pages, whatever the allocator did with the memory before. They are not
 * put on huge pages: on a busy machine the first touch of one stalled for
 * the system to find 2 MiB free, and a small search touches slots all over
 * a big table (see docs/search-history.md). */
#define MAPPED_FROM ((size_t)1 << 20)

typedef struct {
    bitboard *slots; /* NULL until the first search */
    uint64_t size;
#if FAST_DIVISION
    /* ceil(2**128 / size), for division by the size without a divide. */
    unsigned __int128 reciprocal;
#endif
    void *mapped;         /* what to give back: the mapping, or the calloc block */
    size_t mapped_bytes;  /* 0: calloc'ed */
} Table;

/* The slots one thread stored in one table since it was last emptied. */
typedef struct {
    uint32_t *slots;
    size_t count;
    size_t capacity;
    int overflowed; /* too many to list: slots no longer tells them */
} Stores;

/* An empty table of `size` slots, not yet allocated. */
static void table_init(Table *t, uint64_t size)
{
    t->slots = NULL;
    t->size = size;
#if FAST_DIVISION
    t->reciprocal = ~(unsigned __int128)0 / size + 1;
#endif
    t->mapped = NULL;
    t->mapped_bytes = 0;
}

/* Emptied tables whose searches were freed, kept for the next table of the
 * same size. Holding the GIL guards them: tables are allocated and freed
 * only while it is held. */
#define SPARE_TABLES 4
/* Bigger tables (a book build's) go back to the system: at most 256 MiB is
 * kept. */
#define SPARE_MOST_BYTES ((size_t)64 << 20)
static Table spare_tables[SPARE_TABLES];

static void table_release(Table *t)
{
#if defined(__linux__)
    if (t->mapped_bytes) munmap(t->mapped, t->mapped_bytes);
    else free(t->mapped);
#else
    free(t->mapped);
#endif
    t->slots = NULL;
    t->mapped = NULL;
    t->mapped_bytes = 0;
}

/* Give back an empty table's memory: into the spares, if one is free. */
static void table_free(Table *t)
{
    if (!t->slots) return;
    if ((size_t)t->size * sizeof(bitboard) <= SPARE_MOST_BYTES) {
        for (int i = 0; i < SPARE_TABLES; i++) {
            if (!spare_tables[i].slots) {
                spare_tables[i] = *t;
                t->slots = NULL;
                return;
            }
        }
    }
    table_release(t);
}

/* An empty spare table of `t`'s size into `t`: 1, or 0 if none is kept. */
static int table_take_spare(Table *t)
{
    for (int i = 0; i < SPARE_TABLES; i++) {
        if (spare_tables[i].slots && spare_tables[i].size == t->size) {
            *t = spare_tables[i];
            spare_tables[i].slots = NULL;
            return 1;
        }
    }
    return 0;
}

/* The table's memory, zeroed (by the system, page by page as the search
 * first touches it), where it was not allocated: 0, or -1 on failure. */
static int table_allocate(Table *t)
{
    if (t->slots || table_take_spare(t)) return 0;
    const size_t bytes = (size_t)t->size * sizeof(bitboard);
#if defined(__linux__) && defined(MAP_ANONYMOUS)
    if (bytes >= MAPPED_FROM) {
        void *mapped =
            mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (mapped == MAP_FAILED) return -1;
        t->mapped = mapped;
        t->mapped_bytes = bytes;
        t->slots = (bitboard *)mapped;
        return 0;
    }
#endif
    t->slots = (bitboard *)calloc((size_t)t->size, sizeof(bitboard));
    t->mapped = t->slots;
    t->mapped_bytes = 0;
    return t->slots ? 0 : -1;
}

/* A thread's list of stores, allocated where it was not: 0, or -1. */
static int stores_allocate(Stores *stores)
{
    if (stores->slots) return 0;
    stores->count = 0;
    stores->overflowed = 0;
    stores->slots = (uint32_t *)malloc(STORES_FIRST_CAPACITY * sizeof(uint32_t));
    stores->capacity = stores->slots ? STORES_FIRST_CAPACITY : 0;
    return stores->slots ? 0 : -1;
}

static void stores_free(Stores *stores)
{
    free(stores->slots);
    stores->slots = NULL;
    stores->count = stores->capacity = 0;
    stores->overflowed = 0;
}

/* A full list: twice as long, or, past STORES_CAPACITY (or without the
 * memory), too many to list: the list then restarts, its slots unused. */
static void stores_grow(Stores *stores)
{
    if (!stores->overflowed && stores->capacity < STORES_CAPACITY) {
        const size_t capacity = 2 * stores->capacity;
        uint32_t *slots = (uint32_t *)realloc(stores->slots, capacity * sizeof(uint32_t));
        if (slots) {
            stores->slots = slots;
            stores->capacity = capacity;
            return;
        }
    }
    stores->overflowed = 1;
    stores->count = 0;
}

/* Remember a slot stored. */
static inline void stores_add(Stores *stores, uint64_t slot)
{
    if (stores->count == stores->capacity) stores_grow(stores);
    stores->slots[stores->count++] = (uint32_t)slot;
}

/* Empty the slots of `t` that `stores` lists; 0 if there were too many to
 * list (the caller then empties the whole table). */
static int table_clear_listed(Table *t, Stores *stores)
{
    const int listed = !stores->overflowed;
    if (listed && t->slots)
        for (size_t i = 0; i < stores->count; i++) t->slots[stores->slots[i]] = 0;
    stores->count = 0;
    stores->overflowed = 0;
    return listed;
}

/* Empty every slot (rewritten in place: cheaper than giving the memory
 * back and faulting it in again during the next search). */
static void table_clear_all(Table *t)
{
    if (t->slots) memset(t->slots, 0, (size_t)t->size * sizeof(bitboard));
}

/* The slots in use (a scan of the whole table). */
static uint64_t table_filled(const Table *t)
{
    uint64_t filled = 0;
    if (t->slots)
        for (uint64_t i = 0; i < t->size; i++) filled += t->slots[i] != 0;
    return filled;
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

/* A slot read whole, even while other threads of the same search write it
 * (one 64-bit access; the 128-bit search runs one thread). */
static inline bitboard table_load(const Table *t, uint64_t slot)
{
#if BITBOARD_BITS == 64 && HAVE_THREADS
    return __atomic_load_n(&t->slots[slot], __ATOMIC_RELAXED);
#else
    return t->slots[slot];
#endif
}

/* Store a bound's code in a slot, listed in the storing thread's `stores`. */
static inline void table_store(Table *t, Stores *stores, uint64_t slot, bitboard quotient,
                               int code)
{
    const bitboard entry = (quotient << 8) | (bitboard)code;
#if BITBOARD_BITS == 64 && HAVE_THREADS
    __atomic_store_n(&t->slots[slot], entry, __ATOMIC_RELAXED);
#else
    t->slots[slot] = entry;
#endif
    stores_add(stores, slot);
}

#endif
