package cli

import "testing"

func TestInvocation(t *testing.T) {
	cases := []struct{ exe, want string }{
		{"/usr/local/bin/pincer", "pincer"},
		{"/home/u/go/bin/pincer", "pincer"},
		{"/tmp/go-build3418723/b001/exe/pincer", "go run ."},
		{"/var/folders/x/T/go-build123/b001/exe/pincer", "go run ."},
		{"/home/u/src/go-builder/pincer", "pincer"},
	}
	for _, c := range cases {
		if got := invocation(c.exe); got != c.want {
			t.Errorf("invocation(%q) = %q, want %q", c.exe, got, c.want)
		}
	}
}
