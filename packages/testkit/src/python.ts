import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { REPO_ROOT } from './names.ts';

// The Python client's tool venvs (clients/python), as scripts/lib/python-client.sh names them: under
// ~/.cache/dsched/tools, by the hash of their pinned requirements file.

export type PythonTool = 'generator' | 'test';

export function pythonToolVenv(tool: PythonTool): string {
  const requirements = `${REPO_ROOT}clients/python/requirements/${tool}.txt`;
  const hash = createHash('sha256').update(readFileSync(requirements)).digest('hex').slice(0, 12);
  const cache = process.env.DSCHED_CACHE ?? `${homedir()}/.cache/dsched`;
  const venv = `${cache}/tools/python-${tool}-${hash}`;
  if (!existsSync(`${venv}/.complete`)) {
    throw new Error(
      `the Python client's ${tool} tools are not installed (${venv}): run scripts/test.sh, or source ` +
        'scripts/lib/apt.sh and scripts/lib/python-client.sh and run dsched_ensure_python_client_tools .',
    );
  }
  return venv;
}
