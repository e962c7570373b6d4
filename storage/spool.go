package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/workorderdesk/workdesk/api"
)

// spoolSuffix names a replica's upload spool after its database file, as
// SQLite names the -wal and -shm files.
const spoolSuffix = "-spool"

// RemoveReplica deletes the replica at path with its WAL and upload spool
// (the demo starts from a fresh one). A missing replica is not an error.
func RemoveReplica(path string) error {
	var errs []error
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if err := os.Remove(path + suffix); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	errs = append(errs, os.RemoveAll(path+spoolSuffix))
	return errors.Join(errs...)
}

// spoolFile copies the file to upload into the replica's spool folder, named after the outbox row's MessageId, so that moving, editing
// or deleting the original after the person pressed "Attach" changes nothing
// about what is sent. Files over the service's 20 MB limit are refused here,
// before anything is queued.
func (s *Store) spoolFile(src, messageID string) (dst, name string, size int64, err error) {
	fi, err := os.Stat(src)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "", "", 0, invalid("the file %s does not exist", src)
		}
		return "", "", 0, fmt.Errorf("reading %s: %w", src, err)
	}
	if !fi.Mode().IsRegular() {
		return "", "", 0, invalid("%s is not a file", src)
	}
	name = filepath.Base(src)
	if fi.Size() > api.MaxAttachmentSize {
		return "", "", 0, invalid("%s is %s; the service accepts files up to 20 MB", name, api.HumanSize(fi.Size()))
	}
	if fi.Size() == 0 {
		return "", "", 0, invalid("%s is empty", name)
	}
	in, err := os.Open(src)
	if err != nil {
		return "", "", 0, fmt.Errorf("opening %s: %w", src, err)
	}
	defer in.Close()
	dst = filepath.Join(s.spool, messageID+"-"+safeName(name))
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", "", 0, fmt.Errorf("storage: spooling %s: %w", name, err)
	}
	// The file may have grown since Stat: copy one byte past the limit to notice.
	n, err := io.Copy(out, io.LimitReader(in, api.MaxAttachmentSize+1))
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = syncFile(dst)
	}
	if err != nil {
		os.Remove(dst)
		return "", "", 0, fmt.Errorf("storage: spooling %s: %w", name, err)
	}
	if n > api.MaxAttachmentSize {
		os.Remove(dst)
		return "", "", 0, invalid("%s is larger than 20 MB; the service accepts files up to 20 MB", name)
	}
	return dst, name, n, nil
}

// syncFile flushes the spooled copy to disk before its outbox row commits,
// so a crash cannot leave a committed row pointing at a truncated file.
func syncFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

func safeName(name string) string {
	name = strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == ':' || r < ' ' {
			return '_'
		}
		return r
	}, name)
	if len(name) > 100 {
		name = name[len(name)-100:]
	}
	return name
}

// sweepSpool removes spooled files no unfinished outbox row refers to: left
// by a crash between the copy and the row's commit, or by rows already done.
func (s *Store) sweepSpool(ctx context.Context) {
	entries, err := os.ReadDir(s.spool)
	if err != nil {
		return
	}
	keep := map[string]bool{}
	rows, err := s.w.QueryContext(ctx, `SELECT spool_file FROM outbox WHERE spool_file != '' AND state IN ('pending','sending','failed')`)
	if err != nil {
		s.log.Warn("could not check the upload spool", "err", err)
		return
	}
	for rows.Next() {
		var p string
		if rows.Scan(&p) == nil {
			keep[filepath.Base(p)] = true
		}
	}
	rows.Close()
	s.adoptLegacySpool(keep)
	for _, e := range entries {
		if !keep[e.Name()] {
			os.Remove(filepath.Join(s.spool, e.Name()))
		}
	}
}

// adoptLegacySpool moves this replica's queued uploads out of the shared
// "spool" folder earlier versions used, so an upgrade loses none of them.
// Files of other replicas stay where they are.
func (s *Store) adoptLegacySpool(keep map[string]bool) {
	legacy := filepath.Join(filepath.Dir(s.path), "spool")
	for name := range keep {
		from := filepath.Join(legacy, name)
		if _, err := os.Stat(from); err == nil {
			if err := os.Rename(from, filepath.Join(s.spool, name)); err != nil {
				s.log.Warn("could not move a queued upload into the spool", "file", name, "err", err)
			}
		}
	}
	os.Remove(legacy) // only when empty
}
