//go:build !windows

package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// CheckExecutable says why pincer must not run from path (its own
// program), or nil. pincer runs with the person's full rights and starts
// every jail, so its program must be one nobody else could have put
// there: not a file every user may write, not in a directory every user
// may write (as /tmp, where a command or another user could have replaced
// it), and not below a directory where others may rename what is not
// theirs.
func CheckExecutable(path string) error {
	if path == "" {
		return nil
	}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	fail := func(why string) error {
		return fmt.Errorf("pincer will not run from %s: %s, so another user or a program could have replaced it; "+
			"move it to a directory only you can write, such as ~/.local/bin or ~/go/bin", path, why)
	}
	info, err := os.Stat(path)
	if err != nil {
		return nil // nothing to judge (a deleted file still runs): the jail never shows this path anyway
	}
	if info.Mode().Perm()&0o002 != 0 {
		return fail("every user may write the file")
	}
	me := os.Getuid()
	child := path
	for dir := filepath.Dir(path); ; dir = filepath.Dir(dir) {
		d, err := os.Stat(dir)
		if err != nil {
			return nil
		}
		if d.Mode().Perm()&0o002 != 0 {
			sticky := d.Mode()&os.ModeSticky != 0
			if !sticky || dir == filepath.Dir(path) {
				return fail(fmt.Sprintf("every user may write %s", dir))
			}
			// Sticky (as /tmp): only the owner may rename or remove an
			// entry, so one of the person's own (or root's) is safe.
			if c, err := os.Lstat(child); err == nil {
				if st, ok := c.Sys().(*syscall.Stat_t); ok && int(st.Uid) != me && st.Uid != 0 {
					return fail(fmt.Sprintf("%s belongs to another user in %s, which every user may write", child, dir))
				}
			}
		}
		if dir == filepath.Dir(dir) {
			return nil
		}
		child = dir
	}
}
