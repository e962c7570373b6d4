package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"
)

// The in-memory search index (search_index.go) must find exactly what the
// replica's FTS5 index finds, so it splits and folds text exactly as FTS5's
// unicode61 tokenizer does with remove_diacritics 2. That tokenizer takes
// each code point on its own: a letter or digit (or private-use character)
// starts or continues a token, a combining mark continues one but starts
// none, anything else ends it; each character of a token is folded (lower
// case, diacritics removed, or dropped). ASCII is known: A-Z, a-z and 0-9
// make tokens, A-Z fold to a-z. What SQLite does with any other code point
// is asked of SQLite itself, once per code point (learnRunes), so the index
// never disagrees with the Unicode tables compiled into it.

// ftsTokenizer is the replica's FTS5 tokenizer (migration 0005).
const ftsTokenizer = `unicode61 remove_diacritics 2`

// maxTokenBytes: FTS5 cuts longer tokens to this length; the index answers
// no search that meets one (it leaves the search to FTS5).
const maxTokenBytes = 32768

type runeKind uint8

const (
	runeUnknown   runeKind = iota // not learned yet
	runeSeparator                 // ends a token
	runeTokenChar                 // starts or continues a token
	runeMark                      // continues a token, starts none
	runeOdd                       // SQLite does something this model does not: no search is answered in memory
)

type runeClass struct {
	kind runeKind
	fold string // what the character becomes inside a token (may be "")
}

// errOddText means a text the in-memory index cannot tokenize exactly as
// FTS5 does (not UTF-8, a token past maxTokenBytes, a character outside
// the model); the search is then left to FTS5.
var errOddText = errors.New("text the in-memory search index cannot tokenize as FTS5 does")

// errUnlearned means a character not learned yet (learnRunes).
var errUnlearned = errors.New("a character the search tokenizer has not learned")

// tokenizer splits text as ftsTokenizer does. Safe for concurrent use.
type tokenizer struct {
	mu    sync.RWMutex
	runes map[rune]runeClass
	// probe tokenizes texts with ftsTokenizer in SQLite; see sqliteProbe.
	probe func(texts []string) ([][]string, error)
}

func newTokenizer() *tokenizer {
	return &tokenizer{runes: map[rune]runeClass{}, probe: sqliteProbe}
}

// asciiClass classifies the bytes below 0x80 as unicode61 does.
func asciiClass(b byte) runeKind {
	switch {
	case b >= 'a' && b <= 'z', b >= '0' && b <= '9', b >= 'A' && b <= 'Z':
		return runeTokenChar
	}
	return runeSeparator
}

// learnRunes asks SQLite about the code points of texts it has not seen.
func (t *tokenizer) learnRunes(texts ...string) error {
	var unknown []rune
	seen := map[rune]bool{}
	t.mu.RLock()
	for _, s := range texts {
		for i := 0; i < len(s); i++ {
			if s[i] < utf8.RuneSelf {
				continue
			}
			r, n := utf8.DecodeRuneInString(s[i:])
			i += n - 1
			if r == utf8.RuneError && n == 1 {
				continue // not UTF-8: tokenize refuses it
			}
			if _, ok := t.runes[r]; !ok && !seen[r] {
				seen[r] = true
				unknown = append(unknown, r)
			}
		}
	}
	t.mu.RUnlock()
	if len(unknown) == 0 {
		return nil
	}
	// "q<r>q" shows how r behaves inside a token, "<r>" whether it starts one.
	probes := make([]string, 0, 2*len(unknown))
	for _, r := range unknown {
		probes = append(probes, "q"+string(r)+"q", string(r))
	}
	got, err := t.probe(probes)
	if err != nil {
		return err
	}
	learned := make(map[rune]runeClass, len(unknown))
	for i, r := range unknown {
		inside, alone := got[2*i], got[2*i+1]
		c := runeClass{kind: runeOdd}
		switch {
		case len(inside) == 2 && inside[0] == "q" && inside[1] == "q" && len(alone) == 0:
			c = runeClass{kind: runeSeparator}
		case len(inside) == 1 && len(inside[0]) >= 2 && strings.HasPrefix(inside[0], "q") && strings.HasSuffix(inside[0], "q"):
			fold := inside[0][1 : len(inside[0])-1]
			switch {
			case len(alone) == 1 && alone[0] == fold && fold != "":
				c = runeClass{kind: runeTokenChar, fold: fold}
			case len(alone) == 0:
				c = runeClass{kind: runeMark, fold: fold}
			}
		}
		learned[r] = c
	}
	t.mu.Lock()
	for r, c := range learned {
		t.runes[r] = c
	}
	t.mu.Unlock()
	return nil
}

