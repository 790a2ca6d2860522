package session

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"

	bolt "go.etcd.io/bbolt"
)

// Limits for names, references and titles.
const (
	maxNameLen    = 64 // runes
	minPrefixLen  = 6  // shortest id prefix Get accepts
	maxTitleLen   = 60 // runes
	titleEllipsis = "…"
	idLen         = 26
)

// validateName checks a requested session name. Names are typed on command
// lines and shown in lists, so they must be short, printable and must not
// pass for something else.
func validateName(name string) error {
	switch {
	case name == "":
		return newError(ErrInvalidName, nil, "a session name cannot be empty")
	case !utf8.ValidString(name):
		return newError(ErrInvalidName, nil, "session name %q is not valid UTF-8; type it again", name)
	case strings.TrimSpace(name) == "":
		return newError(ErrInvalidName, nil, "session name %q is only spaces; give it a word", name)
	case strings.TrimSpace(name) != name:
		return newError(ErrInvalidName, nil, "session name %q starts or ends with a space; remove it", name)
	case utf8.RuneCountInString(name) > maxNameLen:
		return newError(ErrInvalidName, nil, "session name %q is longer than %d characters; shorten it", name, maxNameLen)
	case strings.HasPrefix(name, "-"):
		return newError(ErrInvalidName, nil, "session name %q starts with '-' and would read as a command-line flag; drop the dash", name)
	case looksLikeID(name):
		return newError(ErrInvalidName, nil, "session name %q looks like a session id or the start of one, so it could open another session; choose a name with a word or a dash in it, such as \"review-2\"", name)
	}
	for _, r := range name {
		if !unicode.IsPrint(r) {
			return newError(ErrInvalidName, nil, "session name %q contains the unprintable character %U; remove it", name, r)
		}
	}
	return nil
}

// looksLikeID reports whether s could be read as a session id or the
// start of one (of at least minPrefixLen characters, as lists show the
// first 12): a name of that form would hide the session whose id it
// starts, since a reference is looked up as a name first.
func looksLikeID(s string) bool {
	if len(s) < minPrefixLen || len(s) > idLen || s[0] < '0' || s[0] > '7' {
		return false // the first character of a ULID is 0 to 7
	}
	for i := 0; i < len(s); i++ {
		if !strings.ContainsRune(crockford, unicode.ToUpper(rune(s[i]))) {
			return false
		}
	}
	return true
}

// crockford is the alphabet of ULIDs (Crockford's base 32).
const crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// resolve finds a session by name, by id, or by a unique id prefix of at
// least minPrefixLen characters, in that order.
func resolve(tx *bolt.Tx, ref string) (sessionRecord, error) {
	if ref == "" {
		return sessionRecord{}, newError(ErrNotFound, nil, "no session given; name one or give its id")
	}
	sessions := tx.Bucket([]byte(bucketSessions))
	if id := tx.Bucket([]byte(bucketNames)).Get([]byte(ref)); id != nil {
		return loadSession(sessions, string(id))
	}
	if raw := sessions.Get([]byte(ref)); raw != nil {
		return decodeSession(ref, raw)
	}
	if len(ref) >= minPrefixLen {
		prefix := []byte(strings.ToUpper(ref))
		var found, keys [][]byte
		c := sessions.Cursor()
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			found, keys = append(found, v), append(keys, k)
		}
		switch len(found) {
		case 1:
			return decodeSession(string(keys[0]), found[0])
		case 0:
		default:
			return sessionRecord{}, newError(ErrAmbiguous, nil,
				"%d sessions have ids starting with %q; type more of the id", len(found), ref)
		}
	}
	return sessionRecord{}, newError(ErrNotFound, nil, "no session is named %q or has an id starting with it; 'pincer sessions --all' lists them", ref)
}

// loadSession reads the record of the session with the given id.
func loadSession(sessions *bolt.Bucket, id string) (sessionRecord, error) {
	raw := sessions.Get([]byte(id))
	if raw == nil {
		return sessionRecord{}, newError(ErrNotFound, nil, "no session has the id %q", id)
	}
	return decodeSession(id, raw)
}

// makeTitle turns the first user message into a one-line title.
func makeTitle(content string) string {
	for line := range strings.Lines(content) {
		line = strings.Join(strings.Fields(line), " ")
		if line == "" {
			continue
		}
		if utf8.RuneCountInString(line) <= maxTitleLen {
			return line
		}
		runes := []rune(line)
		return strings.TrimRight(string(runes[:maxTitleLen-1]), " ") + titleEllipsis
	}
	return ""
}
