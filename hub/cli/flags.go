package cli

import (
	"flag"
	"fmt"
	"net/netip"
	"os"
	"strings"
)

// envName is the environment variable a flag falls back to:
// --tls-cert is WORKDESK_TLS_CERT. An environment file (systemd's
// EnvironmentFile=) then configures the hub without a long command line.
func envName(flagName string) string {
	return "WORKDESK_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// parse parses args, then sets each flag not given from its environment
// variable; it returns the flags given on the command line, which win over
// everything else (see dbSource).
func parse(fs *flag.FlagSet, args []string) (given map[string]bool, err error) {
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	given = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	var bad error
	fs.VisitAll(func(f *flag.Flag) {
		if given[f.Name] || bad != nil {
			return
		}
		if v := os.Getenv(envName(f.Name)); v != "" {
			if err := fs.Set(f.Name, v); err != nil {
				bad = fmt.Errorf("%s: %w", envName(f.Name), err)
			}
		}
	})
	if bad != nil {
		fmt.Fprintln(fs.Output(), bad)
		return nil, bad
	}
	return given, nil
}

// prefixList is a repeatable CIDR flag; a bare address is its own /32 or
// /128, and one value may list several, comma-separated.
type prefixList []netip.Prefix

func (l *prefixList) String() string {
	var s []string
	for _, p := range *l {
		s = append(s, p.String())
	}
	return strings.Join(s, ",")
}

func (l *prefixList) Set(v string) error {
	for _, part := range strings.Split(v, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		p, err := netip.ParsePrefix(part)
		if err != nil {
			a, aerr := netip.ParseAddr(part)
			if aerr != nil {
				return fmt.Errorf("%q is not an address or a CIDR range like 10.0.0.0/8", part)
			}
			p = netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen())
		}
		*l = append(*l, p.Masked())
	}
	return nil
}
