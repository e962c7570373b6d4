package storage

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Reasons Open refuses a replica, distinguishable with errors.Is.
var (
	// ErrReplicaEmpty: the file exists but holds nothing, so it was cut
	// short (a full disk, a bad copy, a sync tool). SQLite would quietly
	// make a new empty replica of it, and actions queued in it would
	// vanish without a word; Open refuses and leaves the file alone.
	ErrReplicaEmpty = errors.New("the replica file is empty")
	// ErrReplicaReadOnly: the file or its folder cannot be written, which
	// SQLite reports only as "unable to open database file (14)" or
	// "attempt to write a readonly database".
	ErrReplicaReadOnly = errors.New("the replica is read-only")
)

// checkReplicaFile refuses, in plain words, a replica that SQLite would
// mistreat or explain badly. A missing file is fine: Open creates it.
func checkReplicaFile(path string) error {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return checkFolderWritable(filepath.Dir(path))
	}
	if err != nil {
		return fmt.Errorf("storage: reading %s: %w", path, err)
	}
	// A replica this app made holds at least its first page. In WAL mode a
	// new one may sit in PATH-wal until the first checkpoint, so an empty
	// main file beside a non-empty log is a crash SQLite recovers from.
	if fi.Size() == 0 {
		if wal, err := os.Stat(path + "-wal"); err != nil || wal.Size() == 0 {
			return fmt.Errorf("storage: %w: %s is 0 bytes, so the work orders and any actions queued in it are gone from it. "+
				"It was left as it is. Put back a copy from a backup if you have one; otherwise move the file aside or delete it "+
				"and start again: the work orders are downloaded afresh, but actions that were waiting to be sent must be entered again",
				ErrReplicaEmpty, path)
		}
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, fs.ErrPermission) {
		return fmt.Errorf("storage: %w: this app cannot write to %s. Make the file writable for your user (and not locked or immutable), or choose another data folder",
			ErrReplicaReadOnly, path)
	}
	if err != nil {
		return fmt.Errorf("storage: opening %s: %w", path, err)
	}
	f.Close()
	return checkFolderWritable(filepath.Dir(path))
}

// checkFolderWritable: SQLite keeps its write-ahead log and shared index
// beside the replica, so the folder must be writable too.
func checkFolderWritable(dir string) error {
	f, err := os.CreateTemp(dir, ".workdesk-probe-*")
	if errors.Is(err, fs.ErrPermission) {
		return fmt.Errorf("storage: %w: this app cannot write in the folder %s, where the replica keeps its journal. Make the folder writable for your user, or choose another data folder",
			ErrReplicaReadOnly, dir)
	}
	if err != nil {
		return fmt.Errorf("storage: writing in %s: %w", dir, err)
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}
