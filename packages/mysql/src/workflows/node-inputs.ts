import {
  type ClaimedJob,
  inlineInputsBody,
  inlineInputsBytes,
  MAX_INLINE_PARENTS,
  nodeParentsUrl,
  pagedInputsBody,
} from '@dsched/domain';
import type { Pool, RowDataPacket } from 'mysql2/promise';
import { binToId, idToBin } from '../ids.ts';
import { loadSql } from '../sql.ts';

const INPUTS_SELECT = loadSql(import.meta.url, './node-inputs-select.sql');
const INPUTS_SIZES = loadSql(import.meta.url, './node-inputs-sizes.sql');
const INPUTS_OUTPUTS = loadSql(import.meta.url, './node-inputs-outputs.sql');

export interface NodeInputsOptions {
  /** The executor's request body cap: inline inputs must fit under it, or the node gets the URL. */
  maxRequestBytes: number;
  /** task-api's base URL, for a fan-in's paged list of parents. */
  taskApiUrl: string;
}

const key = (workflowId: string, nodeId: string) => `${workflowId}\n${nodeId}`;

/**
 * Gives the claimed node jobs that asked for `inputs: "parents"` the body they are called with
 * (workflow-inputs.ts in the domain): their parents' outputs beside their own body when those fit
 * under the request cap, otherwise the paged URL of their parents. At most three statements per
 * claim, none when it took no node job; memory bounded by the claim's size times the request cap.
 * Parents are finished when a child's job exists, so every attempt of the node sends the same body.
 */
export async function attachNodeInputs(
  pool: Pool,
  jobs: readonly ClaimedJob[],
  options: NodeInputsOptions,
): Promise<void> {
  const nodeJobs = jobs.filter((j) => j.workflowId && j.nodeId);
  if (nodeJobs.length === 0) return;
  const [asking] = await pool.query<RowDataPacket[]>(INPUTS_SELECT, [
    nodeJobs.map((j) => [idToBin(j.workflowId!), j.nodeId]),
  ]);
  if (asking.length === 0) return;
  const byNode = new Map(nodeJobs.map((j) => [key(j.workflowId!, j.nodeId!), j]));
  const paged = new Set<string>();
  const countOf = new Map<string, number>();
  const small: [Buffer, string][] = [];
  for (const r of asking) {
    const k = key(binToId(r.workflow_id), r.node_id);
    countOf.set(k, Number(r.parent_count));
    if (Number(r.parent_count) > MAX_INLINE_PARENTS) paged.add(k);
    else small.push([r.workflow_id, r.node_id]);
  }
  const fitting: [Buffer, string][] = [];
  if (small.length > 0) {
    const [sizes] = await pool.query<RowDataPacket[]>(INPUTS_SIZES, [small]);
    const parentsOf = new Map<string, { nodeId: string; outputBytes: number }[]>();
    for (const r of sizes) {
      const k = key(binToId(r.workflow_id), r.child_id);
      const list = parentsOf.get(k) ?? [];
      list.push({ nodeId: r.parent_id, outputBytes: r.bytes === null ? 0 : Number(r.bytes) });
      parentsOf.set(k, list);
    }
    for (const [wf, nodeId] of small) {
      const k = key(binToId(wf), nodeId);
      const job = byNode.get(k)!;
      const bytes = inlineInputsBytes(JSON.stringify(job.target.body ?? null), parentsOf.get(k) ?? []);
      if (bytes <= options.maxRequestBytes) fitting.push([wf, nodeId]);
      else paged.add(k);
    }
  }
  const outputsOf = new Map<string, { nodeId: string; output: string | null }[]>();
  if (fitting.length > 0) {
    const [outputs] = await pool.query<RowDataPacket[]>(INPUTS_OUTPUTS, [fitting]);
    for (const r of outputs) {
      const k = key(binToId(r.workflow_id), r.child_id);
      const list = outputsOf.get(k) ?? [];
      const output =
        r.output === null ? null : Buffer.isBuffer(r.output) ? r.output.toString('utf8') : String(r.output);
      list.push({ nodeId: r.parent_id, output });
      outputsOf.set(k, list);
    }
  }
  for (const [wf, nodeId] of fitting) {
    const k = key(binToId(wf), nodeId);
    setBody(byNode.get(k)!, inlineInputsBody(byNode.get(k)!.target.body, outputsOf.get(k) ?? []));
  }
  for (const k of paged) {
    const job = byNode.get(k)!;
    const url = nodeParentsUrl(options.taskApiUrl, job.workflowId!, job.nodeId!);
    setBody(job, pagedInputsBody(job.target.body, url, countOf.get(k) ?? 0));
  }
}

/** The composed body is JSON text: sent as is (and signed as sent), labelled JSON unless the node's headers say otherwise. */
function setBody(job: ClaimedJob, body: string): void {
  const headers = { ...job.target.headers };
  if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
    headers['content-type'] = 'application/json';
  job.target = { ...job.target, body, headers };
}
