package session

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
)

// bbolt's file layout, as far as verifyPages needs it (bbolt writes its
// pages in the machine's byte order).
const (
	pageHeaderSize   = 16
	elementSize      = 16
	branchPageFlag   = 0x01
	leafPageFlag     = 0x02
	freelistPageFlag = 0x10
	bucketLeafFlag   = 0x01
	metaMagic        = 0xED0CDAED
	metaVersion      = 2
	metaChecksumAt   = 56
	maxPageChain     = 1 << 20 // far above any real tree, so a loop ends
)

var endian = binary.NativeEndian

// verifyPages checks, from the file's bytes alone, that its page tree is
// consistent: every page the tree reaches is inside the file, has the type
// its parent expects and is reached once; the list of free pages names no
// page in use; and every page is either in use or free. bbolt trusts all
// of this when it writes, so a flipped bit in a page header or in the free
// list lets a write put new pages over old ones or grow the file. The
// check reads a copy of the bytes, never bbolt's memory map, so damage can
// only ever be an error here.
func verifyPages(data []byte, pageSize int) error {
	if pageSize < 512 || len(data) < 2*pageSize {
		return errors.New("the file is too small to hold its meta pages")
	}
	meta, err := currentMeta(data, pageSize)
	if err != nil {
		return err
	}
	v := pageVerifier{data: data, size: pageSize, hwm: meta.hwm, used: map[uint64]bool{0: true, 1: true}}
	if uint64(len(data))/uint64(pageSize) < v.hwm {
		return fmt.Errorf("the file holds %d pages but its meta page counts %d", len(data)/pageSize, v.hwm)
	}
	free, err := v.freelist(meta.freelist)
	if err != nil {
		return err
	}
	if err := v.tree(meta.root, 0); err != nil {
		return err
	}
	for id := range free {
		if v.used[id] {
			return fmt.Errorf("page %d is in use and also listed as free", id)
		}
	}
	for id := uint64(0); id < v.hwm; id++ {
		if !v.used[id] && !free[id] {
			return fmt.Errorf("page %d is neither in use nor free", id)
		}
	}
	return nil
}

type metaPage struct {
	root, freelist, hwm, txid uint64
}

// currentMeta returns the valid meta page with the higher transaction id,
// the one bbolt uses.
func currentMeta(data []byte, pageSize int) (metaPage, error) {
	var best metaPage
	found := false
	for i := range 2 {
		m := data[i*pageSize+pageHeaderSize : i*pageSize+pageHeaderSize+metaChecksumAt+8]
		h := fnv.New64a()
		h.Write(m[:metaChecksumAt])
		if endian.Uint32(m[0:]) != metaMagic || endian.Uint32(m[4:]) != metaVersion || endian.Uint64(m[metaChecksumAt:]) != h.Sum64() {
			continue
		}
		mp := metaPage{root: endian.Uint64(m[16:]), freelist: endian.Uint64(m[32:]), hwm: endian.Uint64(m[40:]), txid: endian.Uint64(m[48:])}
		if !found || mp.txid > best.txid {
			best, found = mp, true
		}
	}
	if !found {
		return best, errors.New("neither meta page is valid")
	}
	return best, nil
}

type pageVerifier struct {
	data  []byte
	size  int
	hwm   uint64
	used  map[uint64]bool
	pages int
}

// page returns the bytes of page id with its overflow pages, after
// checking that they are inside the file and not reached before.
func (v *pageVerifier) page(id uint64, what string) ([]byte, error) {
	if id < 2 || id >= v.hwm {
		return nil, fmt.Errorf("%s points at page %d, outside pages 2..%d", what, id, v.hwm-1)
	}
	v.pages++
	if v.pages > maxPageChain {
		return nil, errors.New("the page tree does not end")
	}
	off := id * uint64(v.size)
	hdr := v.data[off : off+pageHeaderSize]
	if got := endian.Uint64(hdr); got != id {
		return nil, fmt.Errorf("page %d says it is page %d", id, got)
	}
	overflow := uint64(endian.Uint32(hdr[12:]))
	if overflow >= v.hwm-id {
		return nil, fmt.Errorf("page %d runs past the end of the file", id)
	}
	for i := id; i <= id+overflow; i++ {
		if v.used[i] {
			return nil, fmt.Errorf("page %d is used twice", i)
		}
		v.used[i] = true
	}
	return v.data[off : off+(overflow+1)*uint64(v.size)], nil
}

