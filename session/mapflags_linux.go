package session

import "syscall"

// mapFlags asks Linux to map every page at once: one call instead of a
// page fault per page header the check reads.
const mapFlags = syscall.MAP_SHARED | syscall.MAP_POPULATE
