package session

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"pincer/chat"
)

// The benchmark corpus: coding-assistant conversations generated from a
// fixed seed, so every run measures the same store. Words are drawn with a
// Zipf distribution, as in real text, from prose, programming vocabulary,
// identifiers, paths and error messages.

// corpusRareTerm appears in exactly corpusRareCount messages.
const (
	corpusRareTerm  = "zanzibarquux"
	corpusRareCount = 7
)

// corpusWords are the word lists the corpus draws from.
type corpusWords struct {
	prose, code, errors, dirs, names []string
}

func newCorpusWords() corpusWords {
	return corpusWords{
		prose: strings.Fields(`time work problem way code change issue test tests failing output
		case value result call function method type struct interface field error errors message
		line lines file files directory package module build run runs running check look need
		want think try trying works working fix fixed bug bugs behaviour expected actual wrong
		right first last next new old small large simple better faster slower update add remove
		rename move split merge return returns returned read write open close start stop wait
		timeout retry request response server client handler route endpoint query database table
		index column row schema migration cache memory disk network socket connection session
		token user users config configuration option options flag flags default defaults value
		values list map slice array string strings number bytes buffer stream reader writer
		parse parser parsing lexer token tokens node tree walk visit print format log logs
		logger level debug info warn trace stack panic recover goroutine channel mutex lock
		context cancel deadline signal process command shell script path paths env variable
		version release commit branch merge rebase diff patch review comment docs readme
		benchmark profile allocation latency throughput concurrency race condition deadlock`),
		code: strings.Fields(`func var const import package return if else for range switch
		go defer select chan struct interface map nil true false err ctx int string byte bool
		fmt errors strings bytes json http sync time context os io bufio sort slices`),
		errors: []string{
			"panic: runtime error: index out of range [3] with length 3",
			"undefined: parseConfig",
			"cannot use x (variable of type int) as string value in argument",
			"ModuleNotFoundError: No module named 'yaml'",
			"connection refused while dialing tcp 127.0.0.1:5432",
			"context deadline exceeded after 30s",
			"fatal error: all goroutines are asleep - deadlock!",
			"TypeError: Cannot read properties of undefined (reading 'map')",
			"permission denied opening /var/lib/app/data.db",
			"expected 200 OK but got 404 Not Found from /api/v1/users",
		},
		dirs:  strings.Fields("internal cmd pkg api server client store parser lexer config auth web ui db util"),
		names: strings.Fields("main handler parser lexer config store session user auth cache router middleware server client util"),
	}
}

// corpus generates the messages of one store.
type corpus struct {
	corpusWords
	r    *rand.Rand
	zipf *rand.Zipf
	idents,
	paths []string
}

func newCorpus() *corpus {
	r := rand.New(rand.NewPCG(7, 11))
	c := &corpus{corpusWords: newCorpusWords(), r: r}
	c.zipf = rand.NewZipf(r, 1.15, 2, uint64(len(c.prose)-1))
	for i := range 3000 {
		a, b := c.prose[r.IntN(len(c.prose))], c.prose[r.IntN(len(c.prose))]
		switch i % 3 {
		case 0:
			c.idents = append(c.idents, a+strings.ToUpper(b[:1])+b[1:])
		case 1:
			c.idents = append(c.idents, a+"_"+b)
		default:
			c.idents = append(c.idents, strings.ToUpper(a[:1])+a[1:]+strings.ToUpper(b[:1])+b[1:]+fmt.Sprint(i%7))
		}
	}
	for range 800 {
		c.paths = append(c.paths, fmt.Sprintf("%s/%s/%s.go", c.dirs[r.IntN(len(c.dirs))], c.dirs[r.IntN(len(c.dirs))], c.names[r.IntN(len(c.names))]))
	}
	return c
}

func (c *corpus) word() string { return c.prose[c.zipf.Uint64()] }
func (c *corpus) ident() string {
	return c.idents[int(float64(len(c.idents))*c.r.Float64()*c.r.Float64())]
}
func (c *corpus) path() string {
	return c.paths[int(float64(len(c.paths))*c.r.Float64()*c.r.Float64())]
}

// sentence is n words of prose with identifiers and paths mixed in.
func (c *corpus) sentence(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		switch x := c.r.IntN(20); {
		case x == 0:
			b.WriteString("`" + c.ident() + "`")
		case x == 1:
			b.WriteString(c.path())
		case x < 5:
			b.WriteString([]string{"the", "a", "to", "is", "it", "and", "of", "in", "that", "we"}[c.r.IntN(10)])
		default:
			b.WriteString(c.word())
		}
	}
	b.WriteString(".")
	return b.String()
}

