package e2etest

// alive reports false: the screen's tests need tmux, which Windows lacks,
// so there is no pane process to wait for.
func alive(int) bool { return false }
