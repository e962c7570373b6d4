package api

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/url"
)

// netProblem is a failure to reach a server, or to read its whole answer,
// said in words a person can act on ("the connection to the service was cut
// before it answered", not `Post "https://…": EOF`). The cause stays in the
// chain, so IsTemporary and errors.Is/As see through it.
type netProblem struct {
	plain string
	err   error
}

func (e *netProblem) Error() string { return e.plain }
func (e *netProblem) Unwrap() error { return e.err }

// Plain is the plain-words reason of a failure to reach a server or read
// its answer ("the service did not answer in time"), or "" when err is not
// one (a refusal, a local mistake).
func Plain(err error) string {
	var p *netProblem
	if errors.As(err, &p) {
		return p.plain
	}
	return ""
}

// notSent marks a failure that happened before the request left this
// computer (no access token could be had).
type notSent struct{ err error }

func (e notSent) Error() string { return e.err.Error() }
func (e notSent) Unwrap() error { return e.err }

// NeverSent reports a failure to reach the service that could not have
// delivered the request: its address was not found, the connection was
// refused or could not be made, its certificate was refused, or no access
// token could be had. After any other failure (a timeout, a cut
// connection) the service may have taken the request and only its answer
// was lost.
func NeverSent(err error) bool {
	var dns *net.DNSError
	var op *net.OpError
	var cert *tls.CertificateVerificationError
	switch {
	case err == nil:
		return false
	case errors.As(err, new(notSent)), errors.As(err, &dns), connRefused(err), errors.As(err, &cert):
		return true
	case errors.As(err, &op):
		return op.Op == "dial"
	}
	return false
}

// plainNetError says what went wrong on the way to who ("the service", "the
// token server"). A cancelled call is returned as it is: nobody needs
// telling that they stopped it.
func plainNetError(who string, err error) error {
	if err == nil || errors.Is(err, context.Canceled) {
		return err
	}
	host := ""
	var ue *url.Error
	if errors.As(err, &ue) {
		if u, perr := url.Parse(ue.URL); perr == nil {
			host = u.Host
		}
	}
	var ne net.Error
	var dns *net.DNSError
	var cert *tls.CertificateVerificationError
	var plain string
	switch {
	case errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout():
		plain = who + " did not answer in time"
	case errors.As(err, &dns):
		plain = "the address " + dns.Name + " could not be found: check it, and that this computer is online"
	case connRefused(err):
		plain = "nothing answers at " + orAddress(host) + ": " + who + " is down, or the address or port is wrong"
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || connCut(err):
		plain = "the connection to " + who + " was cut before it answered"
	case errors.As(err, &cert):
		plain = who + "'s certificate is not trusted by this computer: " + cert.Err.Error()
	default:
		plain = who + " could not be reached: " + innermost(err).Error()
	}
	return &netProblem{plain: plain, err: err}
}

func orAddress(host string) string {
	if host == "" {
		return "that address"
	}
	return host
}

// innermost is the deepest error of a single-cause chain: the one that
// says what happened, without the URL and verbs stacked on top of it.
func innermost(err error) error {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err
		}
		err = next
	}
}

// plainReadError says why an answer that began to arrive could not be read
// to its end.
func plainReadError(err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return &netProblem{plain: "the answer was cut off before its end", err: err}
	}
	return plainNetError("the service", err)
}

// plainJSONError says that an answer read whole is not what the API
// describes; the decoder's words stay for whoever looks into it.
func plainJSONError(err error) error {
	return &netProblem{plain: "the answer is not the JSON the API describes (" + err.Error() + ")", err: err}
}
