import type { CreateTaskRequest, OccurrencePreview, Task } from '@dsched/client/browser';
import { useEffect, useState } from 'preact/hooks';
import { fromLocalInput, toLocalInput, when } from '../format.ts';
import type { ScreenProps } from '../main.tsx';
import { go } from '../router.ts';
import { fieldErrors } from '../session.ts';
import { ErrorBanner, Field } from '../ui.tsx';

// Create or edit a task. Every field the API names in a 400's details is shown beside its input;
// the schedule is previewed as it is typed, in words or cron (POST /v1/schedules/preview: the
// API's sentence for it and the planner's next fires, calendar applied).

interface Form {
  name: string;
  type: 'text' | 'cron' | 'once' | 'interval';
  text: string;
  expression: string;
  timezone: string;
  at: string;
  every: string;
  holidays: string;
  weekends: boolean;
  onExcluded: 'skip' | 'next_business_day' | 'previous_business_day';
  /** Dates a saved calendar lists: kept as they are (the form does not edit them). */
  dates: string[];
  url: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body: string;
  priority: 'critical' | 'high' | 'normal' | 'low';
  maxAttempts: string;
}

const EMPTY: Form = {
  name: '',
  type: 'cron',
  text: 'every weekday at 9am',
  expression: '0 9 * * 1-5',
  timezone: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC',
  at: toLocalInput(new Date(Date.now() + 3600_000)),
  every: '1h',
  holidays: '',
  weekends: false,
  onExcluded: 'skip',
  dates: [],
  url: '',
  method: 'POST',
  body: '',
  priority: 'normal',
  maxAttempts: '5',
};

function fromTask(t: Task): Form {
  const s = t.schedule;
  const calendar = s.type !== 'once' ? s.calendar : undefined;
  return {
    ...EMPTY,
    name: t.name,
    // A schedule given in words is edited in words.
    type: s.text ? 'text' : s.type,
    ...(s.text ? { text: s.text } : {}),
    ...(calendar
      ? {
          holidays: calendar.holidays ?? '',
          weekends: calendar.weekends ?? false,
          onExcluded: calendar.onExcluded,
          dates: calendar.dates ?? [],
        }
      : {}),
    ...(s.type === 'cron' ? { expression: s.expression, timezone: s.timezone } : {}),
    ...(s.type === 'once' ? { at: toLocalInput(new Date(s.at)) } : {}),
    ...(s.type === 'interval' ? { every: s.every } : {}),
    url: t.target?.url ?? '',
    method: t.target?.method ?? 'POST',
    body: t.target?.body === undefined ? '' : JSON.stringify(t.target.body, null, 2),
    priority: t.priority,
    maxAttempts: String(t.retry.maxAttempts),
  };
}

type Calendar = NonNullable<Extract<CreateTaskRequest['schedule'], { type: 'cron' }>['calendar']>;

function calendarOf(f: Form): { calendar?: Calendar } {
  if (!f.holidays.trim() && !f.weekends && f.dates.length === 0) return {};
  return {
    calendar: {
      ...(f.holidays.trim() ? { holidays: f.holidays.trim() } : {}),
      ...(f.weekends ? { weekends: true } : {}),
      ...(f.dates.length ? { dates: f.dates } : {}),
      onExcluded: f.onExcluded,
    },
  };
}

function scheduleOf(f: Form): CreateTaskRequest['schedule'] {
  if (f.type === 'text') return { type: 'text', text: f.text, timezone: f.timezone, ...calendarOf(f) };
  if (f.type === 'cron')
    return { type: 'cron', expression: f.expression, timezone: f.timezone, ...calendarOf(f) };
  if (f.type === 'once') return { type: 'once', at: f.at ? fromLocalInput(f.at) : '' };
  return { type: 'interval', every: f.every, ...calendarOf(f) };
}

