package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// FileConfig is the JSON WriteConfig produces for `workdesk sandbox`: what an
// integrator points a client at.
type FileConfig struct {
	BaseURL      string `json:"base_url"`
	TokenURL     string `json:"token_url"`
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"client_secret"`
	CertPath     string `json:"cert_path"`
}

// WriteCert writes the PEM certificate of the signing key to path.
func (s *Sandbox) WriteCert(path string) error {
	if err := os.WriteFile(path, s.certPEM, 0o644); err != nil {
		return fmt.Errorf("sandbox: writing the certificate: %w", err)
	}
	return nil
}

// WriteConfig writes the connection data of a started sandbox as JSON to
// path (mode 0600: it holds the client secret) and the certificate next to
// it as sandbox-cert.pem, and returns what it wrote.
func (s *Sandbox) WriteConfig(path string) (FileConfig, error) {
	info := s.Info()
	if info.BaseURL == "" {
		return FileConfig{}, errors.New("sandbox: WriteConfig needs a started sandbox (no base URL yet)")
	}
	certPath, err := filepath.Abs(filepath.Join(filepath.Dir(path), "sandbox-cert.pem"))
	if err != nil {
		return FileConfig{}, fmt.Errorf("sandbox: %w", err)
	}
	if err := s.WriteCert(certPath); err != nil {
		return FileConfig{}, err
	}
	cfg := FileConfig{
		BaseURL: info.BaseURL, TokenURL: info.TokenURL,
		ClientID: info.ClientID, ClientSecret: info.ClientSecret, CertPath: certPath,
	}
	b, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return FileConfig{}, err
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o600); err != nil {
		return FileConfig{}, fmt.Errorf("sandbox: writing the configuration: %w", err)
	}
	return cfg, nil
}
