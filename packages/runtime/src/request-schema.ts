import { z } from 'zod';

// Requests refuse what they do not know. A typo such as `"retyr": {...}` or `"timeoutMS": 5000`
// must not be dropped silently (the tenant would run with defaults it never asked for), so every
// schema a request is validated with, and documented by, goes through `strictRequest` first: each
// object in it, however deeply nested, refuses keys outside its shape (zod's `unrecognized_keys`,
// mapped to one `unknown field` detail per key in http-errors.ts).
//
// It is done here, once, instead of writing `.strict()` in every request schema: a field added to a
// schema is known at once, a new schema is strict without anyone remembering to say so, and the
// domain's schemas stay composable (`.partial()`, `.extend()`, spreading a shape). An object that
// is meant to be open says so itself with `.catchall(...)` or `z.looseObject`, and is left open; a
// record (headers, metadata) is open by definition. Intersections are left as they are: each side
// would refuse the other's keys.

const strictCache = new WeakMap<z.ZodType, z.ZodType>();

type Def = Record<string, unknown> & { type: string };

/** The same schema with every object in it strict (memoised: requests call this per parse). */
export function strictRequest<S extends z.ZodType>(schema: S): S {
  const cached = strictCache.get(schema);
  if (cached) return cached as S;
  const strict = rebuild(schema);
  strictCache.set(schema, strict);
  return strict as S;
}

function rebuild(schema: z.ZodType): z.ZodType {
  const def = schema._zod.def as unknown as Def;
  const inner = (key: string) => strictRequest(def[key] as z.ZodType);
  let next: Def | undefined;
  switch (def.type) {
    case 'object': {
      const shape = Object.fromEntries(
        Object.entries(def.shape as Record<string, z.ZodType>).map(([k, v]) => [k, strictRequest(v)]),
      );
      next = { ...def, shape, catchall: def.catchall ?? z.never() };
      break;
    }
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      next = { ...def, innerType: inner('innerType') };
      break;
    case 'array':
      next = { ...def, element: inner('element') };
      break;
    case 'union': // discriminated unions too: their option map is rebuilt from the new options
      next = { ...def, options: (def.options as z.ZodType[]).map((o) => strictRequest(o)) };
      break;
    case 'tuple':
      next = {
        ...def,
        items: (def.items as z.ZodType[]).map((o) => strictRequest(o)),
        rest: def.rest ? inner('rest') : def.rest,
      };
      break;
    case 'record':
      next = { ...def, valueType: inner('valueType') };
      break;
    case 'pipe': // a transform's input is what the client sends
      next = { ...def, in: inner('in') };
      break;
    case 'lazy': {
      const getter = def.getter as () => z.ZodType;
      next = { ...def, getter: () => strictRequest(getter()) };
      break;
    }
    default:
      return schema;
  }
  const rebuilt = schema.clone(next as never);
  // Descriptions and component ids live in the registry, keyed by the instance: carry them over.
  const meta = z.globalRegistry.get(schema);
  if (meta) z.globalRegistry.add(rebuilt, meta);
  return rebuilt;
}
