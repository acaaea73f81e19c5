// The River peer of `pnpm loadtest peak-vs-peers` (../river.ts builds and runs it): River, a Go job
// queue on PostgreSQL, making the same HTTP call to the same sink as a dsched executor. One binary,
// three modes, set by RIVER_MODE:
//
//	migrate  River's schema into RIVER_DATABASE_URL (rivermigrate, up)
//	add      RIVER_N jobs due at one second, chosen after timing a warm-up batch, inserted with
//	         InsertManyFast (COPY); prints {"due": ms, "addedInS": s}
//	work     a client with RIVER_CONCURRENCY workers until SIGTERM; prints "ready"
//
// Tuning (River's documented knobs for throughput, client.go): MaxWorkers = the slots dsched's
// executors have per process; FetchCooldown 20 ms (default 100 ms: "throughput is limited by this
// value"), FetchPollInterval 50 ms (default 1 s: a job that becomes due is fetched by a poll, since
// the scheduler only notifies for jobs due within 5 ms of its pass). Completions go through River's
// batch completer, its default. Priorities: 1 (critical) runs before 2.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"
)

type CallArgs struct {
	TaskID       string `json:"task_id"`
	ScheduledFor string `json:"scheduled_for"`
	Tenant       int    `json:"tenant"`
}

func (CallArgs) Kind() string { return "call" }

type CallWorker struct {
	river.WorkerDefaults[CallArgs]
	client *http.Client
	sink   string
}

func (w *CallWorker) Work(ctx context.Context, job *river.Job[CallArgs]) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost,
		fmt.Sprintf("%s/s/%d/fast", w.sink, job.Args.Tenant), strings.NewReader(`{"lt":1}`))
	if err != nil {
		return err
	}
	req.Header.Set("content-type", "application/json")
	req.Header.Set("idempotency-key", fmt.Sprintf("river-%d", job.ID))
	req.Header.Set("dsched-attempt", strconv.Itoa(job.Attempt))
	req.Header.Set("dsched-scheduled-for", job.Args.ScheduledFor)
	req.Header.Set("dsched-task-id", job.Args.TaskID)
	res, err := w.client.Do(req)
	if err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if res.StatusCode >= 300 {
		return fmt.Errorf("HTTP %d", res.StatusCode)
	}
	return nil
}

func env(name string, fallback int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil {
		return v
	}
	return fallback
}

func main() {
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, os.Getenv("RIVER_DATABASE_URL"))
	must(err)
	defer pool.Close()
	driver := riverpgxv5.New(pool)
	switch os.Getenv("RIVER_MODE") {
	case "migrate":
		migrator, err := rivermigrate.New(driver, nil)
		must(err)
		_, err = migrator.Migrate(ctx, rivermigrate.DirectionUp, nil)
		must(err)
	case "add":
		add(ctx, driver)
	case "work":
		work(ctx, pool, driver)
	default:
		must(fmt.Errorf("RIVER_MODE must be migrate, add or work"))
	}
}

func workers(sink string, concurrency int) *river.Workers {
	w := river.NewWorkers()
	transport := &http.Transport{MaxIdleConns: concurrency, MaxIdleConnsPerHost: concurrency, MaxConnsPerHost: concurrency, IdleConnTimeout: 30 * time.Second}
	river.AddWorker(w, &CallWorker{client: &http.Client{Transport: transport, Timeout: 30 * time.Second}, sink: sink})
	return w
}

func add(ctx context.Context, driver *riverpgxv5.Driver) {
	client, err := river.NewClient(driver, &river.Config{Workers: workers("", 1)})
	must(err)
	n, tenants, criticalEvery := env("RIVER_N", 30000), env("RIVER_TENANTS", 10), env("RIVER_CRITICAL_EVERY", 100)
	// Time the adds on a warm-up batch (due in a day, deleted), so the due second leaves room.
	t0 := time.Now()
	warm := make([]river.InsertManyParams, 1000)
	for i := range warm {
		warm[i] = river.InsertManyParams{Args: CallArgs{TaskID: "warmup"}, InsertOpts: &river.InsertOpts{ScheduledAt: time.Now().Add(24 * time.Hour)}}
	}
	_, err = client.InsertManyFast(ctx, warm)
	must(err)
	perMs := 1000 / math.Max(1, float64(time.Since(t0).Milliseconds()))
	_, err = driverExec(ctx, driver, "DELETE FROM river_job")
	must(err)
	dueMs := int64(math.Ceil((float64(time.Now().UnixMilli())+float64(n)/perMs*1.5+5000)/1000) * 1000)
	due := time.UnixMilli(dueMs)
	scheduledFor := due.UTC().Format("2006-01-02T15:04:05.000Z")
	started := time.Now()
	for from := 0; from < n; from += 5000 {
		batch := []river.InsertManyParams{}
		for i := from; i < n && i < from+5000; i++ {
			priority := 2
			if i%criticalEvery == 0 {
				priority = 1
			}
			batch = append(batch, river.InsertManyParams{
				Args:       CallArgs{TaskID: fmt.Sprintf("river-task-%d", i), ScheduledFor: scheduledFor, Tenant: i % tenants},
				InsertOpts: &river.InsertOpts{ScheduledAt: due, Priority: priority, MaxAttempts: 5},
			})
		}
		_, err = client.InsertManyFast(ctx, batch)
		must(err)
	}
	out, _ := json.Marshal(map[string]any{"due": dueMs, "addedInS": time.Since(started).Seconds()})
	fmt.Println(string(out))
}

func driverExec(ctx context.Context, driver *riverpgxv5.Driver, sql string) (any, error) {
	return nil, driver.GetExecutor().Exec(ctx, sql)
}

func work(ctx context.Context, pool *pgxpool.Pool, driver *riverpgxv5.Driver) {
	concurrency := env("RIVER_CONCURRENCY", 256)
	client, err := river.NewClient(driver, &river.Config{
		Queues:            map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: concurrency}},
		Workers:           workers(os.Getenv("SINK_URL"), concurrency),
		FetchCooldown:     20 * time.Millisecond,
		FetchPollInterval: 50 * time.Millisecond,
		Logger:            nil,
	})
	must(err)
	must(client.Start(ctx))
	fmt.Println("ready")
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	<-stop
	shutdown, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	_ = client.Stop(shutdown)
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "river-peer:", err)
		os.Exit(1)
	}
}
