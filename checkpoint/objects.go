package checkpoint

import (
	"bytes"
	"compress/zlib"
	"context"
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/adler32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"pincer/internal/human"
)

// jobResult is the outcome of one hashJob.
type jobResult struct {
	hash plumbing.Hash
	skip string // reason the file is not recorded after all
	size int64
	err  error // a failure of the store itself, which fails the snapshot
}

// runJobs reads, hashes and stores every job's file, several at once: the
// first snapshot of a big tree is bound by compressing and by the file
// system, so a few more workers than cores keep both busy, and many new
// blobs go into one pack rather than a file each.
func (s *Store) runJobs(sc *scan) error {
	if len(sc.jobs) == 0 {
		return nil
	}
	packed, err := s.packedObjects()
	if err != nil {
		return err
	}
	var pw *packWriter
	if len(sc.jobs) >= packMin {
		if pw, err = newPackWriter(s.dir); err != nil {
			return err
		}
	}
	results := make([]jobResult, len(sc.jobs))
	workers := min(4*runtime.GOMAXPROCS(0), len(sc.jobs))
	var next int
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			w := &objectWriter{dir: s.dir, packed: packed, pack: pw}
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= len(sc.jobs) || sc.ctx.Err() != nil {
					return
				}
				results[i] = w.record(sc, sc.jobs[i])
			}
		})
	}
	wg.Wait()
	err = sc.ctx.Err()
	for _, r := range results {
		if err == nil && r.err != nil {
			err = r.err
		}
	}
	if pw != nil {
		if err != nil {
			pw.abort()
			return err
		}
		if err := pw.finish(); err != nil {
			return err
		}
		s.st.Reindex()
	}
	if err != nil {
		return err
	}
	for i, j := range sc.jobs {
		r := results[i]
		if r.skip != "" {
			j.n.entries[j.i].mode = 0
			delete(sc.next, j.path)
			sc.files--
			sc.skip(j.path, r.size, r.skip)
			continue
		}
		j.n.entries[j.i].hash = r.hash
		e := sc.next[j.path]
		e.hash = r.hash
		sc.next[j.path] = e
	}
	return nil
}

// objectWriter writes blobs into the store, loose or into a pack; one per
// goroutine.
type objectWriter struct {
	dir    string
	packed map[plumbing.Hash]bool // objects in the store's packs (read only)
	pack   *packWriter            // nil: write loose objects
	zw     *zlib.Writer
	buf    []byte
	zbuf   bytes.Buffer
}

// record reads one job's file or link through the root and stores it as a
// blob.
func (w *objectWriter) record(sc *scan, j hashJob) jobResult {
	mode := j.n.entries[j.i].mode
	if mode == filemode.Symlink {
		target, err := sc.root.Readlink(j.path)
		if err != nil {
			return jobResult{skip: "unreadable: " + errText(err)}
		}
		h, err := w.store([]byte(target))
		return jobResult{hash: h, err: err}
	}
	f, err := sc.root.OpenFile(j.path, os.O_RDONLY|openReadFlags, 0)
	if err != nil {
		return jobResult{skip: "unreadable: " + errText(err), size: j.size}
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return jobResult{skip: "unreadable: " + errText(err), size: j.size}
	}
	if !info.Mode().IsRegular() {
		return jobResult{skip: reasonSpecial, size: info.Size()}
	}
	if info.Size() > sc.maxSize {
		return jobResult{skip: "larger than " + human.Bytes(sc.maxSize), size: info.Size()}
	}
	buf := w.buf[:0]
	if int64(cap(buf)) < info.Size()+512 {
		buf = make([]byte, 0, info.Size()+512)
	}
	for {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, 4096)
		}
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > sc.maxSize {
			return jobResult{skip: "larger than " + human.Bytes(sc.maxSize), size: int64(len(buf))}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return jobResult{skip: "unreadable: " + errText(err), size: j.size}
		}
	}
	w.buf = buf
	h, err := w.store(buf)
	return jobResult{hash: h, err: err}
}

// blobHash is git's name for content: SHA-1 of "blob <size>\0" and it.
func blobHash(data []byte) plumbing.Hash {
	d := sha1.New()
	d.Write([]byte("blob " + strconv.Itoa(len(data)) + "\x00"))
	d.Write(data)
	var h plumbing.Hash
	d.Sum(h[:0])
	return h
}

// objectPath is where the loose object h lives in dir.
func objectPath(dir string, h plumbing.Hash) string {
	hx := h.String()
	return filepath.Join(dir, "objects", hx[:2], hx[2:])
}

// store writes data as a blob unless the store has it already, which is
// what makes an unchanged file cost nothing.
func (w *objectWriter) store(data []byte) (plumbing.Hash, error) {
	h := blobHash(data)
	if w.packed[h] {
		return h, nil
	}
	if w.pack != nil {
		if w.pack.has(h) {
			return h, nil
		}
		w.zbuf.Reset()
		w.deflate(&w.zbuf, data)
		return h, w.pack.add(h, plumbing.BlobObject, int64(len(data)), w.zbuf.Bytes())
	}
	final := objectPath(w.dir, h)
	if _, err := os.Lstat(final); err == nil {
		return h, nil
	}
	w.zbuf.Reset()
	w.deflate(&w.zbuf, []byte("blob "+strconv.Itoa(len(data))+"\x00"), data)
	if err := writeLoose(final, w.zbuf.Bytes()); err != nil {
		return h, fmt.Errorf("storing a blob in the checkpoint store: %w", err)
	}
	return h, nil
}

