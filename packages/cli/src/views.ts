import type {
  Job,
  OccurrencePreview,
  ScheduleParse,
  Task,
  Tenant,
  Workflow,
  WorkflowNode,
  WorkflowSummary,
} from '@dsched/client';
import { cell, fields, formatTime, type OutputOptions, table } from './output.ts';

// The tables people read. JSON output never passes through here: it is the API's body.

export function scheduleText(s: Task['schedule']): string {
  const calendar = s.type !== 'once' && s.calendar ? ' with a calendar' : '';
  if (s.type === 'once') return `once ${s.at}`;
  if (s.type === 'interval') return `every ${s.every}${s.offset ? ` offset ${s.offset}` : ''}${calendar}`;
  return `cron "${s.expression}" ${s.timezone}${calendar}`;
}

/** A sentence cut to a table cell's width. */
function brief(text: string, width = 60): string {
  return text.length <= width ? text : `${text.slice(0, width - 1)}…`;
}

export function taskRows(tasks: Task[], out: OutputOptions): string {
  return table(
    ['id', 'name', 'schedule', 'state', 'next fire', 'priority'],
    tasks.map((t) => [
      t.id,
      t.name,
      brief(t.schedule.description),
      t.state,
      formatTime(t.nextFireAt, out),
      t.priority,
    ]),
  );
}

export function occurrenceRows(preview: OccurrencePreview, out: OutputOptions): string {
  return table(
    ['at', 'local time', 'offset', 'fires', 'dst', 'calendar', 'note'],
    preview.occurrences.map((o) => [
      formatTime(o.at, out),
      o.localTime,
      o.utcOffset,
      o.fires ? 'yes' : 'no',
      cell(o.dst),
      cell(o.calendar),
      cell(o.note),
    ]),
  );
}

/** A detail's `tags` row (`key:value` words), only when there are tags. */
export function tagsRow(tags: Record<string, string> | undefined): [string, string][] {
  const words = Object.entries(tags ?? {}).map(([k, v]) => `${k}:${v}`);
  return words.length > 0 ? [['tags', words.join(' ')]] : [];
}

export function taskDetail(task: Task, out: OutputOptions, preview?: OccurrencePreview): string {
  const dst = task.schedule.type === 'cron' ? task.schedule.dst : undefined;
  const text = fields([
    ['id', task.id],
    ['name', task.name],
    ...(task.key ? ([['key', task.key]] as [string, string][]) : []),
    ['state', task.state],
    ['when', task.schedule.description],
    ...(task.schedule.text ? ([['words', task.schedule.text]] as [string, string][]) : []),
    ['schedule', scheduleText(task.schedule)],
    ...(dst
      ? ([['dst policy', `repeated: ${dst.repeated}, skipped: ${dst.skipped}`]] as [string, string][])
      : []),
    task.target
      ? ['target', `${task.target.method} ${task.target.url}`]
      : [
          'workflow',
          `${task.workflow?.name ?? ''} (${task.workflow?.nodes.length ?? 0} nodes, a run per occurrence)`,
        ],
    ['priority', `${task.priority} (lane ${task.lane})`],
    ['retry', `up to ${task.retry.maxAttempts} attempts`],
    ['misfire / overlap', `${task.misfirePolicy} / ${task.overlapPolicy}`],
    ...tagsRow(task.tags),
    ['next fire', formatTime(task.nextFireAt, out)],
    ['version', String(task.version)],
    ['created', formatTime(task.createdAt, out)],
    ['updated', formatTime(task.updatedAt, out)],
  ]);
  if (!preview) return text;
  return `${text}\n\nNext fire times (${preview.timezone}):\n${occurrenceRows(preview, out)}`;
}

/** `schedule parse`: what the words give, their sentence and the next fire times. */
export function parsedSchedule(parsed: ScheduleParse, out: OutputOptions): string {
  return `${fields([
    ['when', parsed.description],
    ['schedule', scheduleText(parsed.schedule)],
    ...(parsed.schedule.type === 'cron'
      ? ([['dst policy', 'repeated: first, skipped: shift']] as [string, string][])
      : []),
  ])}\n\nNext fire times:\n${parsed.next.map((t) => `  ${formatTime(t, out)}`).join('\n')}`;
}

export function jobRows(jobs: Job[], out: OutputOptions): string {
  return table(
    ['id', 'task', 'state', 'attempt', 'scheduled for', 'finished', 'status'],
    jobs.map((j) => [
      j.id,
      cell(j.taskId),
      j.state,
      `${j.attempt}/${j.maxAttempts}`,
      formatTime(j.scheduledFor, out),
      formatTime(j.finishedAt, out),
      cell(j.lastStatus ?? j.lastError),
    ]),
  );
}

