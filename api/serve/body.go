package serve

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"

	"github.com/workorderdesk/workdesk/api"
)

// MaxJSONBody caps a request's JSON body; invoices with many lines stay far
// below it.
const MaxJSONBody = 4 << 20

// MaxBytes is http.MaxBytesReader told through the server's own writer,
// found by Unwrap as http.ResponseController finds it: through a wrapper it
// could not tell the server to close the connection, and the server would
// read the rest of an oversized body before the refusal is sent.
func MaxBytes(w http.ResponseWriter, body io.ReadCloser, n int64) io.ReadCloser {
	for {
		u, ok := w.(interface{ Unwrap() http.ResponseWriter })
		if !ok {
			break
		}
		w = u.Unwrap()
	}
	return http.MaxBytesReader(w, body, n)
}

// ReadBody reads a request's JSON body, at most MaxJSONBody.
func ReadBody(w http.ResponseWriter, r *http.Request) ([]byte, *api.Error) {
	b, err := io.ReadAll(MaxBytes(w, r.Body, MaxJSONBody))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		return nil, TooLarge("the request body", MaxJSONBody)
	case err != nil:
		return nil, Invalid("", "the request body could not be read: %v", err)
	}
	return b, nil
}

// DecodeJSON reads a request's JSON body into v: an empty or malformed body
// is a validation error (2100), as the service answers it.
func DecodeJSON(body []byte, v any) *api.Error {
	if len(bytes.TrimSpace(body)) == 0 {
		return Invalid("", "the request body is empty")
	}
	if err := json.Unmarshal(body, v); err != nil {
		return Invalid("", "the request body is not valid: %v", err)
	}
	return nil
}
