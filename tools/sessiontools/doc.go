// Package sessiontools holds the tools backed by the session store: the
// model remembers a note for later sessions (remember), searches earlier
// sessions (recall), and schedules a prompt to run later (schedule_task).
// They are apart from the built-in tools because they need the store,
// which the file and command tools never see.
package sessiontools
