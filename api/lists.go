package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
)

// A list answer is {"<Key>": [...], "MessageId": "..."}; the key is our
// guess for most lists (service-facts §14). An ASP.NET service often omits
// an empty list, or sends it as null, so those are empty lists. But items
// under a key we do not know are not "no items": read as empty, a message
// thread would look empty and the lost-answer check would post the
// message again. That is an error that names the keys.

// ListError is a list answer whose items were under a key we do not know.
type ListError struct {
	Op   string   // "GET /api/messages"
	Want string   // the key we read
	Keys []string // the keys the answer had
}

func (e *ListError) Error() string {
	return fmt.Sprintf("the service's answer to %s had no list we know (we read %s): keys %s",
		e.Op, e.Want, strings.Join(e.Keys, ", "))
}

// decodeList reads the list under key from a list answer. null, an empty
// answer, no key at all, or the key holding null or [] are an empty list;
// a bare JSON array is taken as the list itself.
func decodeList[T any](raw []byte, op, key string) ([]T, error) {
	items, err := listItems(raw, op, key)
	if err != nil || items == nil {
		return nil, err
	}
	var out []T
	if err := json.Unmarshal(items, &out); err != nil {
		return nil, fmt.Errorf("%s: %w", op, plainJSONError(err))
	}
	return out, nil
}

// listItems finds the raw array of a list answer (nil for an empty list).
func listItems(raw []byte, op, key string) (json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil, nil
	}
	if raw[0] == '[' {
		return raw, nil
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return nil, fmt.Errorf("%s: %w", op, plainJSONError(err))
	}
	return fieldList(fields, op, key)
}

// fieldList is listItems for an object already split into its fields.
func fieldList(fields map[string]json.RawMessage, op, key string) (json.RawMessage, error) {
	var other []string
	for k, v := range fields {
		v = bytes.TrimSpace(v)
		if strings.EqualFold(k, key) {
			switch {
			case len(v) == 0 || bytes.Equal(v, []byte("null")):
				return nil, nil
			case v[0] == '[':
				return v, nil
			}
			return nil, fmt.Errorf("%s: %s is not a list", op, k)
		}
		if len(v) > 0 && v[0] == '[' {
			other = append(other, k)
		}
	}
	if len(other) == 0 {
		return nil, nil
	}
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return nil, &ListError{Op: op, Want: key, Keys: keys}
}

// getList reads a list answer of GET path.
func getList[T any](ctx context.Context, c *Client, path string, q url.Values, key string) ([]T, error) {
	var raw json.RawMessage
	if err := c.getJSON(ctx, path, q, &raw); err != nil {
		return nil, err
	}
	return decodeList[T](raw, "GET /"+path, key)
}
