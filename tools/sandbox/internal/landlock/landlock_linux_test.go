package landlock

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// TestMain lets the test binary restrict itself and run a shell script,
// so the enforcement tests see what a restricted program sees.
func TestMain(m *testing.M) {
	if dir := os.Getenv("LANDLOCK_TEST_CHILD"); dir != "" {
		os.Exit(child(dir, os.Getenv("LANDLOCK_TEST_SCRIPT")))
	}
	os.Exit(m.Run())
}

// child restricts its thread to reading everything and writing dir/rw
// and dir/file, then runs script with /bin/sh from that thread.
func child(dir, script string) int {
	runtime.LockOSThread()
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		os.Stderr.WriteString("no_new_privs: " + err.Error() + "\n")
		return 125
	}
	rules := []Rule{
		{Access: Read, Paths: []string{"/"}},
		// Directory rights on a file and a path that is missing must
		// neither fail nor widen anything.
		{Access: Read | Write | FSRefer, Paths: []string{filepath.Join(dir, "rw"), filepath.Join(dir, "file"), filepath.Join(dir, "missing")}},
		{Access: (Read | Write | FSIoctlDev) & FileRights, Paths: []string{"/dev/null"}},
	}
	if err := Restrict(All(), rules); err != nil {
		os.Stderr.WriteString("restrict: " + err.Error() + "\n")
		return 125
	}
	err := syscall.Exec("/bin/sh", []string{"sh", "-c", script}, os.Environ())
	os.Stderr.WriteString("exec: " + err.Error() + "\n")
	return 125
}

// needLandlock returns the kernel's ABI, or stops the test where there
// is none (failing under CI, which must run it).
func needLandlock(t *testing.T) int {
	t.Helper()
	v, err := Version()
	if err == nil && v >= 1 {
		return v
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("no Landlock on this kernel (%v), and CI must run this test", err)
	}
	t.Skipf("no Landlock on this kernel (%v)", err)
	return 0
}

func TestSupported(t *testing.T) {
	const v1 = FSExecute | FSWriteFile | FSReadFile | FSReadDir | FSRemoveDir | FSRemoveFile |
		FSMakeChar | FSMakeDir | FSMakeReg | FSMakeSock | FSMakeFifo | FSMakeBlock | FSMakeSym
	tcp, scopes := uint64(NetBindTCP|NetConnectTCP), uint64(ScopeAbstractUnixSocket|ScopeSignal)
	tests := []struct {
		abi  int
		want Rights
	}{
		{-1, Rights{}},
		{0, Rights{}},
		{1, Rights{FS: v1}},
		{2, Rights{FS: v1 | FSRefer}},
		{3, Rights{FS: v1 | FSRefer | FSTruncate}},
		{4, Rights{FS: v1 | FSRefer | FSTruncate, Net: tcp}},
		{5, Rights{FS: v1 | FSRefer | FSTruncate | FSIoctlDev, Net: tcp}},
		{6, Rights{FS: v1 | FSRefer | FSTruncate | FSIoctlDev, Net: tcp, Scoped: scopes}},
		{7, Rights{FS: v1 | FSRefer | FSTruncate | FSIoctlDev, Net: tcp, Scoped: scopes}},
		{8, Rights{FS: v1 | FSRefer | FSTruncate | FSIoctlDev, Net: tcp, Scoped: scopes}},
		{9, Rights{FS: v1 | FSRefer | FSTruncate | FSIoctlDev | FSResolveUnix, Net: tcp, Scoped: scopes}},
		{10, Rights{FS: 1<<17 - 1, Net: 0xf, Scoped: scopes}},
		{11, Rights{FS: 1<<17 - 1, Net: 0xf, Scoped: scopes}},
		{99, Rights{FS: 1<<17 - 1, Net: 0xf, Scoped: scopes}},
	}
	for _, tt := range tests {
		if got := Supported(tt.abi); got != tt.want {
			t.Errorf("Supported(%d) = %#x, want %#x", tt.abi, got, tt.want)
		}
	}
	if All() != Supported(Newest) {
		t.Errorf("All() = %#x, want Supported(Newest)", All())
	}
}

