package acp

import (
	"context"
	"errors"
	"time"

	"pincer/tools"
)

// bufferTimeout bounds one exchange with the editor about a file.
const bufferTimeout = 30 * time.Second

// editorFiles reads and writes files through the editor's
// fs/read_text_file and fs/write_text_file, where it offers them.
type editorFiles struct{ s *session }

// buffers are the editor's file methods for the file tools, nil when it
// offers neither.
func (s *session) buffers() tools.Buffers {
	caps := s.srv.capabilities()
	if !caps.FS.ReadTextFile && !caps.FS.WriteTextFile {
		return nil
	}
	return editorFiles{s: s}
}

// ReadFile implements tools.Buffers.
func (f editorFiles) ReadFile(ctx context.Context, path string) ([]byte, error) {
	if !f.s.srv.capabilities().FS.ReadTextFile {
		return nil, tools.ErrNoBuffers
	}
	ctx, cancel := context.WithTimeout(ctx, bufferTimeout)
	defer cancel()
	var r readTextFileResponse
	if err := f.s.srv.conn.call(ctx, "fs/read_text_file", readTextFileRequest{SessionID: f.s.id, Path: path}, &r); err != nil {
		return nil, err
	}
	if r.Content == nil {
		return nil, errors.New("the editor's answer has no content")
	}
	return []byte(*r.Content), nil
}

// WriteFile implements tools.Buffers.
func (f editorFiles) WriteFile(ctx context.Context, path string, content []byte) error {
	if !f.s.srv.capabilities().FS.WriteTextFile {
		return tools.ErrNoBuffers
	}
	ctx, cancel := context.WithTimeout(ctx, bufferTimeout)
	defer cancel()
	return f.s.srv.conn.call(ctx, "fs/write_text_file", writeTextFileRequest{SessionID: f.s.id, Path: path, Content: string(content)}, nil)
}
