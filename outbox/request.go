package outbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"
)

// A request a desktop sends is the sender's claim: the office hub decodes
// it once, strictly, into its kind's typed request, and forwards that
// value re-encoded, so that what it locks, audits and tells is exactly what
// the service receives.

// InvalidRequest is a request refused by DecodeStrict, in the words a
// caller shows (Field names the offending field, "" for the whole body).
type InvalidRequest struct {
	Field string
	Msg   string
}

func (e *InvalidRequest) Error() string { return e.Msg }

func invalidRequest(field, format string, args ...any) error {
	return &InvalidRequest{Field: field, Msg: fmt.Sprintf(format, args...)}
}

func errUnreadable(err error) error { return fmt.Errorf("the stored request is unreadable: %w", err) }

// decodeStrict reads raw into v: valid UTF-8, one JSON object, no key
// twice in any object whatever its case (Go's decoder would take the last
// and match keys regardless of case, so {"AssociateIds":[1],
// "associateIds":[2]} could be read one way and sent the other), no field v
// does not have, and each of required present.
func decodeStrict(raw []byte, v any, required []string) error {
	if !utf8.Valid(raw) {
		return invalidRequest("", "the body is not valid UTF-8")
	}
	top, err := uniqueKeys(raw)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var unknown string
		if msg := err.Error(); strings.HasPrefix(msg, "json: unknown field ") {
			unknown = strings.Trim(strings.TrimPrefix(msg, "json: unknown field "), `"`)
			return invalidRequest(unknown, "the field %q is not part of this request", unknown)
		}
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return invalidRequest(te.Field, "the field %q has the wrong type", te.Field)
		}
		return invalidRequest("", "the body is not a valid request: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return invalidRequest("", "the body holds more than one JSON value")
	}
	for _, f := range required {
		if !slices.ContainsFunc(top, func(k string) bool { return strings.EqualFold(k, f) }) {
			return invalidRequest(f, "the field %q is required", f)
		}
	}
	return nil
}

// uniqueKeys checks that no object in raw names a key twice (regardless
// of case) and returns the keys of the top-level object.
func uniqueKeys(raw []byte) ([]string, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var top []string
	var walk func(depth int) error
	walk = func(depth int) error {
		t, err := dec.Token()
		if err != nil {
			return invalidRequest("", "the body is not valid JSON")
		}
		switch t {
		case json.Delim('{'):
			seen := map[string]bool{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return invalidRequest("", "the body is not valid JSON")
				}
				k := kt.(string)
				fold := strings.ToLower(k)
				if seen[fold] {
					return invalidRequest(k, "the field %q is given twice", k)
				}
				seen[fold] = true
				if depth == 0 {
					top = append(top, k)
				}
				if err := walk(depth + 1); err != nil {
					return err
				}
			}
			_, err = dec.Token() // }
			return err
		case json.Delim('['):
			for dec.More() {
				if err := walk(depth + 1); err != nil {
					return err
				}
			}
			_, err = dec.Token() // ]
			return err
		}
		return nil
	}
	if err := walk(0); err != nil {
		return nil, err
	}
	if top == nil && !bytes.HasPrefix(bytes.TrimSpace(raw), []byte("{")) {
		return nil, invalidRequest("", "the body must be a JSON object")
	}
	return top, nil
}

// targetsOf lists every work order a request names, at any depth: each
// WorkOrderId field (a step's, an invoice's, the request's own) and each of
// a WorkOrderIds list, in order, without repeats or zeros.
func targetsOf(req any) []int64 {
	var out []int64
	add := func(id int64) {
		if id != 0 && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer, reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Struct:
			t := v.Type()
			for i := range t.NumField() {
				f, fv := t.Field(i), v.Field(i)
				switch {
				case f.Name == "WorkOrderId" && fv.Kind() == reflect.Int64:
					add(fv.Int())
				case f.Name == "WorkOrderIds" && fv.Kind() == reflect.Slice:
					for j := range fv.Len() {
						add(fv.Index(j).Int())
					}
				case f.IsExported():
					walk(fv)
				}
			}
		case reflect.Slice:
			for j := range v.Len() {
				walk(v.Index(j))
			}
		}
	}
	walk(reflect.ValueOf(req))
	return out
}

// checkTargets refuses a request whose work orders are not all positive,
// that names none, or that names them two ways (a WorkOrderId beside a
// list, or a step of another work order): the hub locks, audits and tells
// what it names, and the service must act on nothing else.
func checkTargets(req any) error {
	var ids []int64
	lists, badList := 0, false
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer, reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Struct:
			t := v.Type()
			for i := range t.NumField() {
				f, fv := t.Field(i), v.Field(i)
				switch {
				case f.Name == "WorkOrderId" && fv.Kind() == reflect.Int64:
					ids = append(ids, fv.Int())
				case f.Name == "WorkOrderIds" && fv.Kind() == reflect.Slice:
					lists++
					for j := range fv.Len() {
						if id := fv.Index(j).Int(); id <= 0 {
							badList = true
						}
					}
				case f.IsExported():
					walk(fv)
				}
			}
		case reflect.Slice:
			for j := range v.Len() {
				walk(v.Index(j))
			}
		}
	}
	walk(reflect.ValueOf(req))
	named := slices.DeleteFunc(slices.Clone(ids), func(id int64) bool { return id == 0 })
	switch {
	case badList:
		return invalidRequest("WorkOrderIds", "each of WorkOrderIds must be a positive integer")
	case slices.ContainsFunc(named, func(id int64) bool { return id < 0 }):
		return invalidRequest("WorkOrderId", "each work order id must be a positive integer")
	case lists > 0 && len(named) > 0:
		return invalidRequest("WorkOrderId", "the request names work orders two ways (WorkOrderId and WorkOrderIds)")
	case lists > 0:
		if len(targetsOf(req)) == 0 {
			return invalidRequest("WorkOrderIds", "WorkOrderIds is required")
		}
		return nil
	case len(named) == 0:
		return invalidRequest("WorkOrderId", "WorkOrderId is required")
	}
	for _, id := range named[1:] {
		if id != named[0] {
			return invalidRequest("WorkOrderId", "the request names two work orders (%d and %d)", named[0], id)
		}
	}
	return nil
}

// SetMessageID fixes a request's MessageId when it has one.
func SetMessageID(req any, id string) { setMessageID(req, id) }

// MessageID is a request's MessageId ("" when it has none).
func MessageID(req any) string {
	if r, ok := req.(interface{ GetMessageId() string }); ok {
		return r.GetMessageId()
	}
	return ""
}

func setMessageID(req any, id string) {
	if r, ok := req.(interface{ SetMessageId(string) }); ok {
		r.SetMessageId(id)
	}
}

// SetPerformedBy names who acts on a request that says who acts,
// whatever it said: the office hub sets the person signed in. It reports
// false for a request that names nobody.
func SetPerformedBy(req any, name string) bool {
	r, ok := req.(interface{ SetPerformedBy(string) })
	if ok {
		r.SetPerformedBy(name)
	}
	return ok
}
