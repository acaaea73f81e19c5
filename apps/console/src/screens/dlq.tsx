import type { Job } from '@dsched/client/browser';
import { useState } from 'preact/hooks';
import { when } from '../format.ts';
import type { ScreenProps } from '../main.tsx';
import { go, href } from '../router.ts';
import { ErrorBanner, Notice, SelectAll, useConfirm, usePoll, useSelection } from '../ui.tsx';
import { useBulkOperation } from './operations.tsx';

// The dead-letter queue: every dead job (paged from the API up to MAX), filtered by task and by
// the last error's text in the URL, counted; redrive the selection (by id, from here) or everything
// that matches, after a confirm. "All matching" is a bulk operation on the server, followed under
// Operations: the task, the error's text (`errorContains`, ignoring case, as the page matches it)
// and the time range the matching jobs span, since the text alone is not a filter.

const MAX = 10_000;

async function wholeDlq(client: ScreenProps['client']): Promise<{ jobs: Job[]; capped: boolean }> {
  const jobs: Job[] = [];
  for await (const j of client.dlq({ limit: 500 })) {
    jobs.push(j);
    if (jobs.length >= MAX) return { jobs, capped: true };
  }
  return { jobs, capped: false };
}

export function DlqScreen({ client, route }: ScreenProps) {
  const task = route.query.get('task') ?? '';
  const text = route.query.get('q') ?? '';
  const list = usePoll(() => wholeDlq(client), [], 5000);
  const sel = useSelection();
  const confirm = useConfirm();
  const [notice, setNotice] = useState<string>();
  const [error, setError] = useState<unknown>();
  const operation = useBulkOperation(client);
  const matching = (list.data?.jobs ?? []).filter(
    (j) =>
      (!task || j.taskId === task) &&
      (!text || (j.lastError ?? '').toLowerCase().includes(text.toLowerCase())),
  );
  const redriveMatching = () => {
    const times = matching.map((j) => Date.parse(j.scheduledFor));
    return operation.start('redrive', {
      state: 'dead',
      ...(task ? { taskId: task } : {}),
      ...(text ? { errorContains: text } : {}),
      ...(task && !text
        ? {}
        : {
            from: new Date(Math.min(...times)).toISOString(),
            to: new Date(Math.max(...times) + 1).toISOString(),
          }),
    });
  };
  const redrive = async (ids: string[], what: string) => {
    if (ids.length === 0) return;
    if (
      !(await confirm.ask(
        `Redrive ${what} (${ids.length} job${ids.length === 1 ? '' : 's'})? They run again from attempt 1.`,
      ))
    )
      return;
    setError(undefined);
    try {
      let count = 0;
      for (let i = 0; i < ids.length; i += 1000) {
        const r = await client.redrive({ jobIds: ids.slice(i, i + 1000) });
        count += r.count;
      }
      setNotice(`Redrove ${count} job${count === 1 ? '' : 's'}.`);
      sel.clear();
      await list.reload();
    } catch (e) {
      setError(e);
    }
  };
  const set = (k: string) => (e: Event) =>
    go('/dlq', { task, q: text, [k]: (e.currentTarget as HTMLInputElement).value });
  return (
    <section aria-labelledby="h-dlq">
      <h1 id="h-dlq">Dead-letter queue</h1>
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          Task id <input value={task} onChange={set('task')} />
        </label>
        <label>
          Error contains <input type="search" value={text} onChange={set('q')} />
        </label>
        <span class="count" aria-live="polite">
          {list.loading
            ? 'Loading…'
            : `${matching.length}${list.data?.capped ? '+' : ''} dead job${matching.length === 1 ? '' : 's'}`}
        </span>
      </form>
      <div class="toolbar">
        <button
          type="button"
          disabled={!sel.selected.size}
          onClick={() => redrive([...sel.selected], 'the selected jobs')}
        >
          Redrive selected
        </button>
        <button type="button" disabled={!matching.length} onClick={redriveMatching}>
          Redrive all matching
        </button>
        <span>{sel.selected.size} selected</span>
      </div>
      {confirm.dialog}
      {operation.dialog}
      <Notice text={notice} />
      <ErrorBanner error={list.error ?? error ?? operation.error} />
      <div class="table-wrap">
        <table>
          <caption class="sr-only">Dead jobs</caption>
          <thead>
            <tr>
              <th scope="col">
                <SelectAll ids={matching.map((j) => j.id)} sel={sel} label="Select all matching dead jobs" />
              </th>
              <th scope="col">Job</th>
              <th scope="col">Finished</th>
              <th scope="col">Attempts</th>
              <th scope="col">Last status</th>
              <th scope="col">Last error</th>
            </tr>
          </thead>
          <tbody>
            {matching.length === 0 ? (
              <tr>
                <td colSpan={6}>The queue is empty.</td>
              </tr>
            ) : null}
            {matching.slice(0, 200).map((j) => (
              <tr key={j.id}>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`Select dead job ${j.id}`}
                    checked={sel.selected.has(j.id)}
                    onChange={() => sel.toggle(j.id)}
                  />
                </td>
                <td>
                  <a href={href(`/runs/${j.id}`)}>
                    <code>{j.id}</code>
                  </a>
                  {j.taskId ? (
                    <div class="sub">
                      <a href={href('/dlq', { task: j.taskId })}>only this task</a>
                    </div>
                  ) : null}
                </td>
                <td>{when(j.finishedAt)}</td>
                <td>{j.attempt}</td>
                <td>{j.lastStatus ?? '—'}</td>
                <td class="err-text">{j.lastError ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {matching.length > 200 ? (
          <p class="sub">Showing 200 of {matching.length}; redrive all matching acts on every one.</p>
        ) : null}
      </div>
    </section>
  );
}
