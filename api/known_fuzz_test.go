package api

import (
	"errors"
	"testing"
)

// FuzzListAnswer: whatever a list answer holds, decoding it never panics,
// and it is either a list or an error: items under a key we do not know
// are never an empty list without one. Seeds: TestListAnswers' answers.
func FuzzListAnswer(f *testing.F) {
	for _, s := range []string{`{"Messages": [{"Id": 1, "Text": "hi"}], "MessageId": "m"}`, `{"messages": []}`,
		`{"Messages": null}`, `{"MessageId": "m"}`, ``, `[{"Id": 1}]`, `{"TextMessages": [{"Id": 1}]}`, `{"Items": []}`,
		`{"Messages": {"Id": 1}}`, `null`, `"x"`, `{"Messages": [1, "a"]}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		msgs, err := decodeList[Message]([]byte(body), "GET /api/messages", "Messages")
		var le *ListError
		if errors.As(err, &le) && (len(le.Keys) == 0 || msgs != nil) {
			t.Fatalf("a list error naming no keys, or with items: %v, %d", err, len(msgs))
		}
	})
}

// FuzzReadLink: a download-link answer of any shape gives a link that is
// an http(s) address, or an error; never a link made up from something
// else. Seeds: TestDownloadLinkShapes' answers.
func FuzzReadLink(f *testing.F) {
	for _, s := range []string{`{"Url": "https://files.example/a?sig=1", "ExpiresAt": "2030-01-01T00:00:00Z"}`,
		`{"DownloadUrl": "https://files.example/a?sig=1", "MessageId": "m"}`, `"https://files.example/a?sig=1"`,
		`{"A": "https://x.example/1", "B": "https://x.example/2"}`, `{"Link": {"Href": "x"}}`, `{"Url": "file:///etc/passwd"}`, `[]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		link, err := readLink([]byte(body), "GET /api/attachments/downloadUrl")
		if err == nil && !isLink(link.URL) {
			t.Fatalf("a link that is not an http(s) address: %q", link.URL)
		}
	})
}
