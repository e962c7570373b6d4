package format

import (
	"context"
	"errors"
	"strings"

	"github.com/workorderdesk/workdesk/api"
)

// Error says what went wrong without the HTTP details, as a sentence.
func Error(err error) string {
	var apiErr *api.Error
	switch {
	case errors.Is(err, api.ErrCredentialsRejected):
		return "the service refused the client id or secret: check them in File › Live connection…"
	case api.Plain(err) != "":
		return endSentence(api.Plain(err))
	case errors.As(err, &apiErr) && apiErr.Message != "":
		return endSentence(apiErr.Message)
	case errors.Is(err, context.DeadlineExceeded):
		return "the service took too long to answer."
	case api.IsTemporary(err):
		return "the service could not be reached (offline?)."
	}
	return endSentence(err.Error())
}

// endSentence ends s with one full stop, unless its own mark ends it
// already: "or use Save as…" takes no ".", which read "Save as….".
func endSentence(s string) string {
	s = strings.TrimSuffix(s, ".")
	if strings.HasSuffix(s, "…") || strings.HasSuffix(s, "?") || strings.HasSuffix(s, "!") {
		return s
	}
	return s + "."
}
