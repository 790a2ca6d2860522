package sandbox

// couldWrite cannot be asked cheaply on Windows, where there is no
// sandbox to blame anyway.
func couldWrite(string) bool { return false }
