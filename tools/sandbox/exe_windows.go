package sandbox

// CheckExecutable has nothing to check on Windows, where there is no
// jail whose helper could be replaced.
func CheckExecutable(string) error { return nil }
