package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Save writes each answer of the report to dir, anonymised (Redact), and
// the report itself as report.txt, so an office can send them with a
// support request. It returns the files written.
func (r *ContractReport) Save(dir string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("saving the answers: %w", err)
	}
	rd := newRedactor()
	var files []string
	write := func(name string, b []byte) error {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b, 0o600); err != nil {
			return fmt.Errorf("saving the answers: %w", err)
		}
		files = append(files, path)
		return nil
	}
	for _, c := range r.Calls {
		if len(c.raw) == 0 {
			continue
		}
		b, err := rd.redactJSON(c.raw)
		if err != nil {
			b = []byte(`"the answer was not JSON, so it is not kept"`)
		}
		if err := write(c.name, b); err != nil {
			return files, err
		}
	}
	saved := *r
	saved.Calls = make([]ContractCall, len(r.Calls))
	for i, c := range r.Calls {
		c.Call = redactCall(c.Call)
		c.Err = rd.redactText(c.Err)
		if c.name != "" && len(c.raw) > 0 {
			c.Call += "   (answer in " + c.name + ")"
		}
		saved.Calls[i] = c
	}
	return files, write("report.txt", []byte(saved.Text()))
}

// Redact replaces every id, name, address, text, link and token of an
// answer, keeping its shape: the keys, the types, dates, amounts, yes/noes
// and the values of the service's enumerations. The same id becomes the
// same stand-in throughout, so what refers to what stays visible.
func Redact(raw []byte) ([]byte, error) { return newRedactor().redactJSON(raw) }

type redactor struct {
	ids   map[string]string
	texts int
}

func newRedactor() *redactor { return &redactor{ids: map[string]string{}} }

// enumKeys hold values of the service's enumerations (and other words that
// say nothing about a customer), kept as they are.
var enumKeys = map[string]bool{
	"status": true, "quotestatus": true, "type": true, "datatype": true, "currency": true,
	"messagevisibility": true, "pte": true, "steptype": true, "documenttype": true, "mimetype": true,
	"action": true, "apiversion": true, "updatetype": true, "subtype": true, "priorityname": true,
	"unit": true, "country": true,
}

func isIDKey(key string) bool {
	k := strings.ToLower(key)
	return k == "id" || strings.HasSuffix(k, "id") || strings.HasSuffix(k, "ids") || k == "ivrinfo" || k == "pin"
}

func (rd *redactor) redactJSON(raw []byte) ([]byte, error) {
	v, err := decodeAny(raw)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	err = enc.Encode(rd.value(v, ""))
	return b.Bytes(), err
}

func (rd *redactor) value(v any, key string) any {
	switch x := v.(type) {
	case map[string]any:
		// In key order, so the same answer gets the same stand-ins.
		out := make(map[string]any, len(x))
		for _, k := range slices.Sorted(maps.Keys(x)) {
			out[k] = rd.value(x[k], k)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = rd.value(e, key)
		}
		return out
	case json.Number:
		if isIDKey(key) {
			n, _ := strconv.ParseInt(rd.id(x.String(), true), 10, 64)
			return n
		}
		return x
	case string:
		return rd.text(x, key)
	}
	return v
}

func (rd *redactor) id(v string, number bool) string {
	if s, ok := rd.ids[v]; ok {
		return s
	}
	s := strconv.Itoa(1000 + len(rd.ids))
	if !number {
		s = "id-" + s
	}
	rd.ids[v] = s
	return s
}

func (rd *redactor) text(s, key string) string {
	switch {
	case s == "":
		return s
	case isIDKey(key):
		return rd.id(s, false)
	case isLink(s):
		return "https://link.example/redacted"
	case enumKeys[strings.ToLower(key)] && len(s) <= 40 && !strings.ContainsAny(s, " @"):
		return s
	}
	if _, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return s
	}
	if _, err := time.Parse("2006-01-02T15:04:05.9999999", s); err == nil {
		return s
	}
	rd.texts++
	return fmt.Sprintf("text %d (%d characters)", rd.texts, len([]rune(s)))
}

// redactText hides what an error message quotes of the answer (numbers
// and addresses), keeping its words.
func (rd *redactor) redactText(s string) string {
	fields := strings.Fields(s)
	for i, f := range fields {
		switch {
		case isLink(strings.Trim(f, `"',;()`)):
			fields[i] = "https://link.example/redacted"
		case strings.IndexFunc(f, func(r rune) bool { return r >= '0' && r <= '9' }) >= 0 && len(f) > 3:
			fields[i] = "…"
		}
	}
	return strings.Join(fields, " ")
}

// redactCall keeps a call's path and query keys, not its values.
func redactCall(call string) string {
	path, query, ok := strings.Cut(call, "?")
	if !ok {
		return call
	}
	q, err := url.ParseQuery(query)
	if err != nil {
		return path
	}
	var keys []string
	for k := range q {
		keys = append(keys, k+"=…")
	}
	slices.Sort(keys)
	return path + "?" + strings.Join(keys, "&")
}
