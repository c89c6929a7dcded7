/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/*
 * xstate.c - preloaded into User Mode Linux (the kernel tests' reader,
 * tests/img/lib.sh's uml_run) so that it runs on x86-64 hosts with AMX.
 *
 * UML saves and restores its processes' registers with ptrace()'s
 * PTRACE_GETREGSET and PTRACE_SETREGSET of NT_X86_XSTATE, with a buffer of
 * the size it was built with.  Linux since 5.16 refuses a SETREGSET of
 * the XSAVE area whose length is not the host's whole user XSAVE size
 * (EFAULT), and with AMX that size (about 11 KiB) is larger than the
 * buffer of Debian 12's UML (6.1), whose init then dies at its first
 * return to user space: "ptrace set fp regs failed, errno = 14".
 *
 * This wrapper makes each such SETREGSET whole: it reads the process's
 * whole XSAVE area, lays UML's shorter buffer over the start of it (the
 * legacy area, the header and the components UML knows) and sets that.
 * The components past UML's buffer (AMX tiles) keep the host's values,
 * which a process under UML never uses.  Where the host's size is not
 * larger, it passes every call through untouched.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdarg.h>
#include <sys/types.h>

/* UML's linux binary is x86-64 glibc (Debian's): another C library's
 * ptrace() has another prototype, and is not what linux calls. */
#if defined(__linux__) && defined(__x86_64__) && defined(__GLIBC__)
#include <elf.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/uio.h>

typedef long (*ptrace_fn)(int req, pid_t pid, void *addr, void *data);

/* Room for the host's XSAVE area: 11 KiB with AMX today. */
static unsigned char whole[64 * 1024];

/* -1: not known yet; 0: the host's area is not larger; 1: it is. */
static int widen = -1;

/*
 * PTRACE_SETREGSET of NT_X86_XSTATE from @iov, made whole; 1 if done
 * (its result in *@rc), 0 to pass the call through.
 */
static int set_whole(ptrace_fn real, pid_t pid, void *addr,
		     const struct iovec *iov, long *rc)
{
	struct iovec w = { whole, sizeof(whole) };

	if (widen == 0 || real(PTRACE_GETREGSET, pid, addr, &w) != 0)
		return 0;
	if (widen < 0)
		widen = w.iov_len > iov->iov_len;
	if (!widen || w.iov_len <= iov->iov_len)
		return 0;
	memcpy(whole, iov->iov_base, iov->iov_len);
	*rc = real(PTRACE_SETREGSET, pid, addr, &w);
	return 1;
}

long ptrace(enum __ptrace_request req, ...)
{
	static ptrace_fn real;
	va_list ap;
	pid_t pid;
	void *addr, *data;
	long rc;

	va_start(ap, req);
	pid = va_arg(ap, pid_t);
	addr = va_arg(ap, void *);
	data = va_arg(ap, void *);
	va_end(ap);
	if (!real)
		real = (ptrace_fn)dlsym(RTLD_NEXT, "ptrace");
	if (req == PTRACE_SETREGSET && (unsigned long)addr == NT_X86_XSTATE &&
	    set_whole(real, pid, addr, data, &rc))
		return rc;
	return real(req, pid, addr, data);
}
#else
typedef int fp_xstate_unused;	/* nothing to wrap on other hosts */
#endif
