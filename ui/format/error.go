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
		return api.Plain(err) + "."
	case errors.As(err, &apiErr) && apiErr.Message != "":
		return strings.TrimSuffix(apiErr.Message, ".") + "."
	case errors.Is(err, context.DeadlineExceeded):
		return "the service took too long to answer."
	case api.IsTemporary(err):
		return "the service could not be reached (offline?)."
	}
	return strings.TrimSuffix(err.Error(), ".") + "."
}