// tokens calls emit with each token of s, in order, as FTS5 would index
// it; the slice is reused between calls. s's code points must have been
// learned (learnRunes), or errUnlearned is returned; errOddText means text
// FTS5 would handle otherwise than modelled here.
func (t *tokenizer) tokens(s string, buf []byte, emit func(tok []byte)) ([]byte, error) {
	tok := buf[:0]
	in := false
	flush := func() error {
		if in {
			if len(tok) > maxTokenBytes {
				return errOddText
			}
			emit(tok)
			tok, in = tok[:0], false
		}
		return nil
	}
	locked := false
	defer func() {
		if locked {
			t.mu.RUnlock()
		}
	}()
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			i++
			if asciiClass(b) == runeSeparator {
				if err := flush(); err != nil {
					return tok, err
				}
				continue
			}
			if b >= 'A' && b <= 'Z' {
				b += 'a' - 'A'
			}
			tok, in = append(tok, b), true
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			return tok, errOddText
		}
		i += n
		if !locked {
			t.mu.RLock()
			locked = true
		}
		c := t.runes[r]
		switch {
		case c.kind == runeUnknown:
			return tok, errUnlearned
		case c.kind == runeTokenChar, c.kind == runeMark && in:
			tok, in = append(tok, c.fold...), true
		case c.kind == runeSeparator, c.kind == runeMark:
			if err := flush(); err != nil {
				return tok, err
			}
		default:
			return tok, errOddText
		}
	}
	return tok, flush()
}

// sqliteProbe tokenizes texts with ftsTokenizer in a private in-memory
// database: the same SQLite, so the same Unicode tables, as the replica.
func sqliteProbe(texts []string) ([][]string, error) {
	ctx := context.Background() // a private in-memory database: nothing to wait for
	db, err := sql.Open("sqlite", "file::memory:")
	if err != nil {
		return nil, fmt.Errorf("storage: learning the search tokenizer: %w", err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	for _, q := range []string{
		`CREATE VIRTUAL TABLE t USING fts5(x, tokenize='` + ftsTokenizer + `')`,
		`CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')`,
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			return nil, fmt.Errorf("storage: learning the search tokenizer: %w", err)
		}
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("storage: learning the search tokenizer: %w", err)
	}
	defer tx.Rollback()
	for i, s := range texts {
		if _, err := tx.ExecContext(ctx, `INSERT INTO t(rowid, x) VALUES (?, ?)`, i+1, s); err != nil {
			return nil, fmt.Errorf("storage: learning the search tokenizer: %w", err)
		}
	}
	rows, err := tx.QueryContext(ctx, `SELECT doc, term FROM v ORDER BY doc, offset`)
	if err != nil {
		return nil, fmt.Errorf("storage: learning the search tokenizer: %w", err)
	}
	defer rows.Close()
	out := make([][]string, len(texts))
	for rows.Next() {
		var doc int
		var term string
		if err := rows.Scan(&doc, &term); err != nil {
			return nil, fmt.Errorf("storage: learning the search tokenizer: %w", err)
		}
		out[doc-1] = append(out[doc-1], term)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("storage: learning the search tokenizer: %w", err)
	}
	return out, nil
}
