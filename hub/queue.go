package hub

import (
	"context"
	"sync"
)

// turns queues an instance's writes to one work order in memory, so that
// while one is with the service the others wait holding nothing: not a
// database connection, which writes to other work orders, reads and
// sign-ins need. Across instances the advisory lock (see locked) still
// decides.
type turns struct {
	mu sync.Mutex
	m  map[int64]*turn
}

type turn struct {
	held  chan struct{} // one slot: full while a write has the turn
	users int           // holding or waiting; the entry goes at 0
}

func newTurns() *turns { return &turns{m: map[int64]*turn{}} }

// take waits for the turn of each of ids (sorted, distinct: two bulk writes
// never wait on each other crosswise) until ctx ends; release gives them back.
func (q *turns) take(ctx context.Context, ids []int64) (release func(), err error) {
	var held []int64
	release = func() {
		for _, id := range held {
			q.give(id, true)
		}
	}
	for _, id := range ids {
		t := q.join(id)
		select {
		case t.held <- struct{}{}:
			held = append(held, id)
		case <-ctx.Done():
			q.give(id, false)
			release()
			return nil, ctx.Err()
		}
	}
	return release, nil
}

func (q *turns) join(id int64) *turn {
	q.mu.Lock()
	defer q.mu.Unlock()
	t := q.m[id]
	if t == nil {
		t = &turn{held: make(chan struct{}, 1)}
		q.m[id] = t
	}
	t.users++
	return t
}

func (q *turns) give(id int64, holding bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	t := q.m[id]
	if holding {
		<-t.held
	}
	if t.users--; t.users == 0 {
		delete(q.m, id)
	}
}
