package hub

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5"
	"golang.org/x/crypto/bcrypt"
)

// EnablePerson enables the account named nameOrId (its name, client id or
// number) again. The tokens it held before are dropped: its desktops sign
// in again with its secret.
func (db *DB) EnablePerson(ctx context.Context, nameOrId string) (Person, error) {
	var p Person
	err := pgx.BeginFunc(ctx, db.Pool, func(tx pgx.Tx) error {
		id, err := onePerson(ctx, tx, nameOrId)
		if err != nil {
			return err
		}
		if err := tx.QueryRow(ctx, `UPDATE people SET disabled = false WHERE id = $1
			RETURNING id, name, client_id, disabled, created`, id).Scan(&p.Id, &p.Name, &p.ClientId, &p.Disabled, &p.Created); err != nil {
			return err
		}
		// Kept while disabled so that a call with one was logged as the
		// disabled person's; enabled, they would work again.
		_, err = tx.Exec(ctx, `DELETE FROM tokens WHERE person_id = $1`, id)
		return err
	})
	if err != nil && !errors.Is(err, ErrNoSuchPerson) && !errors.Is(err, errAmbiguous) {
		err = fmt.Errorf("hub: enabling %q: %w", nameOrId, err)
	}
	if err != nil {
		return Person{}, err
	}
	return p, nil
}

// ResetSecret gives the account named nameOrId a new secret and returns
// it (shown once: only its hash is stored). The old secret stops working,
// and so do the person's sessions: their tokens are dropped and their
// event streams end on every instance at once, as a disabled person's do.
// A disabled account stays disabled.
func (db *DB) ResetSecret(ctx context.Context, nameOrId string) (Person, Credentials, error) {
	secret := randomText(32)
	hash, err := bcrypt.GenerateFromPassword([]byte(secret), bcryptCost)
	if err != nil {
		return Person{}, Credentials{}, fmt.Errorf("hub: hashing the secret: %w", err)
	}
	var p Person
	err = pgx.BeginFunc(ctx, db.Pool, func(tx pgx.Tx) error {
		id, err := onePerson(ctx, tx, nameOrId)
		if err != nil {
			return err
		}
		if err := tx.QueryRow(ctx, `UPDATE people SET secret_hash = $2 WHERE id = $1
			RETURNING id, name, client_id, disabled, created`, id, string(hash)).Scan(&p.Id, &p.Name, &p.ClientId, &p.Disabled, &p.Created); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM tokens WHERE person_id = $1`, id); err != nil {
			return err
		}
		// Each stream checks its row at every heartbeat: one whose notice
		// an instance misses (its listener reconnecting) ends all the same.
		if _, err := tx.Exec(ctx, `UPDATE streams SET seen = '-infinity' WHERE person_id = $1`, id); err != nil {
			return err
		}
		// Every instance ends the person's open event streams now.
		_, err = tx.Exec(ctx, `SELECT pg_notify($1, $2)`, disabledChannel, strconv.FormatInt(id, 10))
		return err
	})
	if err != nil && !errors.Is(err, ErrNoSuchPerson) && !errors.Is(err, errAmbiguous) {
		err = fmt.Errorf("hub: giving %q a new secret: %w", nameOrId, err)
	}
	if err != nil {
		return Person{}, Credentials{}, err
	}
	return p, Credentials{ClientId: p.ClientId, ClientSecret: secret}, nil
}

// errAmbiguous: the name or number given names more than one account.
var errAmbiguous = errors.New("names more than one account: give the client id instead")

// onePerson finds the one account whose name, client id or number is
// nameOrId; a number that is also someone's name is refused, not guessed.
func onePerson(ctx context.Context, tx pgx.Tx, nameOrId string) (int64, error) {
	id, _ := strconv.ParseInt(nameOrId, 10, 64)
	rows, err := tx.Query(ctx, `SELECT id FROM people WHERE name = $1 OR client_id = $1 OR id = $2`, nameOrId, id)
	if err != nil {
		return 0, err
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	switch {
	case err != nil:
		return 0, err
	case len(ids) == 0:
		return 0, fmt.Errorf("%w: %q", ErrNoSuchPerson, nameOrId)
	case len(ids) > 1:
		return 0, fmt.Errorf("%q %w", nameOrId, errAmbiguous)
	}
	return ids[0], nil
}
