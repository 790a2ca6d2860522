package session

import (
	"encoding/binary"
	"fmt"
	"os"

	bolt "go.etcd.io/bbolt"
)

// Top-level bucket names and the key of the schema version.
const (
	bucketMeta        = "meta"
	bucketSessions    = "sessions"
	bucketNames       = "names"
	bucketDirs        = "dirs"
	bucketSummaries   = "summaries"
	bucketMessages    = "messages"
	bucketTasks       = "tasks"
	bucketCheckpoints = "checkpoints"
	bucketRewinds     = "rewinds"
	keySchema         = "schema"
)

// migration upgrades the file by one schema version inside the transaction
// it is given.
type migration func(tx *bolt.Tx) error

// migrations[i] upgrades schema version i to i+1; the current version is
// len(migrations). Version 0 is a file with no buckets at all. Append new
// steps; never change a released one.
var migrations = []migration{
	createLayout,           // 0 → 1
	buildSearchIndex,       // 1 → 2
	createTasks,            // 2 → 3
	createRewind,           // 3 → 4
	createMemoryAndReindex, // 4 → 5
}

// createLayout creates the buckets of the first release.
func createLayout(tx *bolt.Tx) error {
	for _, name := range []string{bucketMeta, bucketSessions, bucketNames, bucketDirs, bucketSummaries, bucketMessages} {
		if _, err := tx.CreateBucketIfNotExists([]byte(name)); err != nil {
			return fmt.Errorf("create bucket %s: %w", name, err)
		}
	}
	return nil
}

// buildSearchIndex creates the full-text index and indexes every message
// already stored. A later change to what is indexed or how text is split
// into terms needs a new step that drops the index and runs this again.
func buildSearchIndex(tx *bolt.Tx) error {
	if err := createIndex(tx); err != nil {
		return err
	}
	var ids []string
	err := tx.Bucket([]byte(bucketSessions)).ForEach(func(id, _ []byte) error {
		ids = append(ids, string(id))
		return nil
	})
	if err != nil {
		return fmt.Errorf("list sessions to index: %w", err)
	}
	return indexSessions(tx, ids)
}

// createTasks creates the bucket of scheduled tasks.
func createTasks(tx *bolt.Tx) error {
	if _, err := tx.CreateBucketIfNotExists([]byte(bucketTasks)); err != nil {
		return fmt.Errorf("create bucket %s: %w", bucketTasks, err)
	}
	return nil
}

// createRewind creates the buckets of checkpoints and rewinds. Sessions
// stored before have neither, which reads as none.
func createRewind(tx *bolt.Tx) error {
	for _, name := range []string{bucketCheckpoints, bucketRewinds} {
		if _, err := tx.CreateBucketIfNotExists([]byte(name)); err != nil {
			return fmt.Errorf("create bucket %s: %w", name, err)
		}
	}
	return nil
}

// inspect checks, without writing, that the file is whole and is a pincer
// store this build can read, and returns its schema version.
func inspect(tx *bolt.Tx, path string, known int) (uint64, error) {
	info, err := os.Stat(path)
	if err != nil {
		return 0, fmt.Errorf("inspect session store %s: %w", path, err)
	}
	if used := tx.Size(); used > info.Size() {
		return 0, damaged(path, fmt.Errorf("the file is %d bytes but its pages reach %d bytes: it was cut short", info.Size(), used))
	}
	version, err := readSchema(tx, path)
	if err != nil {
		return 0, err
	}
	return version, checkKnown(path, version, known)
}

// migrate brings the file to the newest schema. It runs in one transaction,
// so a failed step leaves the file as it was.
func migrate(tx *bolt.Tx, path string, steps []migration) error {
	version, err := readSchema(tx, path)
	if err != nil {
		return err
	}
	if err := checkKnown(path, version, len(steps)); err != nil {
		return err
	}
	if version == uint64(len(steps)) {
		return nil
	}
	for v := version; v < uint64(len(steps)); v++ {
		if err := steps[v](tx); err != nil {
			return fmt.Errorf("upgrade session store %s from schema %d to %d: %w", path, v, v+1, err)
		}
	}
	meta := tx.Bucket([]byte(bucketMeta))
	if meta == nil {
		return fmt.Errorf("upgrade session store %s: the migrations left no %s bucket", path, bucketMeta)
	}
	return meta.Put([]byte(keySchema), binary.BigEndian.AppendUint64(nil, uint64(len(steps))))
}

// readSchema returns the file's schema version: 0 for a file without any
// bucket, the stored version otherwise. A file with buckets but no version
// belongs to something else and is refused.
func readSchema(tx *bolt.Tx, path string) (uint64, error) {
	meta := tx.Bucket([]byte(bucketMeta))
	if meta == nil {
		empty := true
		if err := tx.ForEach(func([]byte, *bolt.Bucket) error { empty = false; return nil }); err != nil {
			return 0, damaged(path, err)
		}
		if empty {
			return 0, nil
		}
		return 0, damaged(path, fmt.Errorf("it holds buckets but no %s bucket", bucketMeta))
	}
	raw := meta.Get([]byte(keySchema))
	if len(raw) != 8 {
		return 0, damaged(path, fmt.Errorf("its schema version is missing or malformed"))
	}
	return binary.BigEndian.Uint64(raw), nil
}

// checkKnown refuses a schema newer than this build knows.
func checkKnown(path string, version uint64, known int) error {
	if version > uint64(known) {
		return newError(ErrSchemaTooNew, nil,
			"the session store %s has schema version %d but this pincer knows only up to %d; upgrade pincer (the file is left untouched)",
			path, version, known)
	}
	return nil
}
