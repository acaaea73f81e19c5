import { OPERATIONS, type OperationId } from '@dsched/client';
import type { Command } from 'commander';
import { UsageError } from '../exit-codes.ts';
import { collect, parsePairs, readJsonArgument } from '../input.ts';
import { table } from '../output.ts';
import type { Runtime } from '../runtime.ts';
import type { Act } from './act.ts';

// dsched api <operationId> [name=value ...] [--data JSON|@file]: any route of either API, from
// the operations table generated with the client's types (so a new route needs no CLI code).

export function registerApiCommand(program: Command, act: Act): void {
  program
    .command('api [operationId] [params...]')
    .description('call any route by its OpenAPI operationId; name=value sets a path or query parameter')
    .option('--data <json|@file>', 'the JSON body (@- for stdin)')
    .option('--header <name:value>', 'a request header (repeatable)', collect)
    .option('--list', 'list the operations')
    .action(
      act(
        async (
          rt: Runtime,
          operationId: string | undefined,
          params: string[],
          opts: { data?: string; header?: string[]; list?: boolean },
        ) => {
          if (opts.list || !operationId) {
            const ops = Object.entries(OPERATIONS).map(([id, op]) => ({ operationId: id, ...op }));
            rt.print({
              body: ops,
              items: ops,
              table: () =>
                table(
                  ['operation', 'method', 'path', 'api', 'summary'],
                  ops.map((o) => [o.operationId, o.method, o.path, `${o.api}-api`, o.summary]),
                ),
            });
            return;
          }
          if (!(operationId in OPERATIONS)) {
            throw new UsageError(`unknown operation "${operationId}" (dsched api --list)`, 'operationId');
          }
          const op = OPERATIONS[operationId as OperationId];
          const values = parsePairs(params, 'params');
          const known = new Set<string>([...op.pathParams, ...op.queryParams]);
          for (const name of Object.keys(values)) {
            if (!known.has(name))
              throw new UsageError(
                `${operationId} has no parameter "${name}" (it takes: ${[...known].join(', ') || 'none'})`,
                name,
              );
          }
          for (const name of op.pathParams)
            if (values[name] === undefined) throw new UsageError(`missing ${name}=...`, name);
          const body =
            opts.data !== undefined
              ? await readJsonArgument(opts.data, rt.io, '--data')
              : op.body
                ? {}
                : undefined;
          const result = await rt.client().call(operationId as OperationId, {
            params: values,
            ...(body !== undefined ? { body } : {}),
            headers: parsePairs(opts.header, '--header'),
          });
          rt.print({
            body: result,
            table: () => (result === undefined ? 'done' : JSON.stringify(result, null, 2)),
          });
        },
      ),
    );
}