export function TaskFormScreen({ client, taskId }: ScreenProps & { taskId?: string }) {
  const [form, setForm] = useState<Form>(EMPTY);
  const [task, setTask] = useState<Task>();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>();
  const [preview, setPreview] = useState<OccurrencePreview>();
  const [previewError, setPreviewError] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!taskId) return;
    void client
      .getTask(taskId)
      .then((t) => {
        setTask(t);
        setForm(fromTask(t));
      })
      .catch(setError);
  }, [taskId]);

  const schedule = scheduleOf(form);
  const scheduleKey = JSON.stringify(schedule);
  useEffect(() => {
    const timer = setTimeout(() => {
      client
        .previewSchedule({ schedule, count: 3 })
        .then((p) => {
          setPreview(p);
          setPreviewError({});
        })
        .catch((e: unknown) => {
          setPreview(undefined);
          setPreviewError(fieldErrors(e));
        });
    }, 300);
    return () => clearTimeout(timer);
  }, [scheduleKey]);

  const set = (k: keyof Form) => (e: Event) => {
    const input = e.currentTarget as HTMLInputElement;
    setForm({ ...form, [k]: input.type === 'checkbox' ? input.checked : input.value } as Form);
  };
  const err = (field: string) => errors[field];

  const submit = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    let body: unknown;
    if (form.body.trim()) {
      try {
        body = JSON.parse(form.body);
      } catch (parseError) {
        setErrors({ 'target.body': `not JSON: ${(parseError as Error).message}` });
        return;
      }
    }
    const request: CreateTaskRequest = {
      name: form.name,
      schedule,
      target: { url: form.url, method: form.method, ...(body !== undefined ? { body } : {}) },
      priority: form.priority,
      retry: { maxAttempts: Number(form.maxAttempts) },
    };
    setBusy(true);
    try {
      const saved = task
        ? await client.updateTask(task.id, request, { ifMatch: task.version })
        : await client.createTask(request);
      go(`/tasks/${saved.id}`);
    } catch (e2) {
      const byField = fieldErrors(e2);
      setErrors(byField);
      const known = [
        'name',
        'schedule',
        'schedule.text',
        'schedule.calendar.holidays',
        'schedule.expression',
        'schedule.timezone',
        'schedule.at',
        'schedule.every',
        'target.url',
        'target.method',
        'target.body',
        'priority',
        'retry.maxAttempts',
      ];
      if (Object.keys(byField).some((f) => !known.includes(f)) || Object.keys(byField).length === 0)
        setError(e2);
    } finally {
      setBusy(false);
    }
  };

  const fires = preview?.occurrences.filter((o) => o.fires).slice(0, 3) ?? [];
  return (
    <section aria-labelledby="h-form">
      <h1 id="h-form">{task ? `Edit ${task.name}` : 'New task'}</h1>
      <form class="task-form" onSubmit={submit} noValidate>
        <Field label="Name" error={err('name')}>
          {(a) => <input {...a} value={form.name} onInput={set('name')} required />}
        </Field>
        <fieldset>
          <legend>Schedule</legend>
          <Field label="Kind" error={err('schedule.type')}>
            {(a) => (
              <select {...a} value={form.type} onChange={set('type')}>
                <option value="text">in words</option>
                <option value="cron">cron (wall clock in a zone)</option>
                <option value="once">once</option>
                <option value="interval">interval (elapsed time)</option>
              </select>
            )}
          </Field>
          {form.type === 'text' && (
            <Field
              label="When, in words"
              error={err('schedule.text') ?? previewError['schedule.text']}
              hint="every weekday at 9am · on the last day of every month at 23:00 · tomorrow at 5pm"
            >
              {(a) => <input {...a} value={form.text} onInput={set('text')} />}
            </Field>
          )}
          {form.type === 'cron' && (
            <Field
              label="Cron expression"
              error={err('schedule.expression') ?? previewError['schedule.expression']}
              hint="minute hour day-of-month month day-of-week"
            >
              {(a) => <input {...a} value={form.expression} onInput={set('expression')} />}
            </Field>
          )}
          {(form.type === 'cron' || form.type === 'text') && (
            <Field
              label="Time zone"
              error={err('schedule.timezone') ?? previewError['schedule.timezone']}
              hint="IANA name, e.g. Europe/Berlin"
            >
              {(a) => <input {...a} value={form.timezone} onInput={set('timezone')} />}
            </Field>
          )}
          {form.type === 'once' && (
            <Field label="At (your time zone)" error={err('schedule.at')}>
              {(a) => <input {...a} type="datetime-local" value={form.at} onInput={set('at')} />}
            </Field>
          )}
          {form.type === 'interval' && (
            <Field
              label="Every"
              error={err('schedule.every') ?? previewError['schedule.every']}
              hint="e.g. 90m, 1h30m, 7d"
            >
              {(a) => <input {...a} value={form.every} onInput={set('every')} />}
            </Field>
          )}
          {form.type !== 'once' && (
            <div class="calendar-fields">
              <Field
                label="Holidays (country or region)"
                error={err('schedule.calendar.holidays') ?? previewError['schedule.calendar.holidays']}
                hint="no runs on public holidays, e.g. DE-BE, US-CA, GB"
              >
                {(a) => <input {...a} value={form.holidays} onInput={set('holidays')} />}
              </Field>
              <label class="check">
                <input type="checkbox" checked={form.weekends} onChange={set('weekends')} /> No runs on
                weekends
              </label>
              <Field label="A run on an excluded day" error={err('schedule.calendar.onExcluded')}>
                {(a) => (
                  <select {...a} value={form.onExcluded} onChange={set('onExcluded')}>
                    <option value="skip">is skipped</option>
                    <option value="next_business_day">moves to the next business day</option>
                    <option value="previous_business_day">moves to the previous business day</option>
                  </select>
                )}
              </Field>
            </div>
          )}
          <div class="preview" aria-live="polite">
            <h2>Next fire times</h2>
            {preview ? <p class="sentence">{preview.description}</p> : null}
            {fires.length ? (
              <ol class="next-fires">
                {fires.map((o) => (
                  <li key={o.at}>
                    {when(o.at)}{' '}
                    <span class="sub">
                      ({o.localTime} {o.utcOffset} in {preview!.timezone})
                    </span>
                    {o.dst ? <span class="dst"> {o.dst}</span> : null}
                    {o.calendar === 'moved' ? <span class="dst"> moved</span> : null}
                  </li>
                ))}
              </ol>
            ) : (
              <p class="sub">{Object.keys(previewError).length ? 'The schedule is not valid yet.' : '—'}</p>
            )}
          </div>
        </fieldset>
        <fieldset>
          <legend>Target</legend>
          <Field label="URL" error={err('target.url')}>
            {(a) => <input {...a} type="url" value={form.url} onInput={set('url')} />}
          </Field>
          <Field label="Method" error={err('target.method')}>
            {(a) => (
              <select {...a} value={form.method} onChange={set('method')}>
                {['POST', 'GET', 'PUT', 'PATCH', 'DELETE'].map((m) => (
                  <option key={m}>{m}</option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Body (JSON, optional)" error={err('target.body')}>
            {(a) => <textarea {...a} rows={4} value={form.body} onInput={set('body')} />}
          </Field>
        </fieldset>
        <fieldset>
          <legend>Delivery</legend>
          <Field label="Priority" error={err('priority')}>
            {(a) => (
              <select {...a} value={form.priority} onChange={set('priority')}>
                {['critical', 'high', 'normal', 'low'].map((p) => (
                  <option key={p}>{p}</option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Max attempts" error={err('retry.maxAttempts')}>
            {(a) => (
              <input {...a} type="number" min={1} value={form.maxAttempts} onInput={set('maxAttempts')} />
            )}
          </Field>
        </fieldset>
        {error ? <ErrorBanner error={error} /> : null}
        {Object.keys(errors).length > 0 && !error ? (
          <p class="banner error" role="alert">
            The API refused {Object.keys(errors).length} field{Object.keys(errors).length === 1 ? '' : 's'}:{' '}
            {Object.keys(errors).join(', ')}
          </p>
        ) : null}
        <div class="actions">
          <button class="primary" type="submit" disabled={busy}>
            {task ? 'Save' : 'Create task'}
          </button>
          <a class="button" href={task ? `#/tasks/${task.id}` : '#/tasks'}>
            Cancel
          </a>
        </div>
      </form>
    </section>
  );
}
