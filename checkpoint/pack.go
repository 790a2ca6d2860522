package checkpoint

import (
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/idxfile"
)

// packMin is the number of files to read at which a snapshot writes its new
// blobs into one pack file instead of one loose file each: creating many
// small files is what a first snapshot of a big tree spends most time on.
const packMin = 64

// packWriter appends objects to a new pack file as they come from several
// goroutines, then writes its index and moves both into objects/pack.
type packWriter struct {
	dir string // objects/pack

	mu   sync.Mutex
	f    *os.File
	off  int64
	n    uint32
	idx  idxfile.Writer
	seen map[plumbing.Hash]bool
}

// newPackWriter starts a pack in the store dir.
func newPackWriter(storeDir string) (*packWriter, error) {
	dir := filepath.Join(storeDir, "objects", "pack")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("starting a pack in the checkpoint store: %w", err)
	}
	f, err := os.CreateTemp(dir, "tmp_pack_")
	if err != nil {
		return nil, fmt.Errorf("starting a pack in the checkpoint store: %w", err)
	}
	// "PACK", version 2, the object count (filled in by finish).
	if _, err := f.Write([]byte("PACK\x00\x00\x00\x02\x00\x00\x00\x00")); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, fmt.Errorf("starting a pack in the checkpoint store: %w", err)
	}
	p := &packWriter{dir: dir, f: f, off: 12, seen: map[plumbing.Hash]bool{}}
	p.idx.OnHeader(0)
	return p, nil
}

// has reports whether h was added to this pack already.
func (p *packWriter) has(h plumbing.Hash) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.seen[h]
}

// add appends object h of type t and size bytes, given as its zlib stream.
func (p *packWriter) add(h plumbing.Hash, t plumbing.ObjectType, size int64, deflated []byte) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.seen[h] {
		return nil
	}
	hdr := packEntryHeader(t, size)
	crc := crc32.NewIEEE()
	crc.Write(hdr)
	crc.Write(deflated)
	if _, err := p.f.Write(hdr); err != nil {
		return fmt.Errorf("writing a pack in the checkpoint store: %w", err)
	}
	if _, err := p.f.Write(deflated); err != nil {
		return fmt.Errorf("writing a pack in the checkpoint store: %w", err)
	}
	p.idx.Add(h, uint64(p.off), crc.Sum32())
	p.off += int64(len(hdr) + len(deflated))
	p.n++
	p.seen[h] = true
	return nil
}

// packEntryHeader is a pack entry's type and size: 3 bits of type and 4 of
// size in the first byte, then 7 bits of size a byte, high bit meaning more.
func packEntryHeader(t plumbing.ObjectType, size int64) []byte {
	b := []byte{byte(t)<<4 | byte(size&0x0f)}
	size >>= 4
	for size > 0 {
		b[len(b)-1] |= 0x80
		b = append(b, byte(size&0x7f))
		size >>= 7
	}
	return b
}

// finish completes the pack: the count, the trailing checksum, the index
// written and moved into place before the pack (a reader lists packs and
// then opens their index). An empty pack is dropped.
func (p *packWriter) finish() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.n == 0 {
		p.abortLocked()
		return nil
	}
	err := p.seal()
	if err != nil {
		p.abortLocked()
		return fmt.Errorf("finishing a pack in the checkpoint store: %w", err)
	}
	return nil
}

// seal writes the count and checksum, then the index, then renames both.
func (p *packWriter) seal() error {
	var cnt [4]byte
	binary.BigEndian.PutUint32(cnt[:], p.n)
	if _, err := p.f.WriteAt(cnt[:], 8); err != nil {
		return err
	}
	if _, err := p.f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	d := sha1.New()
	if _, err := io.Copy(d, p.f); err != nil {
		return err
	}
	var sum plumbing.Hash
	d.Sum(sum[:0])
	if _, err := p.f.Write(sum[:]); err != nil {
		return err
	}
	if err := p.f.Close(); err != nil {
		return err
	}
	if err := p.idx.OnFooter(sum); err != nil {
		return err
	}
	idx, err := p.idx.Index()
	if err != nil {
		return err
	}
	xf, err := os.CreateTemp(p.dir, "tmp_idx_")
	if err != nil {
		return err
	}
	_, err = idxfile.NewEncoder(xf).Encode(idx)
	if err := errors.Join(err, xf.Close()); err != nil {
		os.Remove(xf.Name())
		return err
	}
	base := filepath.Join(p.dir, "pack-"+sum.String())
	if err := os.Rename(xf.Name(), base+".idx"); err != nil {
		os.Remove(xf.Name())
		return err
	}
	if err := os.Rename(p.f.Name(), base+".pack"); err != nil {
		os.Remove(base + ".idx")
		return err
	}
	return nil
}

// abort drops the pack being written.
func (p *packWriter) abort() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.abortLocked()
}

func (p *packWriter) abortLocked() {
	p.f.Close()
	os.Remove(p.f.Name())
}

// packs lists the store's packs by name ("pack-<hash>"), sorted.
func packs(storeDir string) []string {
	entries, _ := os.ReadDir(filepath.Join(storeDir, "objects", "pack"))
	var out []string
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ".pack"); ok && strings.HasPrefix(name, "pack-") {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// packIndex reads the index of pack name.
func packIndex(storeDir, name string) (*idxfile.MemoryIndex, error) {
	f, err := os.Open(filepath.Join(storeDir, "objects", "pack", name+".idx"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	idx := idxfile.NewMemoryIndex()
	if err := idxfile.NewDecoder(f).Decode(idx); err != nil {
		return nil, fmt.Errorf("reading %s.idx: %w", name, err)
	}
	return idx, nil
}

// packHashes lists the objects in pack name.
func packHashes(storeDir, name string) ([]plumbing.Hash, error) {
	idx, err := packIndex(storeDir, name)
	if err != nil {
		return nil, err
	}
	it, err := idx.Entries()
	if err != nil {
		return nil, err
	}
	defer it.Close()
	var out []plumbing.Hash
	for {
		e, err := it.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		out = append(out, e.Hash)
	}
}

// packedSet is every object in the store's packs, for the existence check
// of a snapshot (loose objects are checked on disk).
func packedSet(storeDir string) (map[plumbing.Hash]bool, error) {
	set := map[plumbing.Hash]bool{}
	for _, name := range packs(storeDir) {
		hs, err := packHashes(storeDir, name)
		if err != nil {
			return nil, err
		}
		for _, h := range hs {
			set[h] = true
		}
	}
	return set, nil
}
