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

/** Runs `load` now and every `everyMs` while the tab is visible (live screens). */
export function usePoll<T>(load: () => Promise<T>, deps: unknown[], everyMs = 0) {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [loading, setLoading] = useState(true);
  const latest = useRef(load);
  latest.current = load;
  const reload = useCallback(async () => {
    try {
      const value = await latest.current();
      setData(value);
      setError(undefined);
    } catch (e) {
      setError(e);
    } finally {
      setLoading(false);
    }
  }, []);
  useEffect(() => {
    setLoading(true);
    setData(undefined);
    void reload();
    if (!everyMs) return;
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') void reload();
    }, everyMs);
    return () => clearInterval(timer);
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
    <dialog ref={ref} aria-labelledby="confirm-text" onCancel={() => resolver.current(false)}>
      <p id="confirm-text">{text}</p>
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
