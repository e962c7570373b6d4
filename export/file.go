package export

import (
	"context"
	"errors"
	"io"
	"os"
)

// Write writes t to w in format f.
func Write(ctx context.Context, w io.Writer, f Format, t Table, opts Options) error {
	if f == XLSX {
		return WriteXLSX(ctx, w, t, opts)
	}
	return WriteCSV(ctx, w, t, opts)
}

// WriteFile writes t to the file at path in format f. A file that could
// not be finished (an error, or ctx cancelled) is removed: a half-written
// list must never pass for the whole one.
func WriteFile(ctx context.Context, path string, f Format, t Table, opts Options) (err error) {
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	return Finish(out, Write(ctx, out, f, t, opts), func() error { return os.Remove(path) })
}

// Finish closes out after a write that ended with err and, when either
// failed, removes what was written with remove. It returns the first error.
func Finish(out io.Closer, err error, remove func() error) error {
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		if rerr := remove(); rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
			return errors.Join(err, rerr)
		}
	}
	return err
}
