package hub

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/workorderdesk/workdesk/api"
	"golang.org/x/crypto/bcrypt"
)

// disabledChannel carries the id of a person just disabled to every instance.
const disabledChannel = "workdesk_hub_disabled"

// Person is a staff account.
type Person struct {
	Id       int64
	Name     string
	ClientId string
	Disabled bool
	Created  time.Time
}

// bcryptCost is the work factor of secret hashes; tests lower it, since the
// race detector makes each default-cost check take a second.
var bcryptCost = bcrypt.DefaultCost

// Credentials are what a person's desktop signs in with; the secret is shown
// once, when the account is made.
type Credentials struct {
	ClientId     string
	ClientSecret string
}

var (
	// ErrBadCredentials: unknown client id, wrong secret or a disabled account.
	ErrBadCredentials = errors.New("unknown client or wrong secret")
	// errDisabledAccount: the right secret of a disabled account (the
	// security log says so; the desktop is told as for a wrong one).
	errDisabledAccount = fmt.Errorf("%w: the account is disabled", ErrBadCredentials)
	// ErrNoSuchPerson: no account has that name or id.
	ErrNoSuchPerson = errors.New("no such person")
)

func randomText(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// AddPerson makes an account for name and returns its credentials.
func (db *DB) AddPerson(ctx context.Context, name string) (Credentials, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return Credentials{}, errors.New("a person needs a name (--name)")
	}
	b := make([]byte, 8)
	rand.Read(b)
	c := Credentials{ClientId: "hub-" + hex.EncodeToString(b), ClientSecret: randomText(32)}
	hash, err := bcrypt.GenerateFromPassword([]byte(c.ClientSecret), bcryptCost)
	if err != nil {
		return Credentials{}, fmt.Errorf("hub: hashing the secret: %w", err)
	}
	_, err = db.Pool.Exec(ctx, `INSERT INTO people (name, client_id, secret_hash) VALUES ($1, $2, $3)`, name, c.ClientId, string(hash))
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23505" {
		return Credentials{}, fmt.Errorf("there is already a person named %q", name)
	}
	if err != nil {
		return Credentials{}, fmt.Errorf("hub: adding %q: %w", name, err)
	}
	return c, nil
}

// People lists every account, in the order they were made.
func (db *DB) People(ctx context.Context) ([]Person, error) {
	rows, err := db.Pool.Query(ctx, `SELECT id, name, client_id, disabled, created FROM people ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("hub: listing people: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Person, error) {
		var p Person
		err := r.Scan(&p.Id, &p.Name, &p.ClientId, &p.Disabled, &p.Created)
		return p, err
	})
	if err != nil {
		return nil, fmt.Errorf("hub: listing people: %w", err)
	}
	return out, nil
}

// DisablePerson disables the account named nameOrId (its name, client id or
// number) and ends its tokens at once: Authenticate refuses them. They are
// kept until they expire, so that a call made with one is logged as a
// disabled person's.
func (db *DB) DisablePerson(ctx context.Context, nameOrId string) (Person, error) {
	var p Person
	id, _ := strconv.ParseInt(nameOrId, 10, 64)
	err := pgx.BeginFunc(ctx, db.Pool, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, `UPDATE people SET disabled = true WHERE name = $1 OR client_id = $1 OR id = $2
			RETURNING id, name, client_id, disabled, created`, nameOrId, id).Scan(&p.Id, &p.Name, &p.ClientId, &p.Disabled, &p.Created)
		if err != nil {
			return err
		}
		// Every instance ends the person's open event streams.
		_, err = tx.Exec(ctx, `SELECT pg_notify($1, $2)`, disabledChannel, strconv.FormatInt(p.Id, 10))
		return err
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return Person{}, fmt.Errorf("%w: %q", ErrNoSuchPerson, nameOrId)
	}
	if err != nil {
		return Person{}, fmt.Errorf("hub: disabling %q: %w", nameOrId, err)
	}
	return p, nil
}

func digest(token string) []byte {
	d := sha256.Sum256([]byte(token))
	return d[:]
}

// IssueToken checks a person's credentials and returns a new access token.
// Only its digest is stored.
func (db *DB) IssueToken(ctx context.Context, clientId, secret string) (string, error) {
	var id int64
	var hash string
	var disabled bool
	err := db.Pool.QueryRow(ctx, `SELECT id, secret_hash, disabled FROM people WHERE client_id = $1`, clientId).Scan(&id, &hash, &disabled)
	if errors.Is(err, pgx.ErrNoRows) {
		// Spend the time a real check takes, so timing does not tell which ids exist.
		bcrypt.CompareHashAndPassword(dummyHash(), []byte(secret))
		return "", ErrBadCredentials
	}
	if err != nil {
		return "", fmt.Errorf("hub: checking credentials: %w", err)
	}
	if bcrypt.CompareHashAndPassword([]byte(hash), []byte(secret)) != nil {
		return "", ErrBadCredentials
	}
	if disabled {
		return "", errDisabledAccount
	}
	tok := randomText(32)
	if _, err := db.Pool.Exec(ctx, `INSERT INTO tokens (digest, person_id, expires) VALUES ($1, $2, now() + $3::interval)`,
		digest(tok), id, api.TokenLifetime); err != nil {
		return "", fmt.Errorf("hub: storing the token: %w", err)
	}
	// Expired tokens are of no use to anyone: drop a few now and then.
	db.Pool.Exec(ctx, `DELETE FROM tokens WHERE ctid IN (SELECT ctid FROM tokens WHERE expires < now() LIMIT 100)`)
	return tok, nil
}

// tokenOfDisabled is the name of the disabled person token was issued to,
// while it has not expired; "" for any other token.
func (db *DB) tokenOfDisabled(ctx context.Context, token string) (string, error) {
	var name string
	err := db.Pool.QueryRow(ctx, `SELECT p.name FROM tokens t JOIN people p ON p.id = t.person_id
		WHERE t.digest = $1 AND t.expires > now() AND p.disabled`, digest(token)).Scan(&name)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	return name, err
}

// dummyHash is made on first use: bcrypt at init would slow every start of the desktop app.
var dummyHash = sync.OnceValue(func() []byte {
	h, _ := bcrypt.GenerateFromPassword([]byte("not a secret"), bcryptCost)
	return h
})

// Authenticate returns the person a token belongs to while it is valid and
// the account enabled: disabling an account ends its tokens at once.
func (db *DB) Authenticate(ctx context.Context, token string) (Person, error) {
	var p Person
	err := db.Pool.QueryRow(ctx, `SELECT p.id, p.name, p.client_id FROM tokens t JOIN people p ON p.id = t.person_id
		WHERE t.digest = $1 AND t.expires > now() AND NOT p.disabled`, digest(token)).Scan(&p.Id, &p.Name, &p.ClientId)
	if errors.Is(err, pgx.ErrNoRows) {
		return Person{}, ErrBadCredentials
	}
	if err != nil {
		return Person{}, fmt.Errorf("hub: checking a token: %w", err)
	}
	return p, nil
}
