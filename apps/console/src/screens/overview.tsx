import type { DschedClient, Job } from '@dsched/client/browser';
import type { ScreenProps } from '../main.tsx';
import { href } from '../router.ts';
import { ErrorBanner, usePoll } from '../ui.tsx';

// The tenant's numbers at a glance, from the public read routes: tasks (and how many paused),
// runs due now and running, the DLQ's size, lateness of the last hour's runs, and a sparkline of
// the last hour's finished runs by minute. Refreshed every 5 s.

const CAP = 5000;

async function count<T>(iter: AsyncIterable<T>, keep?: (t: T) => void): Promise<number> {
  let n = 0;
  for await (const t of iter) {
    keep?.(t);
    if (++n >= CAP) break;
  }
  return n;
}

async function load(client: DschedClient) {
  const now = new Date();
  const hourAgo = new Date(now.getTime() - 3600_000).toISOString();
  let paused = 0;
  const finished: Job[] = [];
  const [tasks, dlq, pending, running, succeeded] = await Promise.all([
    count(client.tasks({ limit: 500 }), (t) => {
      if (t.state === 'paused') paused++;
    }),
    count(client.dlq({ limit: 500 })),
    count(client.jobs({ state: 'pending', to: now.toISOString(), limit: 500 })),
    count(client.jobs({ state: 'running', limit: 500 })),
    count(client.jobs({ state: 'succeeded', from: hourAgo, limit: 500 }), (j) => finished.push(j)),
  ]);
  const buckets = new Array<number>(60).fill(0);
  const lateness: number[] = [];
  for (const j of finished) {
    const at = Date.parse(j.finishedAt ?? j.scheduledFor);
    const minute = 59 - Math.floor((now.getTime() - at) / 60_000);
    if (minute >= 0 && minute < 60) buckets[minute]!++;
    if (j.startedAt) lateness.push(Date.parse(j.startedAt) - Date.parse(j.scheduledFor));
  }
  lateness.sort((a, b) => a - b);
  const p99 = lateness.length
    ? lateness[Math.min(lateness.length - 1, Math.floor(lateness.length * 0.99))]!
    : undefined;
  return { tasks, paused, dlq, pending, running, succeeded, buckets, p99 };
}

function Sparkline(props: { values: number[] }) {
  const max = Math.max(1, ...props.values);
  const w = 240;
  const h = 40;
  const points = props.values
    .map((v, i) => `${(i / (props.values.length - 1)) * w},${h - (v / max) * (h - 2) - 1}`)
    .join(' ');
  return (
    <svg
      width={w}
      height={h}
      viewBox={`0 0 ${w} ${h}`}
      role="img"
      aria-label={`Runs finished per minute over the last hour, at most ${max}`}
    >
      <polyline points={points} fill="none" stroke="currentColor" stroke-width="2" />
    </svg>
  );
}

export function OverviewScreen({ client }: ScreenProps) {
  const { data, error } = usePoll(() => load(client), [], 5000);
  const capped = (n: number) => (n >= CAP ? `${CAP}+` : String(n));
  return (
    <section aria-labelledby="h-overview">
      <h1 id="h-overview">Overview</h1>
      <ErrorBanner error={error} />
      {data ? (
        <>
          <ul class="tiles">
            <li class="tile">
              <a href={href('/tasks')}>
                <strong>{capped(data.tasks)}</strong> tasks
              </a>
              <span class="sub">{data.paused} paused</span>
            </li>
            <li class="tile">
              <a href={href('/runs', { state: 'pending' })}>
                <strong>{capped(data.pending)}</strong> due now
              </a>
              <span class="sub">pending, scheduled before now</span>
            </li>
            <li class="tile">
              <a href={href('/runs', { state: 'running' })}>
                <strong>{capped(data.running)}</strong> running
              </a>
            </li>
            <li class="tile">
              <a href={href('/dlq')}>
                <strong>{capped(data.dlq)}</strong> in the DLQ
              </a>
            </li>
            <li class="tile">
              <strong>{data.p99 === undefined ? '—' : `${Math.max(0, Math.round(data.p99))} ms`}</strong> p99
              lateness
              <span class="sub">start − scheduled, last hour’s successes</span>
            </li>
          </ul>
          <h2>Throughput</h2>
          <p>{capped(data.succeeded)} runs succeeded in the last hour.</p>
          <Sparkline values={data.buckets} />
        </>
      ) : (
        <p>Loading…</p>
      )}
    </section>
  );
}
