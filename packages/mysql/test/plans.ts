import { readdirSync } from 'node:fs';
import type { Pool, RowDataPacket } from 'mysql2/promise';
import { clockedSql, loadSql } from '../src/sql.ts';

const JOBS_DIR = new URL('../src/jobs/', import.meta.url);

/**
 * A statement of src/jobs by its file name (names are unique across its subsystem folders), as
 * production sends it: a `:now` marker read as NOW(3) (clockedSql).
 */
export function jobsSql(file: string): string {
  const name = file.replace(/^\.\//, '');
  const path = readdirSync(JOBS_DIR, { recursive: true, encoding: 'utf8' }).find(
    (p) => p === name || p.endsWith(`/${name}`),
  );
  if (!path) throw new Error(`no statement ${name} under src/jobs`);
  const sql = loadSql(JOBS_DIR.href, path);
  return sql.includes(':now') ? clockedSql(sql)() : sql;
}

/**
 * Whether an EXPLAIN FORMAT=JSON plan sorts rows: MariaDB nests the sorted part in `filesort` (and
 * `read_sorted_file`), MySQL (format version 1, the stack's `--explain-json-format-version=1`)
 * marks each ordering step `"using_filesort": true` and prints `false` where the index gives the
 * order, so the text alone says nothing on MySQL.
 */
export function planSorts(plan: unknown): boolean {
  if (!plan || typeof plan !== 'object') return false;
  const o = plan as Record<string, unknown>;
  if ('filesort' in o || 'read_sorted_file' in o || o.using_filesort === true) return true;
  return Object.values(o).some(planSorts);
}

/** Every table node of a parsed EXPLAIN FORMAT=JSON plan, by alias (the first of each). */
export function planTableNodes(plan: unknown): Map<string, Record<string, unknown>> {
  const tables = new Map<string, Record<string, unknown>>();
  const collect = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    const o = node as Record<string, unknown>;
    if (typeof o.table_name === 'string' && !tables.has(o.table_name)) tables.set(o.table_name, o);
    for (const v of Object.values(o)) collect(v);
  };
  collect(plan);
  return tables;
}

/**
 * EXPLAIN FORMAT=JSON of a statement of src/jobs (by file name): its JSON text, the table node of its plan
 * wherever it sits (a filesort wraps it in read_sorted_file), every table node by alias (for a
 * statement of several tables: derived tables, subqueries), and whether it sorts (planSorts).
 */
export async function explainJobsStatement(
  pool: Pool,
  file: string,
  params: unknown[],
): Promise<{
  table: Record<string, unknown>;
  tables: Map<string, Record<string, unknown>>;
  json: string;
  filesort: boolean;
}> {
  const [p] = await pool.query<RowDataPacket[]>(`EXPLAIN FORMAT=JSON ${jobsSql(file)}`, params);
  const json = String(p[0]!.EXPLAIN);
  const find = (node: unknown): Record<string, unknown> | undefined => {
    if (!node || typeof node !== 'object') return undefined;
    const o = node as Record<string, unknown>;
    const t = o.table as Record<string, unknown> | undefined;
    if (t && typeof t === 'object' && 'table_name' in t) return t;
    for (const v of Object.values(o)) {
      const hit = find(v);
      if (hit) return hit;
    }
    return undefined;
  };
  const parsed = JSON.parse(json);
  const tables = planTableNodes(parsed);
  const table = find(parsed);
  if (!table) throw new Error(`no table in the plan of ${file}`);
  return { table, tables, json, filesort: planSorts(parsed) };
}