export function jobDetail(job: Job, out: OutputOptions): string {
  const text = fields([
    ['id', job.id],
    ['task', cell(job.taskId)],
    ['kind', job.kind],
    ['state', `${job.state}${job.cancelRequested ? ' (cancel requested)' : ''}`],
    ['attempt', `${job.attempt} of ${job.maxAttempts}`],
    ['priority', job.priority],
    ['scheduled for', formatTime(job.scheduledFor, out)],
    ['started', formatTime(job.startedAt, out)],
    ['finished', formatTime(job.finishedAt, out)],
    ['last status', cell(job.lastStatus)],
    ['last error', cell(job.lastError)],
    // The occurrence's trace, one for all its attempts (docs/tracing.md); none for jobs older than it.
    ...traceField(job),
    ...tagsRow(job.tags),
  ]);
  const attempts = [...job.attempts].sort((a, b) => b.attempt - a.attempt);
  if (attempts.length === 0) return `${text}\n\nNo attempts yet.`;
  return `${text}\n\nAttempts (newest first):\n${table(
    ['attempt', 'started', 'finished', 'status', 'duration', 'executor', 'error'],
    attempts.map((a) => [
      String(a.attempt),
      formatTime(a.startedAt, out),
      formatTime(a.finishedAt, out),
      cell(a.status),
      a.durationMs === undefined ? '-' : `${a.durationMs} ms`,
      a.executor,
      cell(a.error),
    ]),
  )}`;
}

function traceField(job: Job): [string, string][] {
  const traceId = job.attempts.find((a) => a.traceId)?.traceId;
  return traceId ? [['trace', traceId]] : [];
}

export function tenantDetail(
  tenant: Tenant & { apiKey?: string; signingSecret?: string },
  out: OutputOptions,
): string {
  const pairs: [string, string][] = [
    ['id', tenant.id],
    ['name', tenant.name],
    ['max concurrency', cell(tenant.maxConcurrency)],
    ['max tasks', cell(tenant.maxTasks)],
    ['rate limit /s', cell(tenant.rateLimitPerSecond)],
    ['weight', cell(tenant.weight)],
    ['created', formatTime(tenant.createdAt, out)],
  ];
  if (tenant.apiKey) pairs.push(['api key', `${tenant.apiKey}  (shown once)`]);
  if (tenant.signingSecret) pairs.push(['signing secret', `${tenant.signingSecret}  (shown once)`]);
  return fields(pairs);
}

/** A workflow node's states, in the order a run moves through them. */
export const NODE_STATES = [
  'waiting',
  'pending',
  'running',
  'succeeded',
  'dead',
  'skipped',
  'upstream_failed',
  'cancelled',
];

/** Node counts by state, in that order; states with no node left out. */
export function workflowCounts(wf: Workflow): string {
  const counts = Object.entries(wf.nodes)
    .filter(([, n]) => n > 0)
    .sort(([a], [b]) => rank(a) - rank(b));
  return counts.map(([s, n]) => `${s} ${n}`).join(', ') || 'no nodes';
}

const rank = (state: string) => {
  const i = NODE_STATES.indexOf(state);
  return i < 0 ? NODE_STATES.length : i;
};

export function workflowDetail(wf: Workflow, out: OutputOptions): string {
  return fields([
    ['id', wf.id],
    ['name', wf.name],
    ['state', `${wf.state}${wf.paused ? ' (paused)' : ''}`],
    ['nodes', `${wf.nodeCount} (${wf.edgeCount} dependencies)`],
    ['by state', workflowCounts(wf)],
    ['failure policy', wf.failurePolicy],
    ...tagsRow(wf.tags),
    ['max parallel', cell(wf.maxParallel)],
    ['deadline', formatTime(wf.deadlineAt, out)],
    ['created', formatTime(wf.createdAt, out)],
    ['finished', formatTime(wf.finishedAt, out)],
  ]);
}

export function workflowRows(runs: WorkflowSummary[], out: OutputOptions): string {
  return table(
    ['id', 'name', 'state', 'nodes', 'created', 'finished', 'tags'],
    runs.map((w) => [
      w.id,
      w.name,
      `${w.state}${w.paused ? ' (paused)' : ''}`,
      String(w.nodeCount),
      formatTime(w.createdAt, out),
      formatTime(w.finishedAt, out),
      tagsRow(w.tags)[0]?.[1] ?? '-',
    ]),
  );
}

export function workflowNodeRows(nodes: WorkflowNode[], out: OutputOptions): string {
  return table(
    ['node', 'kind', 'state', 'attempt', 'trigger', 'job', 'finished'],
    nodes.map((n) => [
      n.id,
      // A map node says how far it is: items made of the array's length (its items are listed too).
      n.kind === 'map' && n.map ? `map ${n.map.made}/${n.map.count ?? '?'}` : (n.kind ?? 'call'),
      n.state,
      String(n.attempt),
      n.trigger,
      cell(n.jobId),
      formatTime(n.finishedAt, out),
    ]),
  );
}
