package api

import (
	"errors"
	"net/http"
	"strings"
)

// OutcomeUnknown begins the message of the office hub's 409 for a write
// that may have reached the service already when nothing the service
// documents can tell whether it did (a message seen by fewer than
// everyone: the service lists only messages everyone sees). The hub did
// not send it again and will not for that MessageId: the person decides,
// and sending it again takes a new MessageId.
const OutcomeUnknown = "outcome unknown"

// IsOutcomeUnknown reports the hub's 409 "outcome unknown".
func IsOutcomeUnknown(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.StatusCode == http.StatusConflict && strings.HasPrefix(e.Message, OutcomeUnknown)
}
