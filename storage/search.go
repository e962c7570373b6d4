package storage

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"unicode"
)

// FTSQuery turns what a person typed into an FTS5 MATCH expression that can
// never be a syntax error: each whitespace-separated term becomes a quoted
// phrase (inner quotes doubled) with a prefix star, so "WO-4" finds WO-42,
// "O'Brien" and "a:b" are just text, and the terms must all match. Terms with
// no letter or digit carry nothing the index holds and are dropped; "" means
// "no search".
func FTSQuery(input string) string {
	var b strings.Builder
	for _, term := range ftsPhrases(input) {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteByte('"')
		b.WriteString(strings.ReplaceAll(term, `"`, `""`))
		b.WriteString(`"*`)
	}
	return b.String()
}

// ftsPhrases are the terms FTSQuery quotes, unquoted.
func ftsPhrases(input string) []string {
	// SQLite ends an FTS5 string at a NUL, leaving the quote unterminated
	// (found by FuzzFTSQuery): a NUL separates terms like a space.
	input = strings.ReplaceAll(input, "\x00", " ")
	var out []string
	for _, term := range strings.Fields(input) {
		if strings.ContainsFunc(term, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
			out = append(out, term)
		}
	}
	return out
}

// splitSearch separates the terms with a digit in them, which may be a
// piece of a work order number ("3264" of "SMJ73264", found by neither a
// word nor a prefix), from the words, returned as one FTSQuery match. A work
// order is found when it matches the words and each number term matches
// its text or lies inside its number: "sakura 3264" finds SMJ73264.
func splitSearch(input string) (words string, numbers []string) {
	rest, numbers := splitTerms(input)
	return FTSQuery(strings.Join(rest, " ")), numbers
}

// splitTerms is splitSearch's split: the words, and the terms with a digit.
func splitTerms(input string) (words, numbers []string) {
	for _, term := range strings.Fields(input) {
		if strings.ContainsFunc(term, unicode.IsDigit) {
			numbers = append(numbers, term)
		} else {
			words = append(words, term)
		}
	}
	return words, numbers
}

// deferFTS switches the search index's triggers and the sort indexes off
// for a bulk write; the caller must call resumeFTS afterwards, whatever
// happens (Open does it for a process that died in between). Meanwhile
// List sorts without its indexes, which on a replica still being filled
// costs little.
//
// fresh is false when an earlier bulk write was left unfinished (a crash,
// or a failed rebuild): the index may then lack rows, and must be rebuilt.
func (s *Store) deferFTS(ctx context.Context) (fresh bool, err error) {
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO fts_deferred(since) SELECT ? WHERE NOT EXISTS (SELECT 1 FROM fts_deferred)`,
			s.now().UnixMilli())
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return err // already deferred: what is dropped is saved already
		}
		fresh = true
		// sql IS NULL marks the primary key's automatic index, never dropped.
		if _, err := tx.ExecContext(ctx, `INSERT INTO bulk_deferred_schema(name, type, sql)
			SELECT name, type, sql FROM sqlite_master
			WHERE tbl_name = 'work_orders' AND type IN ('index', 'trigger') AND sql IS NOT NULL`); err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, `SELECT name, type FROM bulk_deferred_schema`)
		if err != nil {
			return err
		}
		var drops []string
		for rows.Next() {
			var name, typ string
			if err := rows.Scan(&name, &typ); err != nil {
				rows.Close()
				return err
			}
			drops = append(drops, "DROP "+strings.ToUpper(typ)+" "+quoteIdent(name))
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, d := range drops {
			if _, err := tx.ExecContext(ctx, d); err != nil {
				return err
			}
		}
		return setAutomerge(ctx, tx, bulkAutomerge)
	})
	if err == nil {
		err = setWriterCache(ctx, s.w, bulkCacheKiB)
	}
	return fresh, err
}

// setWriterCache sets the page cache of the writer's one connection.
func setWriterCache(ctx context.Context, w *sql.DB, kib int) error {
	if _, err := w.ExecContext(ctx, fmt.Sprintf("PRAGMA cache_size = %d", kib)); err != nil {
		return fmt.Errorf("storage: sizing the page cache: %w", err)
	}
	return nil
}

// FTS5 merges the index's segments once automerge of them share a level.
// The bulk writer adds a segment per commit (Syncer.tune.commitRows rows), and at 4 it
// rewrote the first 10,000 rows' index twice over while they downloaded: a
// quarter of the writer's work. At 16 (FTS5's most) a first sync of 10,000
// merges nothing, and search over the segments it leaves is as fast (the
// index of 100,000 synced by the default held 9 segments, by this one 10).
const (
	bulkAutomerge    = 16
	defaultAutomerge = 4
)

func setAutomerge(ctx context.Context, tx *sql.Tx, n int) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO work_orders_fts(work_orders_fts, rank) VALUES ('automerge', ?)`, n)
	return err
}

func quoteIdent(name string) string { return `"` + strings.ReplaceAll(name, `"`, `""`) + `"` }

// resumeFTS recreates what deferFTS dropped and switches the search index's
// triggers back on, in one transaction, if they were off. rebuild rebuilds
// the search index from work_orders too: the bulk writer did not index every
// row it wrote (see Syncer.sync), or nobody knows whether it did.
func (s *Store) resumeFTS(ctx context.Context, rebuild bool) error {
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM fts_deferred`).Scan(&n); err != nil || n == 0 {
			return err
		}
		start := s.now()
		rows, err := tx.QueryContext(ctx, `SELECT sql FROM bulk_deferred_schema ORDER BY type, name`)
		if err != nil {
			return err
		}
		var creates []string
		for rows.Next() {
			var q string
			if err := rows.Scan(&q); err != nil {
				rows.Close()
				return err
			}
			creates = append(creates, q)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, q := range creates {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return err
			}
		}
		if rebuild {
			if _, err := tx.ExecContext(ctx, `INSERT INTO work_orders_fts(work_orders_fts) VALUES ('rebuild')`); err != nil {
				return err
			}
		}
		if err := setAutomerge(ctx, tx, defaultAutomerge); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM bulk_deferred_schema`); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM fts_deferred`); err != nil {
			return err
		}
		s.log.Info("sort indexes rebuilt after a bulk write", "search index rebuilt", rebuild, "took", s.now().Sub(start))
		return nil
	})
	if err != nil {
		return fmt.Errorf("storage: rebuilding the search index: %w", err)
	}
	return setWriterCache(ctx, s.w, writerCacheKiB)
}
