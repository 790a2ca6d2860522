// Package session keeps pincer's conversations in one bbolt file so that
// people can name them, come back to them and export them, and so that a
// crash loses at most the message in flight.
//
// Several pincer processes may use the same file at once. bbolt locks the
// whole file while a database is open for writing, so a Store never keeps
// the file open: every operation opens it, runs one transaction and closes
// it again, holding the lock for well under a millisecond plus the commit's
// fsync. (Keeping the search index costs more now and then: one Append in
// 256 writes an index segment, some milliseconds; one in 2,048 also merges
// segments, tens of milliseconds; one in 16,384 merges large ones, about a
// tenth of a second.) An operation that finds the file locked queues for
// the lock in the kernel (on Windows it polls), so writers take turns; past
// two seconds it says so once through Options.OnWait, and after
// Options.LockWait it gives up with ErrLocked.
//
// The file holds these top-level buckets:
//
//	meta       schema version
//	sessions   session id → JSON session record (no summary, so listing stays cheap)
//	names      session name → session id
//	dirs       working directory → bucket of session ids
//	summaries  session id → summary text
//	messages   session id → bucket of big-endian sequence number → JSON message record
//	index      the full-text index of the messages, for Search (see index.go)
//	tasks      task id → JSON scheduled task record
//	checkpoints session id → bucket of big-endian message seq → JSON checkpoint record
//	rewinds    session id → bucket of big-endian counter → JSON rewind record
//
// Every record carries a version field, and Open runs the migrations a file
// needs inside one transaction, so later releases can change the layout:
// schema 1 is the first release, schema 2 added the index and indexed the
// messages already stored, schema 3 added scheduled tasks, schema 4 added
// checkpoints and rewinds.
//
// Search ranks stored messages with BM25 over an index that Append, Delete
// and Fork keep up to date in their own transactions. Scheduled tasks are
// prompts to send later, once or repeatedly; the store keeps them and their
// run history, and a scheduler elsewhere decides when to run them.
//
// A checkpoint ties a turn to the snapshots of the project's files taken
// around it (the snapshots live elsewhere; the store keeps their ids). A
// rewind takes messages out of what is sent to the model without deleting
// them: messages stay stored, and Messages marks those inside a rewind as
// Rewound, so the history still shows what was dropped and Redo can bring
// them back.
package session
