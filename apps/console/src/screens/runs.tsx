import type { Job } from '@dsched/client/browser';
import { useState } from 'preact/hooks';
import { fromLocalInput, parseTagInput, tagsText, when } from '../format.ts';
import type { ScreenProps } from '../main.tsx';
import { go, href } from '../router.ts';
import {
  Badge,
  ErrorBanner,
  FilterInput,
  forEachId,
  Notice,
  SelectAll,
  usePoll,
  useSelection,
} from '../ui.tsx';
import { useBulkOperation } from './operations.tsx';

// Runs (jobs) filtered by task, state, tags and time, all in the URL; jump to one by id; cancel or retry
// the selection, or everything the filter matches as one bulk operation on the server (counted
// first, then followed under Operations). A task filter reads that task's runs (live and archived);
// otherwise the tenant's jobs. Refreshed every 3 s.

const STATES = ['pending', 'running', 'succeeded', 'failed', 'dead', 'cancelled'] as const;

export function RunsScreen({ client, route }: ScreenProps) {
  const q = Object.fromEntries(route.query) as Record<string, string | undefined>;
  const tags = route.query.getAll('tag');
  const [pageToken, setPageToken] = useState<string>();
  const range = {
    ...(q.from ? { from: fromLocalInput(q.from) } : {}),
    ...(q.to ? { to: fromLocalInput(q.to) } : {}),
  };
  const list = usePoll(
    async (): Promise<{ jobs: Job[]; nextPageToken?: string | undefined }> => {
      const paging = {
        limit: 100,
        ...(tags.length ? { tag: tags } : {}),
        ...(pageToken ? { pageToken } : {}),
      };
      if (q.task) {
        const page = await client.runsPage(q.task, { ...range, ...paging });
        return {
          jobs: page.runs.filter((r) => !q.state || r.state === q.state),
          nextPageToken: page.nextPageToken,
        };
      }
      const state = STATES.find((s) => s === q.state);
      return client.jobsPage({ ...range, ...paging, ...(state ? { state } : {}) });
    },
    [route.query.toString(), pageToken],
    3000,
  );
  const sel = useSelection();
  const [jump, setJump] = useState('');
  const [notice, setNotice] = useState<string>();
  const [error, setError] = useState<unknown>();
  const commit = (k: string) => (value: string) => {
    setPageToken(undefined);
    go('/runs', { ...q, tag: tags, [k]: k === 'tag' ? parseTagInput(value) : value });
  };
  const set = (k: string) => (e: Event) => commit(k)((e.currentTarget as HTMLInputElement).value);
  const bulk = async (action: 'cancel' | 'retry') => {
    const ids = [...sel.selected];
    const res = await forEachId(ids, (id) =>
      action === 'cancel' ? client.cancelJob(id) : client.retryJob(id),
    );
    setNotice(`${action === 'cancel' ? 'Cancelled' : 'Retried'} ${res.ok} of ${ids.length} runs.`);
    setError(res.failed[0]?.error);
    sel.clear();
    await list.reload();
  };
  const operation = useBulkOperation(client);
  // A bulk operation needs a filter the server can use (never everything): a task, tags or a range.
  const opFilter = {
    ...(q.task ? { taskId: q.task } : {}),
    ...(tags.length ? { tag: tags } : {}),
    ...range,
  };
  const filtered = Object.keys(opFilter).length > 0;
  const opState = (allowed: readonly string[]) =>
    q.state && allowed.includes(q.state) ? { state: q.state as 'pending' | 'running' } : {};
  const jobs = list.data?.jobs ?? [];
  return (
    <section aria-labelledby="h-runs">
      <h1 id="h-runs">Runs</h1>
      <form
        class="filters"
        onSubmit={(e) => {
          e.preventDefault();
          if (jump.trim()) go(`/runs/${jump.trim()}`);
        }}
      >
        <label>
          Jump to run id <input value={jump} onInput={(e) => setJump(e.currentTarget.value)} />
        </label>
        <button type="submit">Open</button>
      </form>
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          Task id <FilterInput value={q.task ?? ''} onCommit={commit('task')} />
        </label>
        <label>
          State{' '}
          <select value={q.state ?? ''} onChange={set('state')}>
            <option value="">any</option>
            {STATES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
        <label>
          Tags{' '}
          <FilterInput
            placeholder="team:billing, env:prod"
            value={tags.join(', ')}
            onCommit={commit('tag')}
          />
        </label>
        <label>
          From <input type="datetime-local" value={q.from ?? ''} onChange={set('from')} />
        </label>
        <label>
          To <input type="datetime-local" value={q.to ?? ''} onChange={set('to')} />
        </label>
      </form>
      <div class="toolbar">
        <button type="button" disabled={!sel.selected.size} onClick={() => bulk('cancel')}>
          Cancel selected
        </button>
        <button type="button" disabled={!sel.selected.size} onClick={() => bulk('retry')}>
          Retry selected
        </button>
        <span>{sel.selected.size} selected</span>
        <button
          type="button"
          disabled={!filtered || (!!q.state && !['pending', 'running'].includes(q.state))}
          title={filtered ? undefined : 'Filter by task, tags or time first'}
          onClick={() => operation.start('cancel', { ...opFilter, ...opState(['pending', 'running']) })}
        >
          Cancel all matching
        </button>
        <button
          type="button"
          disabled={!filtered || (!!q.state && q.state !== 'pending')}
          title={filtered ? undefined : 'Filter by task, tags or time first'}
          onClick={() => operation.start('retry', opFilter)}
        >
          Retry all matching now
        </button>
      </div>
      {operation.dialog}
      <Notice text={notice} />
      <ErrorBanner error={list.error ?? error ?? operation.error} />
      <div class="table-wrap">
        <table>
          <caption class="sr-only">Runs</caption>
          <thead>
            <tr>
              <th scope="col">
                <SelectAll ids={jobs.map((j) => j.id)} sel={sel} label="Select all runs shown" />
              </th>
              <th scope="col">Run</th>
              <th scope="col">State</th>
              <th scope="col">Tags</th>
              <th scope="col">Scheduled for</th>
              <th scope="col">Attempt</th>
              <th scope="col">Last error</th>
            </tr>
          </thead>
          <tbody>
            {jobs.map((j) => (
              <tr key={j.id}>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`Select run ${j.id}`}
                    checked={sel.selected.has(j.id)}
                    onChange={() => sel.toggle(j.id)}
                  />
                </td>
                <td>
                  <a href={href(`/runs/${j.id}`)}>
                    <code>{j.id}</code>
                  </a>
                  <div class="sub">
                    {j.kind}
                    {j.taskId ? (
                      <>
                        {' · '}
                        <a href={href(`/tasks/${j.taskId}`)}>task</a>
                      </>
                    ) : null}
                  </div>
                </td>
                <td>
                  <Badge state={j.state} />
                </td>
                <td>{tagsText(j.tags)}</td>
                <td>{when(j.scheduledFor)}</td>
                <td>
                  {j.attempt}/{j.maxAttempts}
                </td>
                <td class="err-text">{j.lastError ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {list.data?.nextPageToken ? (
        <button type="button" onClick={() => setPageToken(list.data?.nextPageToken)}>
          Next page
        </button>
      ) : null}
    </section>
  );
}
