package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Setting keys the replica keeps for itself. Connection settings live in
// the app's preferences, since they pick which replica to open; secrets are
// never settings: the client secret lives in the keyring (see Secrets).
const (
	settingSyncHighWater = "sync.high_water" // service time, RFC 3339
	settingLastSync      = "sync.last_success"
)

// ErrSecretSetting refuses to write something that looks like a credential
// into the settings table, which is plain text on disk.
var ErrSecretSetting = errors.New("secrets are kept in the keyring, not in settings")

func secretLooking(key string) bool {
	k := strings.ToLower(key)
	return strings.Contains(k, "secret") || strings.Contains(k, "password") ||
		k == "token" || k == "access_token" || strings.HasSuffix(k, "_token")
}

// Setting returns a stored value; ok is false when it was never set.
func (s *Store) Setting(ctx context.Context, key string) (value string, ok bool, err error) {
	err = s.r.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = ?`, key).Scan(&value)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("storage: reading setting %s: %w", key, err)
	}
	return value, true, nil
}

// SetSetting stores a non-secret value.
func (s *Store) SetSetting(ctx context.Context, key, value string) error {
	if secretLooking(key) {
		return fmt.Errorf("setting %q: %w", key, ErrSecretSetting)
	}
	return s.setSetting(ctx, s.w, key, value)
}

func (s *Store) setSetting(ctx context.Context, db execer, key, value string) error {
	_, err := db.ExecContext(ctx, `INSERT INTO settings(key, value) VALUES (?,?)
ON CONFLICT(key) DO UPDATE SET value = excluded.value`, key, value)
	if err != nil {
		return fmt.Errorf("storage: writing setting %s: %w", key, err)
	}
	return nil
}

// LastSync is when the last sync completed successfully, in local clock
// time; zero if never (or unreadable: the status bar then says "never").
func (s *Store) LastSync(ctx context.Context) time.Time {
	v, ok, err := s.Setting(ctx, settingLastSync)
	if err != nil || !ok {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		s.log.Warn("unreadable last sync time", "value", v)
		return time.Time{}
	}
	return t
}
