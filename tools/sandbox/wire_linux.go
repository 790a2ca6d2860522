//go:build linux

package sandbox

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"

	"golang.org/x/sys/unix"
)

// The helper and pincer talk over a Unix stream socket (the helper's
// fd 3). Each message is a 4-byte big-endian length and that many bytes
// of JSON; a run message carries the command's stdin, stdout and stderr
// as SCM_RIGHTS on its first bytes.
//
//	pincer → helper  setup                    the jail to build, once
//	helper → pincer  ready | error            once, after building it and restricting itself
//	pincer → helper  run (+3 fds)             start a command
//	helper → pincer  started | error          its pid, or why it did not start
//	pincer → helper  kill                     (optional) end it now
//	helper → pincer  ended                    its wait status, once all it left is dead
//
// A closed socket on either side ends everything: the helper kills what
// runs and exits; pincer reports the command as ended by the helper's loss.

// helperFD is the helper's end of the socket.
const helperFD = 3

// maxMessage bounds one message (the kernel's own limit on a command's
// arguments and environment is lower), so a broken peer cannot make the
// other side allocate without end.
const maxMessage = 8 << 20

// message is one message either way; Op says which.
type message struct {
	Op     string   `json:"op"`
	Path   string   `json:"path,omitempty"`
	Argv   []string `json:"argv,omitempty"`
	Env    []string `json:"env,omitempty"`
	Dir    string   `json:"dir,omitempty"`
	Pid    int      `json:"pid,omitempty"`
	Status uint32   `json:"status,omitempty"` // a wait status, as wait4 gives it
	Err    string   `json:"err,omitempty"`
	Setup  *setup   `json:"setup,omitempty"`
}

// encode frames m for the socket.
func encode(m message) ([]byte, error) {
	body, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	if len(body) > maxMessage {
		return nil, fmt.Errorf("the command and its environment take %d bytes, more than the %d the sandbox passes on", len(body), maxMessage)
	}
	return append(binary.BigEndian.AppendUint32(make([]byte, 0, 4+len(body)), uint32(len(body))), body...), nil
}

// sendFD writes m, with fds attached, to the socket fd (blocking).
func sendFD(fd int, m message, fds ...int) error {
	b, err := encode(m)
	if err != nil {
		return err
	}
	var oob []byte
	if len(fds) > 0 {
		oob = unix.UnixRights(fds...)
	}
	for len(b) > 0 {
		n, err := unix.SendmsgN(fd, b, oob, nil, unix.MSG_NOSIGNAL)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return err
		}
		b, oob = b[n:], nil
	}
	return nil
}

// recvFD reads one message, and the descriptors that came with it, from
// the socket fd (blocking). The descriptors are close-on-exec.
func recvFD(fd int) (message, []int, error) {
	var m message
	var fds []int
	head := make([]byte, 4)
	oob := make([]byte, unix.CmsgSpace(3*4))
	for got := 0; got < len(head); {
		n, oobn, _, _, err := unix.Recvmsg(fd, head[got:], oob, unix.MSG_CMSG_CLOEXEC)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return m, fds, err
		}
		if oobn > 0 {
			got, err := parseRights(oob[:oobn])
			fds = append(fds, got...)
			if err != nil {
				return m, fds, err
			}
		}
		if n == 0 {
			return m, fds, errClosed
		}
		got += n
	}
	size := binary.BigEndian.Uint32(head)
	if size > maxMessage {
		return m, fds, fmt.Errorf("a message of %d bytes is more than the %d allowed", size, maxMessage)
	}
	body := make([]byte, size)
	for got := 0; got < len(body); {
		n, err := unix.Read(fd, body[got:])
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return m, fds, err
		}
		if n == 0 {
			return m, fds, errClosed
		}
		got += n
	}
	return m, fds, json.Unmarshal(body, &m)
}

// errClosed is the other side going away.
var errClosed = errors.New("the other side closed the connection")

// parseRights returns the descriptors in a control message.
func parseRights(oob []byte) ([]int, error) {
	msgs, err := unix.ParseSocketControlMessage(oob)
	if err != nil {
		return nil, err
	}
	var fds []int
	for _, cm := range msgs {
		got, err := unix.ParseUnixRights(&cm)
		if err != nil {
			continue
		}
		fds = append(fds, got...)
	}
	return fds, nil
}
