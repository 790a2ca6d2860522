package checkpoint

import (
	"io/fs"
	"syscall"
)

// statExtra returns the inode and change time of info, which catch changes
// that keep size and mtime (a rename over the file, touch -r).
func statExtra(info fs.FileInfo) (ino uint64, ctime int64) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0
	}
	return uint64(st.Ino), st.Ctim.Sec*1e9 + st.Ctim.Nsec
}
