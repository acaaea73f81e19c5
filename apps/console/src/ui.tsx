import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { describeError } from './session.ts';

// The console's few shared pieces: a labelled field that shows the API's issue beside it, an
// error banner, state badges, selection of table rows, a confirm dialog, and polling.

let nextId = 0;
export function useId(prefix: string): string {
  const ref = useRef<string>('');
  if (!ref.current) ref.current = `${prefix}-${++nextId}`;
  return ref.current;
}

export function Field(props: {
  label: string;
  error?: string | undefined;
  hint?: string;
  children: (attrs: {
    id: string;
    'aria-invalid'?: 'true';
    'aria-describedby'?: string;
  }) => ComponentChildren;
}) {
  const id = useId('f');
  const described = [props.hint ? `${id}-hint` : '', props.error ? `${id}-err` : '']
    .filter(Boolean)
    .join(' ');
  return (
    <div class={`field${props.error ? ' invalid' : ''}`}>
      <label for={id}>{props.label}</label>
      {props.children({
        id,
        ...(props.error ? { 'aria-invalid': 'true' as const } : {}),
        ...(described ? { 'aria-describedby': described } : {}),
      })}
      {props.hint && (
        <small id={`${id}-hint`} class="hint">
          {props.hint}
        </small>
      )}
      {props.error && (
        <small id={`${id}-err`} class="field-error" role="alert">
          {props.error}
        </small>
      )}
    </div>
  );
}

export function ErrorBanner(props: { error: unknown }) {
  if (!props.error) return null;
  return (
    <p class="banner error" role="alert">
      {describeError(props.error)}
    </p>
  );
}

export function Notice(props: { text: string | undefined }) {
  return (
    <p class="banner ok" role="status" aria-live="polite">
      {props.text ?? ''}
    </p>
  );
}

export function Badge(props: { state: string }) {
  return <span class={`badge s-${props.state}`}>{props.state.replace('_', ' ')}</span>;
}

export interface PollOptions<T> {
  /** The interval after a load that brought something new; 0: load once (and on `reload`). */
  everyMs: number;
  /** Each unchanged answer stretches the interval by half, up to this (default: no stretching). */
  maxMs?: number;
  /** Stop once this holds of the data (a run that ended); a `reload` that finds it false resumes. */
  until?: (data: T) => boolean;
  /** Keep showing the last data while a change of `deps` loads (no flicker of a live table). */
  keep?: boolean;
}

/**
 * Loads now and again after each answer while the tab is visible: at `everyMs` after a change,
 * backing off to `maxMs` while nothing changes, not at all once `until` holds. A hidden tab stops
 * the timer; showing it again loads at once. (Polling rather than server-sent events: the APIs
 * hold no connection and coordinate only through MySQL, so a push would poll the database all the
 * same, per open tab, inside the API; docs/console.md "Live updates".)
 */
