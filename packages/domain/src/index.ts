// The domain package: plain data and pure functions, no I/O (a Biome rule keeps drivers, HTTP and
// the file system out; test/shape/domain-imports.test.ts keeps its modules free of import cycles).

// calendar/: time math. Cron, time zones, next fire times, intervals, jitter, occurrence keys.
export * from './calendar/calendar-fires.ts';
export * from './calendar/calendar-views.ts';
export * from './calendar/cron.ts';
export * from './calendar/excluded-days.ts';
export * from './calendar/interval.ts';
export * from './calendar/jitter.ts';
export * from './calendar/occurrence.ts';
export * from './calendar/occurrence-preview.ts';
export * from './calendar/schedule.ts';
export * from './calendar/time-zone.ts';
// crypto/: API keys, webhook signatures, sealed signing secrets.
export * from './crypto/credentials.ts';
export * from './crypto/secret-envelope.ts';
export * from './crypto/signal-token.ts';
export * from './crypto/signature.ts';
// decisions/: pure decisions the services and the storage package apply: outcomes, state
// machines, the scheduler's batch, fair share, flow control, the workflow graph and its nodes.
export * from './decisions/audit.ts';
export * from './decisions/callbacks.ts';
export * from './decisions/due-batch.ts';
export * from './decisions/fair-share.ts';
export * from './decisions/flow-control.ts';
export * from './decisions/job-lifecycle.ts';
export * from './decisions/occurrence-plan.ts';
export * from './decisions/outcome.ts';
export * from './decisions/task-apply.ts';
export * from './decisions/task-lifecycle.ts';
export * from './decisions/workflow-graph.ts';
export * from './decisions/workflow-history.ts';
export * from './decisions/workflow-inputs.ts';
export * from './decisions/workflow-map.ts';
export * from './decisions/workflow-nodes.ts';
export * from './decisions/workflow-plan.ts';
// The nouns and their closed vocabularies, the error vocabulary, ids.
export * from './errors.ts';
export * from './ids.ts';
export * from './json.ts';
export * from './model.ts';
export * from './partition.ts';
export * from './shards.ts';
// wire/: what crosses the HTTP boundary. Request schemas (zod), views, page tokens.
export * from './wire/calendar-schema.ts';
export * from './wire/call-spec.ts';
export * from './wire/job-queries.ts';
export * from './wire/job-requests.ts';
export * from './wire/job-schemas.ts';
export * from './wire/operations.ts';
export * from './wire/paging.ts';
export * from './wire/schedule-parse.ts';
export * from './wire/tags.ts';
export * from './wire/task-requests.ts';
export * from './wire/task-spec.ts';
export * from './wire/trace-context.ts';
export * from './wire/views.ts';
export * from './wire/workflow-spec.ts';
export * from './wire/workflow-views.ts';
// words/: schedules in words, read (a strict grammar; chrono-node for one-off times) and written
// (a sentence for every schedule).
export * from './words/schedule-description.ts';
export * from './words/schedule-text.ts';
