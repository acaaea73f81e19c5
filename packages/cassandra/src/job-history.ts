import type { JobView } from '@dsched/domain';
import cassandra from 'cassandra-driver';

const { Uuid, LocalDate } = cassandra.types;

// History writes are upserts keyed by the job id (and its scheduled time), so writing a job twice
// (an archiver that crashed before its MySQL delete) leaves one row in each table.

export interface HistoryRecord {
  tenantId: string;
  view: JobView;
}

const INSERT_BY_ID =
  'INSERT INTO jobs_by_id (id, tenant_id, task_id, scheduled_for, state, doc) VALUES (?, ?, ?, ?, ?, ?) USING TTL ?';
const INSERT_RUN =
  'INSERT INTO runs_by_task (tenant_id, task_id, day, scheduled_for, id, state, doc) VALUES (?, ?, ?, ?, ?, ?, ?) USING TTL ?';
const INSERT_BY_TENANT =
  'INSERT INTO jobs_by_tenant (tenant_id, day, scheduled_for, id, task_id, state) VALUES (?, ?, ?, ?, ?, ?) USING TTL ?';

export function utcDay(iso: string): cassandra.types.LocalDate {
  return LocalDate.fromString(iso.slice(0, 10));
}

export async function writeJobHistory(
  client: cassandra.Client,
  records: HistoryRecord[],
  options: { ttlSeconds: number; concurrency: number },
): Promise<void> {
  if (records.length === 0) return;
  const statements: { query: string; params: unknown[] }[] = [];
  for (const { tenantId, view } of records) {
    const id = Uuid.fromString(view.id);
    const tenant = Uuid.fromString(tenantId);
    const task = view.taskId ? Uuid.fromString(view.taskId) : null;
    const scheduled = new Date(view.scheduledFor);
    const doc = JSON.stringify(view);
    statements.push({
      query: INSERT_BY_ID,
      params: [id, tenant, task, scheduled, view.state, doc, options.ttlSeconds],
    });
    if (task) {
      statements.push({
        query: INSERT_RUN,
        params: [tenant, task, utcDay(view.scheduledFor), scheduled, id, view.state, doc, options.ttlSeconds],
      });
    }
    statements.push({
      query: INSERT_BY_TENANT,
      params: [tenant, utcDay(view.scheduledFor), scheduled, id, task, view.state, options.ttlSeconds],
    });
  }
  await cassandra.concurrent.executeConcurrent(client, statements, {
    concurrencyLevel: options.concurrency,
    raiseOnFirstError: true,
  });
}

/** An archived job of a tenant, or null (another tenant's job is not found either). */
export async function getArchivedJob(
  client: cassandra.Client,
  tenantId: string,
  id: string,
): Promise<JobView | null> {
  const res = await client.execute('SELECT tenant_id, doc FROM jobs_by_id WHERE id = ?', [
    Uuid.fromString(id),
  ]);
  const row = res.first();
  if (!row || row.get('tenant_id')?.toString() !== tenantId) return null;
  return JSON.parse(row.get('doc')) as JobView;
}