// freelist reads the list of free pages.
func (v *pageVerifier) freelist(id uint64) (map[uint64]bool, error) {
	free := map[uint64]bool{}
	if id == ^uint64(0) {
		return free, nil // not kept in the file
	}
	p, err := v.page(id, "the meta page's free list")
	if err != nil {
		return nil, err
	}
	if endian.Uint16(p[8:])&freelistPageFlag == 0 {
		return nil, fmt.Errorf("page %d should hold the free list but does not", id)
	}
	count, start := uint64(endian.Uint16(p[10:])), uint64(pageHeaderSize)
	if count == 0xFFFF {
		count, start = endian.Uint64(p[pageHeaderSize:]), pageHeaderSize+8
	}
	if count > (uint64(len(p))-start)/8 {
		return nil, fmt.Errorf("the free list on page %d counts more pages than it holds", id)
	}
	for i := uint64(0); i < count; i++ {
		f := endian.Uint64(p[start+8*i:])
		if f < 2 || f >= v.hwm || free[f] {
			return nil, fmt.Errorf("the free list names page %d, which is outside the file or named twice", f)
		}
		free[f] = true
	}
	return free, nil
}

// tree checks the pages of the bucket rooted at page id.
func (v *pageVerifier) tree(id uint64, depth int) error {
	if depth > 64 {
		return errors.New("the page tree nests too deep")
	}
	p, err := v.page(id, "a bucket")
	if err != nil {
		return err
	}
	return v.nodes(p, id, depth)
}

// nodes checks the elements of a branch or leaf page p (numbered id, 0 for
// an inline bucket's page).
func (v *pageVerifier) nodes(p []byte, id uint64, depth int) error {
	flags, count := endian.Uint16(p[8:]), int(endian.Uint16(p[10:]))
	if pageHeaderSize+count*elementSize > len(p) {
		return fmt.Errorf("page %d counts more elements than it holds", id)
	}
	for i := range count {
		at := pageHeaderSize + i*elementSize
		e := p[at : at+elementSize]
		switch {
		case flags&branchPageFlag != 0:
			pos, ksize := uint64(endian.Uint32(e[0:])), uint64(endian.Uint32(e[4:]))
			if uint64(at)+pos+ksize > uint64(len(p)) {
				return fmt.Errorf("a key on page %d runs past the page", id)
			}
			if err := v.tree(endian.Uint64(e[8:]), depth+1); err != nil {
				return err
			}
		case flags&leafPageFlag != 0:
			eflags, pos := endian.Uint32(e[0:]), uint64(endian.Uint32(e[4:]))
			ksize, vsize := uint64(endian.Uint32(e[8:])), uint64(endian.Uint32(e[12:]))
			end := uint64(at) + pos + ksize + vsize
			if end > uint64(len(p)) {
				return fmt.Errorf("a value on page %d runs past the page", id)
			}
			if eflags&bucketLeafFlag == 0 {
				continue
			}
			value := p[uint64(at)+pos+ksize : end]
			if len(value) < 16 {
				return fmt.Errorf("a bucket header on page %d is cut short", id)
			}
			if root := endian.Uint64(value); root != 0 {
				if err := v.tree(root, depth+1); err != nil {
					return err
				}
			} else if len(value) < 16+pageHeaderSize {
				return fmt.Errorf("an inline bucket on page %d is cut short", id)
			} else if err := v.nodes(value[16:], 0, depth+1); err != nil {
				return err
			}
		default:
			return fmt.Errorf("page %d should be part of a bucket but is not", id)
		}
	}
	return nil
}
