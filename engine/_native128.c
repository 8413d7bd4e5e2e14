/* connect_four.engine._native128: the compiled exact search for boards of 65 to 128 bits
 * (8 x 8, 9 x 9, 10 x 10, 7 x 12 ..., rows x columns), on unsigned __int128
 * bitboards. The module is engine/_native_module.h, its search
 * engine/_native_search.h, both shared with connect_four.engine._native. A
 * compiler without unsigned __int128 (GCC and Clang have it on 64-bit
 * targets) stops here; setup.py marks the module optional, so the install
 * goes on with the 64-bit module alone. */
#ifdef __SIZEOF_INT128__
#define BITBOARD_BITS 128
#define MODULE_NAME "connect_four.engine._native128"
#define MODULE_INIT PyInit__native128
#include "_native_module.h"
#else
#error "connect_four.engine._native128 needs unsigned __int128; the 64-bit connect_four.engine._native still builds"
#endif