export function usePoll<T>(load: () => Promise<T>, deps: unknown[], every: number | PollOptions<T> = 0) {
  const options = typeof every === 'number' ? { everyMs: every } : every;
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [loading, setLoading] = useState(true);
  const latest = useRef(load);
  latest.current = load;
  const opts = useRef(options);
  opts.current = options;
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const delay = useRef(options.everyMs);
  const previous = useRef<string | undefined>(undefined);
  const done = useRef(false);
  const generation = useRef(0);
  const stop = () => {
    clearTimeout(timer.current);
    timer.current = undefined;
  };
  const reload = useCallback(async () => {
    const asked = generation.current;
    stop();
    let value: T | undefined;
    let failed = false;
    try {
      value = await latest.current();
    } catch (e) {
      failed = true;
      if (asked === generation.current) setError(e);
    }
    if (asked !== generation.current) return;
    setLoading(false);
    const o = opts.current;
    const stretched = Math.min(o.maxMs ?? o.everyMs, Math.round(delay.current * 1.5));
    if (!failed) {
      const text = JSON.stringify(value);
      delay.current = text === previous.current ? stretched : o.everyMs;
      previous.current = text;
      setData(value);
      setError(undefined);
      done.current = o.until?.(value as T) ?? false;
    } else delay.current = stretched;
    if (!o.everyMs || done.current || document.visibilityState !== 'visible') return;
    stop();
    timer.current = setTimeout(() => void reload(), delay.current);
  }, []);
  useEffect(() => {
    generation.current += 1;
    setLoading(true);
    if (!opts.current.keep) setData(undefined);
    delay.current = opts.current.everyMs;
    previous.current = undefined;
    done.current = false;
    void reload();
    const onVisibility = () => {
      if (document.visibilityState !== 'visible') stop();
      else if (opts.current.everyMs && !done.current && !timer.current) void reload();
    };
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      generation.current += 1;
      stop();
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, deps);
  return { data, error, loading, reload };
}

export function useSelection() {
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const toggle = (id: string) =>
    setSelected((s) => {
      const n = new Set(s);
      if (n.has(id)) n.delete(id);
      else n.add(id);
      return n;
    });
  const setAll = (ids: string[], on: boolean) => setSelected(on ? new Set(ids) : new Set());
  return { selected, toggle, setAll, clear: () => setSelected(new Set()) };
}

export function SelectAll(props: { ids: string[]; sel: ReturnType<typeof useSelection>; label: string }) {
  const all = props.ids.length > 0 && props.ids.every((id) => props.sel.selected.has(id));
  return (
    <input
      type="checkbox"
      aria-label={props.label}
      checked={all}
      onChange={(e) => props.sel.setAll(props.ids, (e.target as HTMLInputElement).checked)}
    />
  );
}

/** A native modal dialog: focus moves into it, Escape cancels. */
export function useConfirm() {
  const ref = useRef<HTMLDialogElement>(null);
  const [text, setText] = useState('');
  // Its own id: a screen may hold two (its own confirm and a bulk operation's).
  const textId = useId('confirm-text');
  const resolver = useRef<(ok: boolean) => void>(() => {});
  const ask = (message: string) =>
    new Promise<boolean>((resolve) => {
      setText(message);
      resolver.current = resolve;
      ref.current?.showModal();
    });
  const close = (ok: boolean) => {
    ref.current?.close();
    resolver.current(ok);
  };
  const dialog = (
    <dialog ref={ref} aria-labelledby={textId} onCancel={() => resolver.current(false)}>
      <p id={textId}>{text}</p>
      <div class="actions">
        <button type="button" class="primary" onClick={() => close(true)}>
          Confirm
        </button>
        <button type="button" onClick={() => close(false)}>
          Cancel
        </button>
      </div>
    </dialog>
  );
  return { ask, dialog };
}

/** Runs `fn` over the ids, a few at a time, and says how many succeeded. */
export async function forEachId(ids: string[], fn: (id: string) => Promise<unknown>) {
  let ok = 0;
  const failed: { id: string; error: unknown }[] = [];
  const queue = [...ids];
  const worker = async () => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      try {
        await fn(id);
        ok++;
      } catch (error) {
        failed.push({ id, error });
      }
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  return { ok, failed };
}

/** Previous and Next over a keyset list: the tokens of the pages walked so far, the last one shown. */
export function Pager(props: {
  label: string;
  tokens: string[];
  setTokens: (tokens: string[]) => void;
  next: string | undefined;
}) {
  const { tokens, setTokens, next } = props;
  return (
    <nav class="pager" aria-label={props.label}>
      <button type="button" disabled={tokens.length === 0} onClick={() => setTokens(tokens.slice(0, -1))}>
        Previous
      </button>
      <button type="button" disabled={!next} onClick={() => next && setTokens([...tokens, next])}>
        Next
      </button>
    </nav>
  );
}

/**
 * A list's filter field: what is typed is the field's own until it is committed (on change: blur or
 * Enter), and a new value from the URL replaces it. A field whose value came straight from the URL
 * lost what was being typed whenever the list's poll re-rendered the screen.
 */
export function FilterInput(props: {
  value: string;
  onCommit: (value: string) => void;
  placeholder?: string;
  size?: number;
  type?: string;
}) {
  const { value, onCommit, ...rest } = props;
  const [draft, setDraft] = useState(value);
  // A new value from the URL replaces the draft, in the render that brings it (an effect runs
  // after paint, and could take back what was typed meanwhile).
  const [shown, setShown] = useState(value);
  if (value !== shown) {
    setShown(value);
    setDraft(value);
  }
  return (
    <input
      {...rest}
      value={draft}
      onInput={(e) => setDraft(e.currentTarget.value)}
      onChange={(e) => onCommit(e.currentTarget.value)}
    />
  );
}
