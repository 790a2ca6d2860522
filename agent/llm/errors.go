package llm

import "errors"

// ServerStatus is the HTTP status of the error a model server answered
// with (401, 500, …), or 0 when err is not such an answer. A front end uses
// it to say what to do: a refused key names where the key is set, a
// server error says to try again later.
func ServerStatus(err error) int {
	var e *apiError
	if errors.As(err, &e) {
		return e.Status
	}
	return 0
}
