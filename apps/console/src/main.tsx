import type { DschedClient } from '@dsched/client/browser';
import { render } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { href, type Route, useRoute } from './router.ts';
import { DlqScreen } from './screens/dlq.tsx';
import { OperationsScreen } from './screens/operations.tsx';
import { OverviewScreen } from './screens/overview.tsx';
import { RunDetailScreen } from './screens/run-detail.tsx';
import { RunsScreen } from './screens/runs.tsx';
import { SignIn } from './screens/sign-in.tsx';
import { TaskDetailScreen } from './screens/task-detail.tsx';
import { TaskFormScreen } from './screens/task-form.tsx';
import { TasksScreen } from './screens/tasks.tsx';
import { TenantsScreen } from './screens/tenants.tsx';
import { WorkflowsScreen } from './screens/workflows.tsx';
import { clientFor, loadSession, type Session, saveSession } from './session.ts';

// The console: sign in, then one screen per hash route. Tenant screens need an API key; the
// Tenants screen needs the admin token.

const TENANT_NAV = [
  ['overview', 'Overview'],
  ['tasks', 'Tasks'],
  ['runs', 'Runs'],
  ['dlq', 'DLQ'],
  ['workflows', 'Workflows'],
  ['operations', 'Operations'],
] as const;

export interface ScreenProps {
  client: DschedClient;
  route: Route;
  session: Session;
}

function Screen(props: ScreenProps) {
  const [first = 'overview', id, sub] = props.route.path;
  if (first === 'tenants') return <TenantsScreen {...props} />;
  if (!props.session.apiKey)
    return (
      <p class="banner">Signed in with the admin token only: the tenant screens need a tenant API key.</p>
    );
  switch (first) {
    case 'tasks':
      if (id === 'new') return <TaskFormScreen {...props} />;
      if (id && sub === 'edit') return <TaskFormScreen {...props} taskId={id} />;
      if (id) return <TaskDetailScreen {...props} taskId={id} />;
      return <TasksScreen {...props} />;
    case 'runs':
      return id ? <RunDetailScreen {...props} jobId={id} /> : <RunsScreen {...props} />;
    case 'dlq':
      return <DlqScreen {...props} />;
    case 'workflows':
      return <WorkflowsScreen {...props} workflowId={id} />;
    case 'operations':
      return <OperationsScreen {...props} />;
    default:
      return <OverviewScreen {...props} />;
  }
}

function App() {
  const [session, setSession] = useState<Session | undefined>(loadSession);
  const route = useRoute();
  const client = useMemo(() => (session ? clientFor(session) : undefined), [session]);
  const first = route.path[0] ?? 'overview';
  useEffect(() => {
    document.title = `${first[0]!.toUpperCase()}${first.slice(1)} · dsched console`;
    document.getElementById('main')?.focus();
  }, [first]);
  if (!session || !client) {
    return (
      <SignIn
        onSignIn={(s) => {
          saveSession(s);
          setSession(s);
        }}
      />
    );
  }
  const nav = [
    ...(session.apiKey ? TENANT_NAV : []),
    ...(session.adminToken ? [['tenants', 'Tenants'] as const] : []),
  ];
  return (
    <>
      <button type="button" class="skip" onClick={() => document.getElementById('main')?.focus()}>
        Skip to content
      </button>
      <header>
        <span class="brand">dsched</span>
        <nav aria-label="Screens">
          <ul>
            {nav.map(([path, label]) => (
              <li key={path}>
                <a href={href(`/${path}`)} aria-current={first === path ? 'page' : undefined}>
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <span class="who">{session.apiKey ? 'tenant' : 'operator'}</span>
        <button
          type="button"
          class="signout"
          onClick={() => {
            saveSession(undefined);
            setSession(undefined);
          }}
        >
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        <Screen client={client} route={route} session={session} />
      </main>
    </>
  );
}

const root = document.getElementById('app')!;
root.textContent = '';
render(<App />, root);
