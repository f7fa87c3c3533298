/* For checking Windows builds under wine only, never shipped: Rust's standard
 * library draws random numbers with ProcessPrng from bcryptprimitives.dll
 * (Windows 10 and later), which wine 8 lacks. This stand-in answers from
 * RtlGenRandom. tools/wine_check.py builds it with mingw-w64 and puts it beside
 * the executable it checks. */
#include <windows.h>
#include <ntsecapi.h>

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
    while (len > 0) {
        ULONG chunk = len > 0x10000000 ? 0x10000000 : (ULONG)len;
        if (!RtlGenRandom(data, chunk)) {
            return FALSE;
        }
        data += chunk;
        len -= chunk;
    }
    return TRUE;
}
