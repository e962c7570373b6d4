package api

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Service error codes (service-facts §10).
const (
	CodeInvalidModel          = 2100
	CodeBusinessRule          = 3000
	CodeWrongStatus           = 3001
	CodePreBilled             = 3002
	CodeNoSuchEntity          = 3003
	CodeQuotesNotAllowed      = 3004
	CodeNotFoundOrRecalled    = 3005
	CodeInvoiceNotEditable    = 3036
	CodeCompositeTax          = 3042
	CodeUnknownLineItem       = 3043
	CodeInvoiceCannotSubmit   = 3050
	CodeWorkOrderNotCompleted = 3051
	CodeInvoiceInvalid        = 3052
	CodeTaxMismatch           = 3056
)

// HubCannotReachService is the office hub's message (a 503) when the
// customer's service does not answer it: the hub itself is alive. Desktops
// tell the two apart by it.
const HubCannotReachService = "The work order service cannot be reached from the hub; try again later."

// ValidationError is one item of Error.ValidationErrors (codes 21xx).
type ValidationError struct {
	Type     string `json:"Type,omitempty"`
	Message  string `json:"Message"`
	Property string `json:"Property,omitempty"` // name not published; assumption
}

// Error is a non-200 answer of the service. It never carries the access token.
type Error struct {
	StatusCode       int               `json:"-"`
	Code             int               `json:"Code"`
	Message          string            `json:"Message"`
	ValidationErrors []ValidationError `json:"ValidationErrors,omitempty"`
	MessageId        string            `json:"MessageId,omitempty"`
	Op               string            `json:"-"` // "PUT /api/workOrder/reject"
	// RetryAfter is how long the service asked to wait (its Retry-After
	// header on 429 and 503); 0 when it did not say.
	RetryAfter time.Duration `json:"-"`
}

// maxRetryAfter caps a Retry-After: a day-long wait is a misconfigured
// server, not a plan.
const maxRetryAfter = 24 * time.Hour

// retryAfter reads a Retry-After header in either of its forms (seconds,
// or an HTTP date) as a wait from now; 0 when absent, unreadable or past.
func retryAfter(h http.Header, now time.Time) time.Duration {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	var d time.Duration
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs <= 0 {
			return 0
		}
		d = time.Duration(min(secs, int64(maxRetryAfter/time.Second))) * time.Second
	} else if at, err := http.ParseTime(v); err == nil {
		d = at.Sub(now)
	}
	return max(0, min(d, maxRetryAfter))
}

func (e *Error) Error() string {
	msg := e.Message
	if msg == "" {
		msg = http.StatusText(e.StatusCode)
	}
	for _, v := range e.ValidationErrors {
		msg += "; " + v.Message
	}
	if e.Code != 0 {
		return fmt.Sprintf("%s: %s (code %d, HTTP %d)", e.Op, msg, e.Code, e.StatusCode)
	}
	return fmt.Sprintf("%s: %s (HTTP %d)", e.Op, msg, e.StatusCode)
}

// ErrTooLarge is returned before any byte is sent when a file exceeds MaxAttachmentSize.
var ErrTooLarge = errors.New("file is larger than the service's 20 MB limit")

// MaxAttachmentSize is the service's file limit (service-facts §11).
const MaxAttachmentSize = 20 << 20

func asError(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

// HasCode reports whether err is a service error with the given code.
func HasCode(err error, code int) bool {
	e, ok := asError(err)
	return ok && e.Code == code
}

// IsWrongStatus: the work order's status does not allow the operation (3001).
func IsWrongStatus(err error) bool { return HasCode(err, CodeWrongStatus) }

// IsNotFoundOrRecalled: the work order is unknown or recalled (3005, or HTTP 404); stop acting on it.
func IsNotFoundOrRecalled(err error) bool {
	e, ok := asError(err)
	return ok && (e.Code == CodeNotFoundOrRecalled || e.StatusCode == http.StatusNotFound)
}

// IsQuotesNotAllowed: the customer does not accept quotes (3004).
func IsQuotesNotAllowed(err error) bool { return HasCode(err, CodeQuotesNotAllowed) }

// IsUnauthorized: the service refused the credentials even after a fresh token.
func IsUnauthorized(err error) bool {
	e, ok := asError(err)
	return ok && e.StatusCode == http.StatusUnauthorized
}

// IsBusiness reports a refusal by the service's rules (HTTP 4xx other than
// 401, 408 and 429): sending the same request again will fail the same way.
func IsBusiness(err error) bool {
	e, ok := asError(err)
	if !ok {
		return errors.Is(err, ErrTooLarge)
	}
	switch e.StatusCode {
	case http.StatusUnauthorized, http.StatusRequestTimeout, http.StatusTooManyRequests:
		return false
	}
	return e.StatusCode >= 400 && e.StatusCode < 500
}

// IsTemporary reports a failure worth retrying later with the same MessageId:
// no answer at all (network), a timeout, throttling or a server fault. A
// cancelled call or a certificate the client refuses is not: asking again
// fails the same way until someone acts.
func IsTemporary(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) {
		return false
	}
	if e, ok := asError(err); ok {
		return e.StatusCode >= 500 || e.StatusCode == http.StatusRequestTimeout || e.StatusCode == http.StatusTooManyRequests
	}
	var cert *tls.CertificateVerificationError
	if errors.As(err, &cert) {
		return false
	}
	var fe *FileError // its errno looks like a net.Error
	if errors.As(err, &fe) {
		return false
	}
	var ne net.Error
	return errors.As(err, &ne)
}
