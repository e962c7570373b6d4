/*
 * A stand-in bcryptprimitives.dll for `make windows-smoke` under Wine only;
 * it is never shipped. Go's runtime loads ProcessPrng from
 * bcryptprimitives.dll (in system32) at start and stops without it
 * ("fatal error: bcryptprimitives.dll not found"), and Debian's Wine 8 has
 * no such DLL. This one answers from RtlGenRandom (advapi32's
 * SystemFunction036), which Wine has. Windows 10 and later have the real one.
 */
#include <windows.h>
#include <ntsecapi.h>

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
	while (len > 0) {
		ULONG n = len > 0x40000000 ? 0x40000000 : (ULONG)len;
		if (!RtlGenRandom(data, n))
			return FALSE;
		data += n;
		len -= n;
	}
	return TRUE;
}