// writeLoose writes the zlib stream z of an object to final, its path in
// the store, through a temporary file beside it.
func writeLoose(final string, z []byte) error {
	sub := filepath.Dir(final)
	f, err := os.CreateTemp(sub, "tmp_obj_")
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(sub, 0o700); err != nil {
			return err
		}
		f, err = os.CreateTemp(sub, "tmp_obj_")
	}
	if err != nil {
		return err
	}
	_, err1 := f.Write(z)
	err2 := f.Close()
	if err := errors.Join(err1, err2); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), final); err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}

// storedZlib appends to b the zlib stream of data in stored (uncompressed)
// deflate blocks. Trees and commits are small, and trees are mostly
// hashes that do not compress: a compress/flate writer, some 700 KB
// allocated and cleared for each, cost more than the bytes it saved.
func storedZlib(b []byte, data []byte) []byte {
	sum := adler32.Checksum(data)
	b = append(b, 0x78, 0x01) // deflate, 32 KB window, no dictionary, fastest
	for {
		n := min(len(data), 0xffff)
		final := byte(0)
		if n == len(data) {
			final = 1
		}
		b = append(b, final, byte(n), byte(n>>8), ^byte(n), ^byte(n>>8))
		b = append(b, data[:n]...)
		data = data[n:]
		if final == 1 {
			break
		}
	}
	return binary.BigEndian.AppendUint32(b, sum)
}

// deflate appends the zlib stream of the parts to b, fast rather than
// small: a snapshot is read back rarely.
func (w *objectWriter) deflate(b *bytes.Buffer, parts ...[]byte) {
	if w.zw == nil {
		w.zw, _ = zlib.NewWriterLevel(b, zlib.BestSpeed)
	} else {
		w.zw.Reset(b)
	}
	for _, p := range parts {
		w.zw.Write(p) // writes to a bytes.Buffer do not fail
	}
	w.zw.Close()
}

// packedObjects returns the set of objects in the store's packs, read
// again only when the packs changed. The caller holds the lock.
func (s *Store) packedObjects() (map[plumbing.Hash]bool, error) {
	names := packs(s.dir)
	if s.packed != nil && slices.Equal(names, s.packNames) {
		return s.packed, nil
	}
	set, err := packedSet(s.dir)
	if err != nil {
		return nil, damaged(s.dir, err)
	}
	s.packed, s.packNames = set, names
	s.st.Reindex()
	return set, nil
}

// buildTree stores the tree objects of n and its subdirectories, bottom up,
// and returns n's hash; ok is false for a tree left empty (files that could
// not be read), which its parent leaves out.
func (s *Store) buildTree(ctx context.Context, n *node) (plumbing.Hash, bool, error) {
	if err := ctx.Err(); err != nil {
		return plumbing.ZeroHash, false, err
	}
	t := &object.Tree{Entries: make([]object.TreeEntry, 0, len(n.entries))}
	for _, e := range n.entries {
		switch {
		case e.sub != nil:
			h, ok, err := s.buildTree(ctx, e.sub)
			if err != nil {
				return h, false, err
			}
			if ok {
				t.Entries = append(t.Entries, object.TreeEntry{Name: e.name, Mode: filemode.Dir, Hash: h})
			}
		case e.mode != 0 && !e.hash.IsZero():
			t.Entries = append(t.Entries, object.TreeEntry{Name: e.name, Mode: e.mode, Hash: e.hash})
		}
	}
	if len(t.Entries) == 0 {
		return plumbing.ZeroHash, false, nil
	}
	slices.SortFunc(t.Entries, func(a, b object.TreeEntry) int {
		return strings.Compare(treeSortName(a), treeSortName(b))
	})
	h, err := s.putObject(t)
	return h, err == nil, err
}

// treeSortName is the key git sorts tree entries by: a directory sorts as
// if its name ended in "/".
func treeSortName(e object.TreeEntry) string {
	if e.Mode == filemode.Dir {
		return e.Name + "/"
	}
	return e.Name
}

// encoder is a tree or commit.
type encoder interface {
	Encode(plumbing.EncodedObject) error
}

// putObject stores a tree or commit unless the store has it already, as
// a loose object (see storedZlib).
func (s *Store) putObject(o encoder) (plumbing.Hash, error) {
	obj := s.st.NewEncodedObject()
	if err := o.Encode(obj); err != nil {
		return plumbing.ZeroHash, fmt.Errorf("encoding a checkpoint object: %w", err)
	}
	h := obj.Hash()
	final := objectPath(s.dir, h)
	if _, err := os.Lstat(final); err == nil {
		return h, nil
	}
	r, err := obj.Reader()
	if err != nil {
		return h, fmt.Errorf("encoding a checkpoint object: %w", err)
	}
	body, err := io.ReadAll(r)
	r.Close()
	if err != nil {
		return h, fmt.Errorf("encoding a checkpoint object: %w", err)
	}
	raw := append([]byte(obj.Type().String()+" "+strconv.Itoa(len(body))+"\x00"), body...)
	if err := writeLoose(final, storedZlib(nil, raw)); err != nil {
		return h, fmt.Errorf("writing to the checkpoint store: %w", err)
	}
	return h, nil
}
