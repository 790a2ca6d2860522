package safety

import (
	"fmt"
	"strings"
	"testing"
)

// growthShapes build commands of about n bytes that stress one part of the
// classifier each: the parser, word expansion, variables, nesting and the
// rough scan. BenchmarkClassifyGrowth runs each at doubling sizes, so a
// time that more than doubles from one size to the next points at work
// that is not linear.
var growthShapes = []struct {
	name  string
	build func(n int) string
}{
	{"words", func(n int) string { return "echo" + strings.Repeat(" a", n/2) }},
	{"lists", func(n int) string { return strings.Repeat("ls;", n/3) }},
	{"pipes", func(n int) string { return "ls" + strings.Repeat("|cat", n/4) }},
	{"braces", func(n int) string { return strings.Repeat("{", n) }},
	{"brace-words", func(n int) string { return "echo " + strings.Repeat("{a,b}", n/5) }},
	{"parens", func(n int) string { return strings.Repeat("(", n) }},
	{"substs", func(n int) string { return strings.Repeat("$(echo ", n/7) + strings.Repeat(")", n/7) }},
	{"backquotes", func(n int) string { return "echo " + strings.Repeat("`", n) }},
	{"arithmetic", func(n int) string { return "echo $((" + strings.Repeat("1+", n/2) + "1))" }},
	{"evals", func(n int) string { return strings.Repeat("eval ", n/5) + "ls" }},
	{"self-vars", func(n int) string { return strings.Repeat("x=$x$x;", n/7) + "echo $x" }},
	{"many-values", func(n int) string {
		var b strings.Builder
		for i := 0; i < 64; i++ {
			fmt.Fprintf(&b, "x=v%d;", i)
		}
		return b.String() + "echo" + strings.Repeat(" $x", (n-b.Len())/3)
	}},
	{"heredoc", func(n int) string { return "cat <<EOF | sh\n" + strings.Repeat("ls\n", n/3) + "EOF" }},
	{"nested-shell", func(n int) string { return "bash -c '" + strings.Repeat("ls;", n/3) + "'" }},
	{"unparsable", func(n int) string { return strings.Repeat("rm x |", n/6) + "(" }},
	{"unknown-words", func(n int) string { return strings.Repeat(" $x", n/3) }},
	{"one-argument", func(n int) string { return "echo " + strings.Repeat("a", n) }},
}

func BenchmarkClassifyGrowth(b *testing.B) {
	c, err := NewClassifier(Rules{})
	if err != nil {
		b.Fatal(err)
	}
	for _, sh := range growthShapes {
		for _, n := range []int{1920, 3840, 7680, 15360} {
			cmd := sh.build(n)
			b.Run(fmt.Sprintf("%s/%d", sh.name, n), func(b *testing.B) {
				for b.Loop() {
					c.Classify(cmd)
				}
			})
		}
	}
}
