package checkpoint

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

// statEntry is what the stat cache knows of one recorded file or link: if
// a fresh lstat shows the same values, the file's blob is hash and it need
// not be read again (git's index does the same).
type statEntry struct {
	size  int64
	mtime int64 // ns
	ctime int64 // ns; 0 where unknown
	ino   uint64
	mode  fs.FileMode
	hash  plumbing.Hash
}

// statCache maps slash-separated paths to what they were when last hashed.
// scan is when the walk that wrote it started: an entry whose mtime is not
// before that second may have changed again within the clock's granularity
// after it was read ("racily clean"), so it is hashed again.
type statCache struct {
	scan    time.Time
	entries map[string]statEntry
	disk    fs.FileInfo // the cache file as loaded or saved, to notice another process's save
}

// statCacheMagic opens the cache file; a file without it is ignored.
const statCacheMagic = "pincer-stat-cache 1\n"

// fresh reports whether e still describes a file with stat info now.
func (c *statCache) fresh(path string, size, mtime, ctime int64, ino uint64, mode fs.FileMode) (plumbing.Hash, bool) {
	if c == nil {
		return plumbing.ZeroHash, false
	}
	e, ok := c.entries[path]
	if !ok || e.size != size || e.mtime != mtime || e.ctime != ctime || e.ino != ino || e.mode != mode {
		return plumbing.ZeroHash, false
	}
	if mtime >= c.scan.Truncate(time.Second).UnixNano() {
		return plumbing.ZeroHash, false
	}
	return e.hash, true
}

// loadCache returns the stat cache in dir, reusing prev when the file has
// not changed since prev was loaded or saved. A missing or unreadable cache
// is an empty one: it only costs a full hash.
func loadCache(dir string, prev *statCache) *statCache {
	name := filepath.Join(dir, cacheName)
	info, err := os.Stat(name)
	if err != nil {
		return &statCache{entries: map[string]statEntry{}}
	}
	if prev != nil && prev.disk != nil && os.SameFile(prev.disk, info) && prev.disk.ModTime().Equal(info.ModTime()) && prev.disk.Size() == info.Size() {
		return prev
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return &statCache{entries: map[string]statEntry{}}
	}
	c, err := decodeCache(data)
	if err != nil {
		return &statCache{entries: map[string]statEntry{}}
	}
	c.disk = info
	return c
}

// decodeCache parses the cache file format: the magic line, the scan time,
// the entry count, then per entry its path and stat values as varints and
// the 20-byte hash.
func decodeCache(data []byte) (*statCache, error) {
	if !bytes.HasPrefix(data, []byte(statCacheMagic)) {
		return nil, errors.New("not a stat cache")
	}
	r := bytes.NewReader(data[len(statCacheMagic):])
	scan, err := binary.ReadVarint(r)
	if err != nil {
		return nil, err
	}
	n, err := binary.ReadUvarint(r)
	if err != nil || n > uint64(len(data)) {
		return nil, errors.New("bad entry count")
	}
	c := &statCache{scan: time.Unix(0, scan), entries: make(map[string]statEntry, n)}
	for range n {
		plen, err := binary.ReadUvarint(r)
		if err != nil || plen > uint64(r.Len()) {
			return nil, errors.New("bad path length")
		}
		p := make([]byte, plen)
		if _, err := io.ReadFull(r, p); err != nil {
			return nil, err
		}
		var e statEntry
		var vals [3]int64
		for i := range vals {
			if vals[i], err = binary.ReadVarint(r); err != nil {
				return nil, err
			}
		}
		e.size, e.mtime, e.ctime = vals[0], vals[1], vals[2]
		if e.ino, err = binary.ReadUvarint(r); err != nil {
			return nil, err
		}
		mode, err := binary.ReadUvarint(r)
		if err != nil {
			return nil, err
		}
		e.mode = fs.FileMode(mode)
		if _, err := io.ReadFull(r, e.hash[:]); err != nil {
			return nil, err
		}
		c.entries[string(p)] = e
	}
	return c, nil
}

// save writes the cache to dir atomically and remembers the file written.
func (c *statCache) save(dir string) error {
	var b bytes.Buffer
	w := bufio.NewWriter(&b)
	w.WriteString(statCacheMagic)
	var tmp [binary.MaxVarintLen64]byte
	putv := func(v int64) { w.Write(tmp[:binary.PutVarint(tmp[:], v)]) }
	putu := func(v uint64) { w.Write(tmp[:binary.PutUvarint(tmp[:], v)]) }
	putv(c.scan.UnixNano())
	putu(uint64(len(c.entries)))
	for p, e := range c.entries {
		putu(uint64(len(p)))
		w.WriteString(p)
		putv(e.size)
		putv(e.mtime)
		putv(e.ctime)
		putu(e.ino)
		putu(uint64(e.mode))
		w.Write(e.hash[:])
	}
	if err := w.Flush(); err != nil {
		return err
	}
	name := filepath.Join(dir, cacheName)
	if err := writeFileAtomic(name, b.Bytes()); err != nil {
		return fmt.Errorf("saving the stat cache: %w", err)
	}
	if info, err := os.Stat(name); err == nil {
		c.disk = info
	}
	return nil
}
