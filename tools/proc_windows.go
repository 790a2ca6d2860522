//go:build windows

package tools

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
)

// verbatimCmdLine hands cmd.exe the command line as it is: cmd.exe does
// its own parsing of it.
func verbatimCmdLine(cmd *exec.Cmd) {
	if isCmdExe(cmd.Path) && len(cmd.Args) == 5 {
		cmd.SysProcAttr.CmdLine = fmt.Sprintf(`%s /d /s /c "%s"`, syscall.EscapeArg(cmd.Path), cmd.Args[4])
	}
}

// exitStatus words how a finished command ended.
func exitStatus(ps *os.ProcessState) string {
	return fmt.Sprintf("exit code %d", ps.ExitCode())
}

func isCmdExe(p string) bool {
	b := strings.ToLower(filepath.Base(p))
	return b == "cmd" || b == "cmd.exe"
}

// shellCommand returns the program and arguments that run command: shell
// when given (cmd.exe, powershell, pwsh, or an sh-like shell such as Git's
// bash), else pwsh when installed, else Windows PowerShell.
func shellCommand(shell, command string) (string, []string) {
	if shell == "" {
		shell = "powershell.exe"
		if p, err := exec.LookPath("pwsh"); err == nil {
			shell = p
		}
	}
	base := strings.TrimSuffix(strings.ToLower(filepath.Base(shell)), ".exe")
	switch base {
	case "cmd":
		return shell, []string{"/d", "/s", "/c", command}
	case "powershell", "pwsh":
		return shell, []string{"-NoLogo", "-NoProfile", "-NonInteractive", "-Command", command}
	}
	return shell, []string{"-c", command}
}

// dirWritable reports whether a file may be created in dir. Windows has no
// access(2); its ACLs are only known by trying, so this creates and removes
// an empty temporary file.
func dirWritable(dir string) error {
	tmp, err := os.CreateTemp(dir, ".pincer-check-*")
	if err != nil {
		return err
	}
	name := tmp.Name()
	tmp.Close()
	return os.Remove(name)
}
