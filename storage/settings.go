package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Setting keys of the connection and app behaviour. Secrets are never
// settings: the client secret lives in the keyring (see Secrets).
const (
	SettingBaseURL      = "base_url"
	SettingTokenURL     = "token_url"
	SettingClientID     = "client_id"
	SettingCertPath     = "cert_path"
	SettingReceiverPort = "receiver_port"
	SettingCheckSource  = "check_source"
	SettingSyncInterval = "sync_interval"

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

// DeleteSetting forgets a value.
func (s *Store) DeleteSetting(ctx context.Context, key string) error {
	if _, err := s.w.ExecContext(ctx, `DELETE FROM settings WHERE key = ?`, key); err != nil {
		return fmt.Errorf("storage: deleting setting %s: %w", key, err)
	}
	return nil
}

// Settings is the typed view of the connection and behaviour settings.
type Settings struct {
	BaseURL      string
	TokenURL     string
	ClientID     string
	CertPath     string
	ReceiverPort int           // 0 = pick a free loopback port
	CheckSource  bool          // accept notifications only from the service's address range
	SyncInterval time.Duration // 0 = the app's default
}

// LoadSettings reads the typed settings; unset ones are zero.
func (s *Store) LoadSettings(ctx context.Context) (Settings, error) {
	var out Settings
	get := func(key string) (string, error) {
		v, _, err := s.Setting(ctx, key)
		return v, err
	}
	var err error
	if out.BaseURL, err = get(SettingBaseURL); err != nil {
		return out, err
	}
	if out.TokenURL, err = get(SettingTokenURL); err != nil {
		return out, err
	}
	if out.ClientID, err = get(SettingClientID); err != nil {
		return out, err
	}
	if out.CertPath, err = get(SettingCertPath); err != nil {
		return out, err
	}
	v, err := get(SettingReceiverPort)
	if err != nil {
		return out, err
	}
	out.ReceiverPort, _ = strconv.Atoi(v)
	if v, err = get(SettingCheckSource); err != nil {
		return out, err
	}
	out.CheckSource, _ = strconv.ParseBool(v)
	if v, err = get(SettingSyncInterval); err != nil {
		return out, err
	}
	out.SyncInterval, _ = time.ParseDuration(v)
	return out, nil
}

// SaveSettings writes every typed setting in one transaction.
func (s *Store) SaveSettings(ctx context.Context, in Settings) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		for _, kv := range [][2]string{
			{SettingBaseURL, in.BaseURL},
			{SettingTokenURL, in.TokenURL},
			{SettingClientID, in.ClientID},
			{SettingCertPath, in.CertPath},
			{SettingReceiverPort, strconv.Itoa(in.ReceiverPort)},
			{SettingCheckSource, strconv.FormatBool(in.CheckSource)},
			{SettingSyncInterval, in.SyncInterval.String()},
		} {
			if err := s.setSetting(ctx, tx, kv[0], kv[1]); err != nil {
				return err
			}
		}
		return nil
	})
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
