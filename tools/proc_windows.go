//go:build windows

package tools

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// startInOwnGroup starts cmd in a new process group.
func startInOwnGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.CreationFlags |= syscall.CREATE_NEW_PROCESS_GROUP
	if isCmdExe(cmd.Path) && len(cmd.Args) == 5 {
		// cmd.exe does its own parsing of the command line; hand it over verbatim.
		cmd.SysProcAttr.CmdLine = fmt.Sprintf(`%s /d /s /c "%s"`, syscall.EscapeArg(cmd.Path), cmd.Args[4])
	}
}

// stopGroup kills a running command's whole process tree with taskkill,
// falling back to the process itself.
func stopGroup(cmd *exec.Cmd) {
	kill := exec.Command("taskkill", "/T", "/F", "/PID", strconv.Itoa(cmd.Process.Pid))
	if err := kill.Run(); err != nil {
		_ = cmd.Process.Kill()
	}
}

// killGroup does nothing on Windows: once the shell has exited, taskkill
// can no longer find its tree, so background processes may outlive it.
func killGroup(*exec.Cmd) {}

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
