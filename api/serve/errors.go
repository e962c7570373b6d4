package serve

import (
	"encoding/json"
	"fmt"
	"net/http"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/workorderdesk/workdesk/api"
)

// Invalid is the service's validation error (code 2100, service-facts §10)
// about one property of the request.
func Invalid(property, format string, args ...any) *api.Error {
	return &api.Error{StatusCode: http.StatusBadRequest, Code: api.CodeInvalidModel,
		Message:          "The request is invalid.",
		ValidationErrors: []api.ValidationError{{Type: "InvalidValue", Property: property, Message: fmt.Sprintf(format, args...)}}}
}

// TooLarge is a validation error like any other (service-facts §10: 400
// with the error body), not a bare 413, so that clients show its message.
func TooLarge(what string, limit int64) *api.Error {
	return &api.Error{StatusCode: http.StatusBadRequest, Code: api.CodeInvalidModel,
		Message:          "The request is invalid.",
		ValidationErrors: []api.ValidationError{{Type: "TooLarge", Message: fmt.Sprintf("%s is larger than the %d MB limit", what, limit>>20)}}}
}

// NotFound is the service's answer to a path it does not serve.
func NotFound() *api.Error {
	return &api.Error{StatusCode: http.StatusNotFound, Message: "No HTTP resource was found that matches the request URI."}
}

// maxMessage is the documented cap of an error's Message.
const maxMessage = 1000

// ErrorBody is the status and body of the service's answer for e:
// {Code, Message, ValidationErrors, MessageId}, 400 unless e says otherwise.
func ErrorBody(e *api.Error, messageId string) (int, []byte) {
	status := e.StatusCode
	if status == 0 {
		status = http.StatusBadRequest
	}
	out := *e
	out.MessageId = messageId
	if len(out.Message) > maxMessage {
		cut := maxMessage
		for cut > 0 && !utf8.RuneStart(out.Message[cut]) {
			cut--
		}
		out.Message = out.Message[:cut]
	}
	b, _ := json.Marshal(&out)
	return status, b
}

// WriteError answers with e's error body; a request that named no
// MessageId gets one made up, as the service's answers always carry one.
func WriteError(w http.ResponseWriter, e *api.Error, messageId string) {
	if messageId == "" {
		messageId = uuid.NewString()
	}
	status, b := ErrorBody(e, messageId)
	WriteRaw(w, status, b)
}

// Denied answers 401 to a request whose bearer token is not taken. The real
// service's status and body for it are not published (service-facts §10):
// 401 in the usual error shape.
func Denied(w http.ResponseWriter, messageId string) {
	w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token"`)
	WriteError(w, &api.Error{StatusCode: http.StatusUnauthorized, Message: "Authorization has been denied for this request."}, messageId)
}

// WriteJSON answers with v as JSON.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, "encoding the answer failed", http.StatusInternalServerError)
		return
	}
	WriteRaw(w, status, b)
}

// WriteRaw answers with b, a JSON document already encoded.
func WriteRaw(w http.ResponseWriter, status int, b []byte) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	w.Write(b)
}
