import { DschedApiError, DschedClient } from '@dsched/client/browser';
import { useEffect, useState } from 'preact/hooks';
import { configuredTaskApi, type Session } from '../session.ts';
import { ErrorBanner, Field } from '../ui.tsx';

// Sign in with a tenant's API key, the admin token (operator view), or both. Each is checked
// against the API before it is kept (in sessionStorage, for this tab only).

export function SignIn(props: { onSignIn: (s: Session) => void }) {
  const [apiKey, setApiKey] = useState('');
  const [adminToken, setAdminToken] = useState('');
  const [taskApi, setTaskApi] = useState('');
  const [error, setError] = useState<unknown>();
  const [fields, setFields] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    void configuredTaskApi().then((url) => url && setTaskApi((v) => v || url));
  }, []);

  const submit = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    const problems: Record<string, string> = {};
    if (!apiKey && !adminToken) problems.apiKey = 'enter an API key or the admin token';
    if (!URL.canParse(taskApi)) problems.taskApi = 'enter task-api’s URL, e.g. http://127.0.0.1:8080';
    setFields(problems);
    if (Object.keys(problems).length) return;
    setBusy(true);
    const client = new DschedClient({
      taskApi,
      jobApi: location.origin,
      apiKey: apiKey || undefined,
      adminToken: adminToken || undefined,
      retries: 0,
    });
    try {
      if (apiKey) await client.listTasks({ limit: 1 });
      if (adminToken) {
        // An unknown tenant id answers 404 to the operator and 401 to anyone else.
        await client.getTenant('00000000-0000-7000-8000-000000000000').catch((err: unknown) => {
          if (!(err instanceof DschedApiError && err.status === 404)) throw err;
        });
      }
      props.onSignIn({ taskApi, ...(apiKey ? { apiKey } : {}), ...(adminToken ? { adminToken } : {}) });
    } catch (err) {
      if (err instanceof DschedApiError && err.status === 401)
        setFields({ [adminToken && !apiKey ? 'adminToken' : 'apiKey']: 'not accepted by the API (401)' });
      else setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main id="main" class="signin">
      <h1>Sign in to dsched</h1>
      <form onSubmit={submit} noValidate>
        <Field label="Tenant API key" error={fields.apiKey} hint="Kept in this tab’s session storage only.">
          {(a) => (
            <input
              {...a}
              type="password"
              autoComplete="off"
              value={apiKey}
              onInput={(e) => setApiKey(e.currentTarget.value)}
            />
          )}
        </Field>
        <Field label="Admin token (operator view)" error={fields.adminToken}>
          {(a) => (
            <input
              {...a}
              type="password"
              autoComplete="off"
              value={adminToken}
              onInput={(e) => setAdminToken(e.currentTarget.value)}
            />
          )}
        </Field>
        <Field label="task-api URL" error={fields.taskApi}>
          {(a) => (
            <input {...a} type="url" value={taskApi} onInput={(e) => setTaskApi(e.currentTarget.value)} />
          )}
        </Field>
        <ErrorBanner error={error} />
        <button class="primary" type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
    </main>
  );
}
