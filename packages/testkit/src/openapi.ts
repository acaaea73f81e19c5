// Reading the OpenAPI documents the APIs serve, for the tests that check them.

interface OpenApiPaths {
  paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema?: unknown }> } }>>;
}

/**
 * Every object schema (one that lists properties) of every request body, with where it is and
 * whether it refuses other keys (`additionalProperties: false`).
 */
export function requestBodyObjects(doc: unknown): { at: string; closed: boolean }[] {
  const found: { at: string; closed: boolean }[] = [];
  const walk = (node: unknown, at: string) => {
    if (node === null || typeof node !== 'object') return;
    const n = node as Record<string, unknown>;
    // An object shape (zod writes `type: "object"`); a bare `{properties: {outcome: {const}}}` in an
    // anyOf constrains the object around it, whose own additionalProperties is what refuses keys.
    if (n.properties !== undefined && n.type === 'object')
      found.push({ at, closed: n.additionalProperties === false });
    for (const [k, v] of Object.entries(n)) walk(v, `${at}/${k}`);
  };
  for (const [path, ops] of Object.entries((doc as OpenApiPaths).paths))
    for (const [method, op] of Object.entries(ops))
      walk(op.requestBody?.content['application/json']?.schema, `${method} ${path}`);
  return found;
}
