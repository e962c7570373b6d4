package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/workorderdesk/workdesk/hub"
)

// dateTime is how `user list` shows when an account was made: in local
// time, as the desktop shows dates.
const dateTime = "Mon 2 Jan 2006 15:04"

func userCommand(ctx context.Context, verb string, args []string, env Env) int {
	fs := flag.NewFlagSet(env.Prog+" user "+verb, flag.ContinueOnError)
	fs.SetOutput(env.Err)
	db := addDBFlags(fs)
	name := fs.String("name", "", "the person's `name`, as colleagues will see it")
	given, err := parse(fs, args)
	if err != nil {
		return 2
	}
	say := func(a ...any) { fmt.Fprintln(env.Err, append([]any{env.Prog + " user " + verb + ":"}, a...)...) }
	who := *name
	if who == "" {
		who = strings.Join(fs.Args(), " ")
	}
	switch verb {
	case "add":
		if strings.TrimSpace(*name) == "" {
			say(`say whose account it is: --name "Ana Ruiz"`)
			return 2
		}
	case "list":
	case "disable", "enable", "reset":
		if who == "" {
			say("say whom: a name, client id or number (" + env.Prog + " user list shows them)")
			return 2
		}
	default:
		fmt.Fprint(env.Err, Usage(env.Prog))
		return 2
	}
	url, err := db.resolve(given)
	if err != nil {
		say(err)
		return 2
	}
	d, err := hub.OpenDB(ctx, url)
	if err != nil {
		say(err)
		return 1
	}
	defer d.Close()
	switch verb {
	case "add":
		creds, err := d.AddPerson(ctx, *name)
		if err != nil {
			say(err)
			return 1
		}
		// The only time the secret is shown: it is stored as a hash.
		json.NewEncoder(env.Out).Encode(creds)
	case "list":
		people, err := d.People(ctx)
		if err != nil {
			say(err)
			return 1
		}
		tw := tabwriter.NewWriter(env.Out, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tNAME\tCLIENT ID\tSTATE\tADDED")
		for _, p := range people {
			state := "active"
			if p.Disabled {
				state = "disabled"
			}
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\n", p.Id, p.Name, p.ClientId, state, p.Created.In(time.Local).Format(dateTime))
		}
		tw.Flush()
	case "disable":
		p, err := d.DisablePerson(ctx, who)
		if err != nil {
			say(err)
			return 1
		}
		fmt.Fprintf(env.Out, "disabled %s (%s); their desktops are signed out\n", p.Name, p.ClientId)
	case "enable":
		p, err := d.EnablePerson(ctx, who)
		if err != nil {
			say(err)
			return 1
		}
		fmt.Fprintf(env.Out, "enabled %s (%s); their desktops sign in again with their secret\n", p.Name, p.ClientId)
	case "reset":
		p, creds, err := d.ResetSecret(ctx, who)
		if err != nil {
			say(err)
			return 1
		}
		// As for add: shown this once. The person enters it in their
		// desktop's Connect to office hub….
		json.NewEncoder(env.Out).Encode(creds)
		note := "the old secret no longer works; their desktops were signed out"
		if p.Disabled {
			note += " (the account is still disabled: " + env.Prog + " user enable)"
		}
		fmt.Fprintf(env.Err, "new secret for %s (%s); %s\n", p.Name, p.ClientId, note)
	}
	return 0
}
