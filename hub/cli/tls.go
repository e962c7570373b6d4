package cli

import (
	"crypto/tls"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"
)

// certFiles serves the certificate and key in two PEM files, read again
// when either changes (its time or size): a renewed certificate (certbot,
// the office's CA) is served from the next connection, without a restart.
// A pair that does not load (the certificate written, its key not yet) is
// not used: the last good one is served until the pair loads.
type certFiles struct {
	cert, key string
	log       *slog.Logger

	mu     sync.Mutex
	stamp  [2]fileStamp
	pair   *tls.Certificate
	warned [2]fileStamp // the stamps of a pair that failed to load, logged once
}

type fileStamp struct {
	mod  time.Time
	size int64
}

func stampOf(path string) (fileStamp, error) {
	st, err := os.Stat(path)
	if err != nil {
		return fileStamp{}, err
	}
	return fileStamp{st.ModTime(), st.Size()}, nil
}

// loadCertFiles reads the pair once, so that a wrong path or a key that
// does not match fails at start.
func loadCertFiles(cert, key string, log *slog.Logger) (*certFiles, error) {
	c := &certFiles{cert: cert, key: key, log: log}
	if _, err := c.current(); err != nil {
		return nil, err
	}
	return c, nil
}

// current is the pair as the files hold it now, or the last good one.
func (c *certFiles) current() (*tls.Certificate, error) {
	cs, err1 := stampOf(c.cert)
	ks, err2 := stampOf(c.key)
	c.mu.Lock()
	defer c.mu.Unlock()
	now := [2]fileStamp{cs, ks}
	if c.pair != nil && (err1 != nil || err2 != nil || now == c.stamp) {
		return c.pair, nil
	}
	pair, err := tls.LoadX509KeyPair(c.cert, c.key)
	if err != nil {
		err = fmt.Errorf("the TLS certificate %s and key %s: %w", c.cert, c.key, err)
		if c.pair == nil {
			return nil, err
		}
		if c.warned != now {
			c.warned = now
			c.log.Warn("the TLS certificate files changed but do not load; serving the previous certificate until they do", "err", err)
		}
		return c.pair, nil
	}
	if c.pair != nil {
		c.log.Info("serving the renewed TLS certificate", "file", c.cert, "notAfter", pair.Leaf.NotAfter)
	}
	c.pair, c.stamp = &pair, now
	return c.pair, nil
}

func (c *certFiles) getCertificate(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	return c.current()
}

// tlsConfig serves the pair from files; HTTP/1.1 only (see serve).
func (c *certFiles) tlsConfig() *tls.Config {
	return &tls.Config{MinVersion: tls.VersionTLS12, GetCertificate: c.getCertificate, NextProtos: []string{"http/1.1"}}
}
