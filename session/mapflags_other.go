//go:build unix && !linux

package session

import "syscall"

// mapFlags maps the file shared; pages are brought in as they are read.
const mapFlags = syscall.MAP_SHARED
