import type { Tenant } from '@dsched/client/browser';
import { useState } from 'preact/hooks';
import { when } from '../format.ts';
import type { ScreenProps } from '../main.tsx';
import { go } from '../router.ts';
import { fieldErrors } from '../session.ts';
import { ErrorBanner, Field, Notice, useConfirm } from '../ui.tsx';

// The operator's tenants: create one (its key and signing secret shown once), open one by id,
// change its quotas, rotate its key. The weight is shown when the API returns one.

type Quotas = { maxConcurrency: string; maxTasks: string; rateLimitPerSecond: string };

const num = (v: string) => (v.trim() === '' ? null : Number(v));

export function TenantsScreen({ client, route, session }: ScreenProps) {
  const id = route.path[1];
  const [name, setName] = useState('');
  const [created, setCreated] = useState<{ id: string; apiKey: string; signingSecret: string }>();
  const [lookup, setLookup] = useState(id ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>();
  if (!session.adminToken)
    return <p class="banner">The Tenants screen needs the admin token: sign in again with it.</p>;
  return (
    <section aria-labelledby="h-tenants">
      <h1 id="h-tenants">Tenants</h1>
      <div class="columns">
        <form
          class="card"
          aria-labelledby="h-new-tenant"
          onSubmit={async (e) => {
            e.preventDefault();
            try {
              const t = await client.createTenant({ name });
              setCreated(t);
              setErrors({});
              setError(undefined);
            } catch (err) {
              setErrors(fieldErrors(err));
              setError(err);
            }
          }}
        >
          <h2 id="h-new-tenant">New tenant</h2>
          <Field label="Tenant name" error={errors.name}>
            {(a) => <input {...a} value={name} onInput={(e) => setName(e.currentTarget.value)} />}
          </Field>
          <button class="primary" type="submit">
            Create tenant
          </button>
          {created ? (
            <div class="banner ok" role="status">
              <p>
                Created <code>{created.id}</code>. Shown once:
              </p>
              <p>
                API key <code>{created.apiKey}</code>
              </p>
              <p>
                Signing secret <code>{created.signingSecret}</code>
              </p>
            </div>
          ) : null}
        </form>
        <form
          class="card"
          aria-labelledby="h-open-tenant"
          onSubmit={(e) => {
            e.preventDefault();
            if (lookup.trim()) go(`/tenants/${lookup.trim()}`);
          }}
        >
          <h2 id="h-open-tenant">Open a tenant</h2>
          <Field label="Tenant id">
            {(a) => <input {...a} value={lookup} onInput={(e) => setLookup(e.currentTarget.value)} />}
          </Field>
          <button type="submit">Open</button>
        </form>
      </div>
      <ErrorBanner error={error} />
      {id ? <TenantView client={client} id={id} key={id} /> : null}
    </section>
  );
}

function TenantView({ client, id }: { client: ScreenProps['client']; id: string }) {
  const [tenant, setTenant] = useState<Tenant>();
  const [quotas, setQuotas] = useState<Quotas>({ maxConcurrency: '', maxTasks: '', rateLimitPerSecond: '' });
  const [loaded, setLoaded] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>();
  const [notice, setNotice] = useState<string>();
  const confirm = useConfirm();
  const show = (t: Tenant) => {
    setTenant(t);
    const s = (v: number | null | undefined) => (v === null || v === undefined ? '' : String(v));
    setQuotas({
      maxConcurrency: s(t.maxConcurrency),
      maxTasks: s(t.maxTasks),
      rateLimitPerSecond: s(t.rateLimitPerSecond),
    });
  };
  if (!loaded) {
    setLoaded(true);
    void client.getTenant(id).then(show).catch(setError);
  }
  if (!tenant) return <ErrorBanner error={error} />;
  const weight = (tenant as Tenant & { weight?: number }).weight;
  const set = (k: keyof Quotas) => (e: Event) =>
    setQuotas({ ...quotas, [k]: (e.currentTarget as HTMLInputElement).value });
  return (
    <section aria-labelledby="h-tenant" class="card">
      <h2 id="h-tenant">
        {tenant.name} <code>{tenant.id}</code>
      </h2>
      <p class="sub">
        Created {when(tenant.createdAt)}
        {weight !== undefined ? ` · weight ${weight}` : ''}
      </p>
      {confirm.dialog}
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          try {
            show(
              await client.updateTenant(tenant.id, {
                maxConcurrency: num(quotas.maxConcurrency),
                maxTasks: num(quotas.maxTasks),
                rateLimitPerSecond: num(quotas.rateLimitPerSecond),
              } as never),
            );
            setErrors({});
            setError(undefined);
            setNotice('Quotas saved.');
          } catch (err) {
            setErrors(fieldErrors(err));
            setError(err);
          }
        }}
      >
        <Field label="Max concurrency (empty: no limit)" error={errors.maxConcurrency}>
          {(a) => (
            <input {...a} type="number" value={quotas.maxConcurrency} onInput={set('maxConcurrency')} />
          )}
        </Field>
        <Field label="Max tasks (empty: no limit)" error={errors.maxTasks}>
          {(a) => <input {...a} type="number" value={quotas.maxTasks} onInput={set('maxTasks')} />}
        </Field>
        <Field label="Rate limit per second (empty: no limit)" error={errors.rateLimitPerSecond}>
          {(a) => (
            <input
              {...a}
              type="number"
              value={quotas.rateLimitPerSecond}
              onInput={set('rateLimitPerSecond')}
            />
          )}
        </Field>
        <div class="actions">
          <button class="primary" type="submit">
            Save quotas
          </button>
          <button
            type="button"
            class="danger"
            onClick={async () => {
              if (
                !(await confirm.ask(
                  `Rotate the API key of ${tenant.name}? The old key keeps working for the grace period.`,
                ))
              )
                return;
              try {
                const r = (await client.rotateKey(tenant.id)) as { apiKey?: string };
                setNotice(`New API key (shown once): ${r.apiKey ?? JSON.stringify(r)}`);
              } catch (err) {
                setError(err);
              }
            }}
          >
            Rotate key
          </button>
        </div>
      </form>
      <Notice text={notice} />
      <ErrorBanner error={error} />
    </section>
  );
}
