// File-system calls that Swift's Glibc module does not import: renameat2's atomic exchange
// and syncfs.
#ifndef RENDER_ANIM_CFILESYSTEM_H
#define RENDER_ANIM_CFILESYSTEM_H

/// Atomically exchanges the names `a` and `b` (both must exist), as renameat2(RENAME_EXCHANGE).
/// Returns 0, or -1 with errno set (ENOSYS or EINVAL where the kernel or file system cannot).
int cfs_rename_exchange(const char *a, const char *b);

/// Flushes the file system holding the open file `fd` to disk, as syncfs(2).
int cfs_sync_file_system(int fd);

#endif
