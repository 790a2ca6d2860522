//go:build unix

package checkpoint

import "syscall"

// openReadFlags are added when opening a file to record it: a file swapped
// for a link or a FIFO between the walk and the read must neither be
// followed nor block.
const openReadFlags = syscall.O_NOFOLLOW | syscall.O_NONBLOCK
