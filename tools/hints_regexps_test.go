package tools

import (
	"regexp"
	"testing"
)

// TestHintRegexpsCompile: the hints' regular expressions are compiled on
// first use (only a failed command needs them), so a broken one would
// only show when a command failed that way. Each is compiled here.
func TestHintRegexpsCompile(t *testing.T) {
	patterns := []linePattern{pyModuleNotFound, pyDashMMissing, goNoModule, goNotInStd, goGopathMiss,
		rustUnlinked, rustNoCrate, rustNoTarget, rustNoSubcmd, rubyLoadError, envInterpreter, badInterpreter}
	patterns = append(patterns, nodeMissing...)
	patterns = append(patterns, programMissing...)
	for _, p := range patterns {
		p.re() // MustCompile panics on a broken expression, failing the test
	}
	for _, re := range []func() *regexp.Regexp{pyModuleName, npmName, goImportPath, crateName, gemName,
		programName, pythonProgram, goModulePath, sharedLib} {
		re()
	}
}
