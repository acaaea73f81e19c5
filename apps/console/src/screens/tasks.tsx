import type { Job, OccurrencePreview, Task } from '@dsched/client/browser';
import { useEffect, useState } from 'preact/hooks';
import { ago, parseTagInput, scheduleWords, tagsText, when } from '../format.ts';
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

// Every task of the tenant (paged from the API 500 at a time), filtered by state, tags (the API's
// `tag`) and name in the URL, 25 to a page on screen; each row on screen asks for its next 3 fire
// times (the scheduler's planner, DST policy applied) and its last run. Pause or resume the
// selection from the page, or every task the tags match as a bulk operation on the server.

const PAGE = 25;

async function allTasks(
  client: ScreenProps['client'],
  state: string | undefined,
  tags: string[],
): Promise<Task[]> {
  const out: Task[] = [];
  for await (const t of client.tasks({
    limit: 500,
    ...(state === 'active' || state === 'paused' ? { state } : {}),
    ...(tags.length ? { tag: tags } : {}),
  }))
    out.push(t);
  return out;
}

function RowExtras(props: { client: ScreenProps['client']; task: Task }) {
  const [next, setNext] = useState<OccurrencePreview | 'error'>();
  const [last, setLast] = useState<Job | null>();
  useEffect(() => {
    let live = true;
    void props.client
      .occurrences(props.task.id, { count: 3 })
      .then((p) => live && setNext(p))
      .catch(() => live && setNext('error'));
    void props.client
      .runsPage(props.task.id, { limit: 1 })
      .then((p) => live && setLast(p.runs[0] ?? null))
      .catch(() => live && setLast(null));
    return () => {
      live = false;
    };
  }, [props.task.id, props.task.version]);
  const fires = next && next !== 'error' ? next.occurrences.filter((o) => o.fires).slice(0, 3) : [];
  return (
    <>
      <td>
        {next === undefined ? (
          '…'
        ) : next === 'error' ? (
          '—'
        ) : fires.length === 0 ? (
          'none'
        ) : (
          <ol class="fires">
            {fires.map((o) => (
              <li key={o.at} title={`${o.at} (${o.localTime} ${o.utcOffset})`}>
                {when(o.at)}
                {o.dst ? <span class="dst"> {o.dst}</span> : null}
              </li>
            ))}
          </ol>
        )}
      </td>
      <td>{last === undefined ? '…' : last === null ? 'no runs' : <Badge state={last.state} />}</td>
    </>
  );
}

export function TasksScreen({ client, route }: ScreenProps) {
  const state = route.query.get('state') ?? '';
  const q = route.query.get('q') ?? '';
  const page = Math.max(0, Number(route.query.get('page') ?? 0) || 0);
  const tags = route.query.getAll('tag');
  const { data, error, loading, reload } = usePoll(
    () => allTasks(client, state || undefined, tags),
    [state, tags.join('\n')],
  );
  const operation = useBulkOperation(client);
  const sel = useSelection();
  const [notice, setNotice] = useState<string>();
  const [actionError, setActionError] = useState<unknown>();
  const filtered = (data ?? []).filter((t) => !q || t.name.toLowerCase().includes(q.toLowerCase()));
  const shown = filtered.slice(page * PAGE, page * PAGE + PAGE);
  const set = (changes: Record<string, string | string[] | undefined>) =>
    go('/tasks', { state, q, tag: tags, ...changes, page: changes.page ?? undefined });

  const bulk = async (action: 'pause' | 'resume') => {
    const ids = [...sel.selected];
    setActionError(undefined);
    const res = await forEachId(ids, (id) =>
      action === 'pause' ? client.pauseTask(id) : client.resumeTask(id),
    );
    setNotice(`${action === 'pause' ? 'Paused' : 'Resumed'} ${res.ok} of ${ids.length} tasks.`);
    if (res.failed.length) setActionError(res.failed[0]!.error);
    sel.clear();
    await reload();
  };

  return (
    <section aria-labelledby="h-tasks">
      <div class="title-row">
        <h1 id="h-tasks">Tasks</h1>
        <a class="button primary" href={href('/tasks/new')}>
          New task
        </a>
      </div>
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          State{' '}
          <select value={state} onChange={(e) => set({ state: e.currentTarget.value })}>
            <option value="">all</option>
            <option value="active">active</option>
            <option value="paused">paused</option>
          </select>
        </label>
        <label>
          Tags{' '}
          <FilterInput
            placeholder="team:billing, env:prod"
            value={tags.join(', ')}
            onCommit={(v) => set({ tag: parseTagInput(v) })}
          />
        </label>
        <label>
          Name contains <FilterInput type="search" value={q} onCommit={(v) => set({ q: v })} />
        </label>
        <span class="count" aria-live="polite">
          {loading ? 'Loading…' : `${filtered.length} task${filtered.length === 1 ? '' : 's'}`}
        </span>
      </form>
      <div class="toolbar">
        <button type="button" disabled={sel.selected.size === 0} onClick={() => bulk('pause')}>
          Pause selected
        </button>
        <button type="button" disabled={sel.selected.size === 0} onClick={() => bulk('resume')}>
          Resume selected
        </button>
        <span>{sel.selected.size} selected</span>
        {/* A bulk operation needs a filter the server knows: the tags (the name filter is the page's). */}
        {(['pause', 'resume'] as const).map((action) => (
          <button
            key={action}
            type="button"
            disabled={tags.length === 0}
            title={tags.length ? undefined : 'Filter by tags first'}
            onClick={() => operation.start(action, { tag: tags })}
          >
            {action === 'pause' ? 'Pause' : 'Resume'} all matching
          </button>
        ))}
      </div>
      {operation.dialog}
      <Notice text={notice} />
      <ErrorBanner error={error ?? actionError ?? operation.error} />
      <div class="table-wrap">
        <table>
          <caption class="sr-only">Tasks, page {page + 1}</caption>
          <thead>
            <tr>
              <th scope="col">
                <SelectAll ids={shown.map((t) => t.id)} sel={sel} label="Select all tasks on this page" />
              </th>
              <th scope="col">Name</th>
              <th scope="col">Schedule</th>
              <th scope="col">Zone</th>
              <th scope="col">Next 3 fire times</th>
              <th scope="col">Last run</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((t) => {
              const s = scheduleWords(t.schedule);
              return (
                <tr key={t.id}>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`Select ${t.name}`}
                      checked={sel.selected.has(t.id)}
                      onChange={() => sel.toggle(t.id)}
                    />
                  </td>
                  <td>
                    <a href={href(`/tasks/${t.id}`)}>{t.name}</a>
                    {t.state === 'paused' ? <Badge state="paused" /> : null}
                    <div class="sub" title={t.createdAt}>
                      created {ago(t.createdAt)}
                      {t.tags && Object.keys(t.tags).length ? ` · ${tagsText(t.tags)}` : ''}
                    </div>
                  </td>
                  <td>{s.words}</td>
                  <td>{s.zone}</td>
                  <RowExtras client={client} task={t} />
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {filtered.length > PAGE && (
        <nav class="pager" aria-label="Pages of tasks">
          <button type="button" disabled={page === 0} onClick={() => set({ page: String(page - 1) })}>
            Previous
          </button>
          <span>
            Page {page + 1} of {Math.ceil(filtered.length / PAGE)}
          </span>
          <button
            type="button"
            disabled={(page + 1) * PAGE >= filtered.length}
            onClick={() => set({ page: String(page + 1) })}
          >
            Next
          </button>
        </nav>
      )}
    </section>
  );
}
