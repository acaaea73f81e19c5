import type {
  SubmitWorkflowRequest,
  WorkflowListQuery,
  WorkflowNode,
  WorkflowNodesQuery,
} from '@dsched/client';
import type { Command } from 'commander';
import { EXIT, UsageError } from '../exit-codes.ts';
import { collect, parseCount, parseDuration, parseTime, readDocument, readJsonArgument } from '../input.ts';
import { formatTime } from '../output.ts';
import { type Runtime, sleep } from '../runtime.ts';
import { NODE_STATES, workflowCounts, workflowDetail, workflowNodeRows, workflowRows } from '../views.ts';
import { type Act, eachId } from './act.ts';

// dsched workflow submit|list|get|nodes|cancel|pause|resume|retry-node|signal|watch

interface WorkflowListFlags {
  state?: string;
  name?: string;
  tag?: string[];
  since?: string;
  until?: string;
  limit?: string;
  pageToken?: string;
  all?: boolean;
}

export function registerWorkflowCommands(program: Command, act: Act): void {
  const workflow = program.command('workflow').description('workflows: DAGs of HTTP calls');

  workflow
    .command('submit')
    .description('submit a workflow from -f dag.yaml (the body of POST /v1/workflows)')
    .requiredOption('-f, --file <path>', 'the workflow as YAML or JSON (- for stdin)')
    .option('--name <name>', 'overrides the file’s name')
    .action(
      act(async (rt: Runtime, opts: { file: string; name?: string }) => {
        const doc = await readDocument(opts.file, rt.io, '--file');
        if (opts.name) doc.name = opts.name;
        if (!Array.isArray(doc.nodes)) throw new UsageError(`${opts.file} has no nodes list`, 'nodes');
        const created = await rt.client().submitWorkflow(doc as SubmitWorkflowRequest);
        rt.print({ body: created, table: () => workflowDetail(created, rt.out) });
      }),
    );

  workflow
    .command('list')
    .description('workflow runs newest first, live and archived: by state, name, time and tags')
    .option('--state <state>', 'running, succeeded, failed or cancelled')
    .option('--name <name>', 'only runs of this name')
    .option('--tag <key:value>', 'only runs with this tag (repeatable: all must match)', collect)
    .option('--since <time>', 'created at or after: RFC 3339 or a duration ago (default 7d)')
    .option('--until <time>', 'created before: RFC 3339, now, or a duration ago (default now)')
    .option('--limit <n>', 'page size (default 50, at most 500)')
    .option('--page-token <token>', 'start at this page')
    .option('--all', 'walk every page')
    .action(
      act(async (rt: Runtime, opts: WorkflowListFlags) => {
        const now = rt.out.now();
        const query: WorkflowListQuery = {
          ...(opts.state ? { state: opts.state as WorkflowListQuery['state'] } : {}),
          ...(opts.name ? { name: opts.name } : {}),
          ...(opts.tag ? { tag: opts.tag } : {}),
          ...(opts.since ? { from: parseTime(opts.since, '--since', now) } : {}),
          ...(opts.until ? { to: parseTime(opts.until, '--until', now) } : {}),
          ...(opts.limit ? { limit: parseCount(opts.limit, '--limit') } : {}),
          ...(opts.pageToken ? { pageToken: opts.pageToken } : {}),
        };
        if (opts.all) {
          const workflows = await rt.client().workflows(query).toArray();
          rt.print({ body: { workflows }, items: workflows, table: () => workflowRows(workflows, rt.out) });
          return;
        }
        const page = await rt.client().workflowsPage(query);
        rt.print({
          body: page,
          items: page.workflows,
          table: () =>
            workflowRows(page.workflows, rt.out) +
            (page.nextPageToken ? `\n\nmore: --page-token ${page.nextPageToken}` : ''),
        });
      }),
    );

  workflow
    .command('get <id>')
    .description('a workflow: its state, node counts by state and times')
    .action(
      act(async (rt: Runtime, id: string) => {
        const wf = await rt.client().getWorkflow(id);
        rt.print({ body: wf, table: () => workflowDetail(wf, rt.out) });
      }),
    );

  workflow
    .command('nodes <id>')
    .description('a workflow’s nodes in id order, with their job ids and attempts')
    .option('--state <state>', `only nodes in this state (${NODE_STATES.join(', ')})`)
    .option('--limit <n>', 'page size (default 50, at most 500)')
    .option('--page-token <token>', 'start at this page')
    .option('--all', 'walk every page')
    .action(
      act(
        async (
          rt: Runtime,
          id: string,
          opts: { state?: string; limit?: string; pageToken?: string; all?: boolean },
        ) => {
          const query: WorkflowNodesQuery = {
            ...(opts.state ? { state: opts.state as WorkflowNodesQuery['state'] } : {}),
            ...(opts.limit ? { limit: parseCount(opts.limit, '--limit') } : {}),
            ...(opts.pageToken ? { pageToken: opts.pageToken } : {}),
          };
          const client = rt.client();
          if (opts.all) {
            const nodes: WorkflowNode[] = [];
            for await (const node of client.workflowNodes(id, query)) {
              nodes.push(node);
              rt.progress.show(`${nodes.length} nodes…`);
            }
            rt.print({ body: { nodes }, items: nodes, table: () => workflowNodeRows(nodes, rt.out) });
            return;
          }
          const page = await client.workflowNodesPage(id, query);
          rt.print({
            body: page,
            items: page.nodes,
            table: () =>
              workflowNodeRows(page.nodes, rt.out) +
              (page.nextPageToken ? `\n\nmore: --page-token ${page.nextPageToken}` : ''),
          });
        },
      ),
    );

  for (const action of ['cancel', 'pause', 'resume'] as const) {
    workflow
      .command(`${action} <id...>`)
      .description(
        {
          cancel: 'cancel workflows: nodes not started are cancelled, running calls aborted',
          pause: 'hold dispatch: nodes that become ready wait',
          resume: 'resume dispatch of paused workflows',
        }[action],
      )
      .action(
        act(async (rt: Runtime, ids: string[]) =>
          eachId(rt, ids, async (id) => {
            const client = rt.client();
            const wf =
              action === 'cancel'
                ? await client.cancelWorkflow(id)
                : action === 'pause'
                  ? await client.pauseWorkflow(id)
                  : await client.resumeWorkflow(id);
            return { body: wf, table: () => `${wf.id}  ${wf.state}${wf.paused ? ' (paused)' : ''}` };
          }),
        ),
      );
  }

  workflow
    .command('retry-node <id> <nodeId>')
    .description('re-run a dead node and its descendants that did not succeed')
    .action(
      act(async (rt: Runtime, id: string, nodeId: string) => {
        const wf = await rt.client().retryWorkflowNode(id, nodeId);
        rt.print({ body: wf, table: () => workflowDetail(wf, rt.out) });
      }),
    );

  workflow
    .command('signal <id> <nodeId>')
    .description(
      'signal a wait node: it succeeds, --data becoming its output (once; 409 when it is not waiting)',
    )
    .option('--data <json>', 'the payload: JSON, or @file holding JSON (@- for stdin)')
    .action(
      act(async (rt: Runtime, id: string, nodeId: string, opts: { data?: string }) => {
        const payload =
          opts.data === undefined ? undefined : await readJsonArgument(opts.data, rt.io, '--data');
        const node = await rt.client().signalWorkflowNode(id, nodeId, payload);
        rt.print({ body: node, table: () => workflowNodeRows([node], rt.out) });
      }),
    );

  workflow
    .command('watch <id>')
    .description(
      'print node counts by state as they change until the run ends (exit 0 succeeded, 1 otherwise)',
    )
    .option('--interval <duration>', 'how often to poll', '1s')
    .action(
      act(async (rt: Runtime, id: string, opts: { interval: string }) => {
        const every = parseDuration(opts.interval, '--interval');
        const client = rt.client();
        let last = '';
        for (;;) {
          const wf = await client.getWorkflow(id);
          const seen = `${wf.state}|${wf.paused}|${workflowCounts(wf)}`;
          if (seen !== last) {
            last = seen;
            const line = `${formatTime(new Date().toISOString(), { ...rt.out, time: 'iso' })}  ${wf.state}${wf.paused ? ' (paused)' : ''}  ${workflowCounts(wf)}`;
            rt.print({ body: wf, items: [wf], table: () => line });
          }
          if (wf.state !== 'running') return wf.state === 'succeeded' ? EXIT.ok : EXIT.error;
          await sleep(every, rt.io.signal);
          if (rt.io.signal.aborted) {
            rt.progress.clear();
            return EXIT.interrupted;
          }
        }
      }),
    );
}
