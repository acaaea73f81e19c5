-- One occurrence is one trace (docs/tracing.md, decision D37): its W3C trace context is born with
-- the job and stored with it, so every later step, in any process and after any crash, joins the
-- same trace. 25 bytes: trace id (16), the span id later steps are children of (8), flags (1: bit
-- 0 sampled). Written by the insert that makes the job (no statement of its own), read by the
-- claim and by job-api. A workflow run keeps its trace too; its node jobs copy it, and a callback
-- job copies its job's. NULL for jobs and runs made before this migration: their attempts start
-- traces of their own. An instant column add on MariaDB and MySQL (added last, nullable).
ALTER TABLE jobs ADD COLUMN trace_context BINARY(25) NULL;
ALTER TABLE workflows ADD COLUMN trace_context BINARY(25) NULL;