func TestPlan(t *testing.T) {
	offline := All()
	online := All()
	online.Net = 0
	rw := Rule{Access: Read | Write | FSRefer, Paths: []string{"/w"}}
	dev := Rule{Access: (Read | Write | FSIoctlDev) & FileRights, Paths: []string{"/dev/null"}}
	sock := Rule{Access: FSResolveUnix, Paths: []string{"/run/agent.sock"}}
	noPaths := Rule{Access: Read}
	tests := []struct {
		name      string
		want      Rights
		abi       int
		handled   Rights
		wantRules []Rule
	}{
		{"ABI 7 keeps refer and ioctl, drops the socket rule", offline, 7,
			Supported(7), []Rule{rw, dev}},
		{"ABI 9 keeps the socket rule", offline, 9,
			Supported(9), []Rule{rw, dev, sock}},
		{"with the network nothing of it is handled", online, 7,
			Rights{FS: Supported(7).FS, Scoped: Supported(7).Scoped}, []Rule{rw, dev}},
		{"ABI 4 has no ioctl right to grant", offline, 4,
			Supported(4), []Rule{rw, {Access: (Read | Write) & FileRights, Paths: dev.Paths}}},
		{"ABI 2 cannot truncate", offline, 2,
			Supported(2), []Rule{{Access: Read | Write&^FSTruncate | FSRefer, Paths: rw.Paths}, {Access: FSExecute | FSReadFile | FSWriteFile, Paths: dev.Paths}}},
		{"ABI 1 drops refer: the kernel denies it anyway", offline, 1,
			Supported(1), []Rule{{Access: Read | Write&^FSTruncate, Paths: rw.Paths}, {Access: FSExecute | FSReadFile | FSWriteFile, Paths: dev.Paths}}},
		{"no Landlock handles nothing", offline, 0, Rights{}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			handled, rules := Plan(tt.want, []Rule{rw, dev, sock, noPaths}, tt.abi)
			if handled != tt.handled {
				t.Errorf("handled = %#x, want %#x", handled, tt.handled)
			}
			if len(rules) != len(tt.wantRules) {
				t.Fatalf("rules = %#v, want %#v", rules, tt.wantRules)
			}
			for i := range rules {
				if rules[i].Access != tt.wantRules[i].Access || strings.Join(rules[i].Paths, ",") != strings.Join(tt.wantRules[i].Paths, ",") {
					t.Errorf("rule %d = %#x %v, want %#x %v", i, rules[i].Access, rules[i].Paths, tt.wantRules[i].Access, tt.wantRules[i].Paths)
				}
				if rules[i].Access&^handled.FS != 0 {
					t.Errorf("rule %d grants %#x the ruleset does not handle (%#x): the kernel refuses that", i, rules[i].Access, handled.FS)
				}
			}
		})
	}
}

// TestAddPath adds rules to a ruleset that is never enforced: a file
// given directory rights keeps its file rights only, and a missing path
// is skipped, where the kernel itself would refuse both.
func TestAddPath(t *testing.T) {
	abi := needLandlock(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	handled := Supported(abi)
	fd, err := create(handled)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	all := handled.FS
	tests := []struct {
		name   string
		path   string
		access uint64
	}{
		{"directory, every right", dir, all},
		{"file, every right", file, all},
		{"file, file rights", file, all & FileRights},
		{"file, directory rights only", file, FSReadDir | FSMakeDir},
		{"missing", filepath.Join(dir, "missing"), all},
		{"missing parent", filepath.Join(file, "below"), all},
	}
	for _, tt := range tests {
		if err := addPath(fd, tt.path, tt.access); err != nil {
			t.Errorf("%s: addPath = %v, want nil", tt.name, err)
		}
	}
	// The kernel does refuse directory rights on a file: the mask above is
	// what keeps a rule on a file from failing.
	f, err := unix.Open(file, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(f)
	attr := unix.LandlockPathBeneathAttr{Allowed_access: all, Parent_fd: int32(f)}
	_, _, errno := unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, uintptr(fd), unix.LANDLOCK_RULE_PATH_BENEATH, uintptr(unsafe.Pointer(&attr)), 0, 0, 0)
	if !errors.Is(errno, unix.EINVAL) {
		t.Errorf("landlock_add_rule with directory rights on a file = %v, want EINVAL", errno)
	}
}

// TestRestrict runs scripts in a child restricted to reading everything
// and writing dir/rw and dir/file.
func TestRestrict(t *testing.T) {
	needLandlock(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, d := range []string{"rw", "ro"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"file", "ro/keep"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("keep\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name   string
		script string
		ok     bool
	}{
		{"write in the writable dir", "echo x > rw/a && mkdir rw/d && mv rw/a rw/d/b", true},
		{"write the writable file", "echo x > file", true},
		{"read outside", "cat ro/keep", true},
		{"write beside the writable dir", "echo x > new", false},
		{"write in a read-only dir", "echo x > ro/new", false},
		{"overwrite a read-only file", "echo x > ro/keep", false},
		{"remove a read-only file", "rm ro/keep", false},
		{"move out of the writable dir", "echo x > rw/m && mv rw/m ro/m", false},
		{"create the missing path", "mkdir missing", false},
		{"write /dev/null", "echo x > /dev/null", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(exe)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "LANDLOCK_TEST_CHILD="+dir, "LANDLOCK_TEST_SCRIPT="+tt.script)
			out, err := cmd.CombinedOutput()
			if code := cmd.ProcessState.ExitCode(); code == 125 {
				t.Fatalf("the child could not restrict itself: %s", out)
			}
			if (err == nil) != tt.ok {
				t.Errorf("%q: err = %v, want ok=%v; output: %s", tt.script, err, tt.ok, out)
			}
		})
	}
	if data, err := os.ReadFile(filepath.Join(dir, "ro", "keep")); err != nil || string(data) != "keep\n" {
		t.Errorf("ro/keep = %q, %v; want it untouched", data, err)
	}
}
