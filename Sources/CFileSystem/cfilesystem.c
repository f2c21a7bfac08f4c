#define _GNU_SOURCE
#include "cfilesystem.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

int cfs_rename_exchange(const char *a, const char *b) {
#ifdef SYS_renameat2
  return (int)syscall(SYS_renameat2, AT_FDCWD, a, AT_FDCWD, b, 2 /* RENAME_EXCHANGE */);
#else
  errno = ENOSYS;
  return -1;
#endif
}

int cfs_sync_file_system(int fd) { return syncfs(fd); }
