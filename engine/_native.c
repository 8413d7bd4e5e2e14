/* connect_four.engine._native: the compiled exact search for boards of at most 64 bits
 * (columns * (rows + 1) <= 64), on uint64_t bitboards. The module is
 * engine/_native_module.h, its search engine/_native_search.h, both shared with
 * connect_four.engine._native128. */
#define BITBOARD_BITS 64
#define MODULE_NAME "connect_four.engine._native"
#define MODULE_INIT PyInit__native
#include "_native_module.h"