// message returns message i of a conversation: a user prompt, then rounds
// of an assistant message calling a tool and the tool's output.
func (c *corpus) message(i int, t time.Time) chat.Message {
	switch {
	case i%6 == 0:
		text := c.sentence(10 + c.r.IntN(50))
		if c.r.IntN(3) == 0 {
			text += " It fails with: " + c.errors[c.r.IntN(len(c.errors))]
		}
		return chat.Message{Role: chat.RoleUser, Content: text, Time: t}
	case i%2 == 1:
		var b strings.Builder
		for range 2 + c.r.IntN(6) {
			b.WriteString(c.sentence(8 + c.r.IntN(30)))
			b.WriteByte(' ')
		}
		args := fmt.Sprintf(`{"path":%q}`, c.path())
		name := "read_file"
		if c.r.IntN(3) == 0 {
			name, args = "run_command", fmt.Sprintf(`{"command":"go test ./%s/..."}`, c.dirs[c.r.IntN(len(c.dirs))])
		}
		return chat.Message{Role: chat.RoleAssistant, Content: b.String(), Time: t,
			ToolCalls: []chat.ToolCall{{ID: fmt.Sprintf("call_%d", i), Name: name, Arguments: args}}}
	default:
		var b strings.Builder
		size := 300 + c.r.IntN(6000)
		for b.Len() < size {
			switch c.r.IntN(4) {
			case 0:
				fmt.Fprintf(&b, "func %s(%s %s) error {\n", c.ident(), c.code[c.r.IntN(len(c.code))], c.code[c.r.IntN(len(c.code))])
			case 1:
				fmt.Fprintf(&b, "\t%s := %s.%s(%s)\n", c.word(), c.code[c.r.IntN(len(c.code))], c.ident(), c.word())
			case 2:
				fmt.Fprintf(&b, "--- FAIL: Test%s (0.%02ds)\n    %s:%d: %s\n", c.ident(), c.r.IntN(100), c.path(), c.r.IntN(900), c.errors[c.r.IntN(len(c.errors))])
			default:
				b.WriteString("\t// " + c.sentence(6+c.r.IntN(10)) + "\n")
			}
		}
		return chat.Message{Role: chat.RoleTool, ToolCallID: fmt.Sprintf("call_%d", i-1), ToolName: "read_file", Content: b.String(), Time: t}
	}
}

// seedCorpus writes sessions holding total messages into the store at path
// (already opened once, so its buckets exist), a few sessions per
// transaction, indexing each message as Append does, so the index has the
// mix of segments and pending messages a store grown by Append has. It
// returns the ids of the sessions.
func seedCorpus(tb testing.TB, path string, sessions, total int) []string {
	tb.Helper()
	c := newCorpus()
	db, err := bolt.Open(path, fileMode, &bolt.Options{NoSync: true, NoGrowSync: true})
	if err != nil {
		tb.Fatalf("open %s: %v", path, err)
	}
	defer db.Close()
	// Rare messages are spread over the corpus at fixed places.
	rare := map[int]bool{}
	for i := range corpusRareCount {
		rare[(i*total)/corpusRareCount+17] = true
	}
	start := time.Date(2024, 6, 1, 9, 0, 0, 0, time.UTC)
	var ids []string
	n := 0
	const batch = 20
	for first := 0; first < sessions; first += batch {
		err := db.Update(func(tx *bolt.Tx) error {
			for i := first; i < min(first+batch, sessions); i++ {
				count := total / sessions
				if i < total%sessions {
					count++
				}
				created := start.Add(time.Duration(i) * 3 * time.Hour)
				id, err := newID(created)
				if err != nil {
					return err
				}
				rec := toSessionRecord(Session{ID: id, Name: fmt.Sprintf("task-%04d", i), Dir: fmt.Sprintf("/home/dev/project-%d", i%25), Model: "test-model", Created: created, Updated: created})
				if err := claimName(tx, rec.Name, rec.ID); err != nil {
					return err
				}
				if err := insertSession(tx, rec); err != nil {
					return err
				}
				msgs, err := messageBucket(tx, id)
				if err != nil {
					return err
				}
				for j := range count {
					m := c.message(j, created.Add(time.Duration(j)*20*time.Second))
					if rare[n] {
						m.Content += " Look for " + corpusRareTerm + " in the logs."
					}
					n++
					m.Seq = uint64(j + 1)
					if rec.Title == "" && m.Role == chat.RoleUser {
						rec.Title = makeTitle(m.Content)
					}
					raw, err := json.Marshal(toMessageRecord(m))
					if err != nil {
						return err
					}
					if err := msgs.Put(seqKey(m.Seq), raw); err != nil {
						return err
					}
					if err := indexMessage(tx, id, m.Seq, toMessageRecord(m)); err != nil {
						return err
					}
					rec.Updated = m.Time
				}
				if err := msgs.SetSequence(uint64(count)); err != nil {
					return err
				}
				rec.MessageCount = count
				if err := putSession(tx, rec); err != nil {
					return err
				}
				ids = append(ids, id)
			}
			return nil
		})
		if err != nil {
			tb.Fatalf("seed %s: %v", path, err)
		}
	}
	return ids
}
