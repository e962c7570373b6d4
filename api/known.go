package api

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// Several answers the app reads have no published schema (service-facts
// §13–15): their property names are our guesses. A guess that is wrong
// must fail open: a yes/no we did not find is "not sent", never "no", and
// "not sent" never locks or hides anything; the service judges.

// Flag is a yes/no read from an answer without a published schema: known
// true, known false, or not sent. Its zero value is "not sent". It encodes
// as true, false or null, so a stored copy keeps the difference.
type Flag struct {
	known, on bool
}

// FlagOf is a known yes/no.
func FlagOf(on bool) Flag { return Flag{known: true, on: on} }

var (
	Yes = FlagOf(true)
	No  = FlagOf(false)
)

// Known reports whether the service sent the value.
func (f Flag) Known() bool { return f.known }

// True reports a value the service sent as true.
func (f Flag) True() bool { return f.known && f.on }

// False reports a value the service sent as false: the only case in which
// what it forbids may be locked.
func (f Flag) False() bool { return f.known && !f.on }

func (f Flag) String() string {
	switch {
	case !f.known:
		return "not sent"
	case f.on:
		return "yes"
	}
	return "no"
}

func (f Flag) MarshalJSON() ([]byte, error) {
	if !f.known {
		return []byte("null"), nil
	}
	return strconv.AppendBool(nil, f.on), nil
}

// UnmarshalJSON takes true and false (and their quoted forms); null, or a
// value of another type, is "not sent": the contract check names the
// type, and the app goes on as if the service had said nothing.
func (f *Flag) UnmarshalJSON(b []byte) error {
	*f = Flag{}
	switch strings.ToLower(string(bytes.TrimSpace(b))) {
	case "true", `"true"`:
		*f = Yes
	case "false", `"false"`:
		*f = No
	}
	return nil
}

// FieldID is the id of a customer's question (AdditionalFieldDescriptor.Id,
// typed String in the public data models; our first guess read a number).
// It takes either from the wire and sends a string: the service's JSON
// reader (Json.NET) turns a numeric string into a number where it wants
// one, while a string id cannot be sent as a number at all.
type FieldID string

func (id FieldID) MarshalJSON() ([]byte, error) { return json.Marshal(string(id)) }

func (id *FieldID) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case bytes.Equal(b, []byte("null")):
		*id = ""
		return nil
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*id = FieldID(s)
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err != nil {
		return err
	}
	*id = FieldID(n.String())
	return nil
}
