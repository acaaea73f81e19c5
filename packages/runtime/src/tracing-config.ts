import { z } from 'zod';

// The standard OpenTelemetry variables (the SDK's own environment specification), read here and
// not by the SDK: SDK 3 no longer reads the sampler from the environment, and a value it did not
// understand it only logged and ignored. Here a bad value stops the service at start, naming the
// variable, like every other setting. Tracing is on only when an endpoint is set (docs/api.md: spans go
// to an OTLP endpoint when OTEL_EXPORTER_OTLP_ENDPOINT is set, and nowhere when not).

export const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;
export type SamplerName = (typeof SAMPLERS)[number];

const otlpUrl = () =>
  z
    .string()
    .optional()
    .transform((v) => (v?.trim() ? v.trim() : undefined))
    .refine(
      (v) => v === undefined || (URL.canParse(v) && /^https?:$/.test(new URL(v).protocol)),
      'must be an http:// or https:// URL (OTLP over HTTP)',
    );

const protocol = () =>
  z
    .string()
    .optional()
    .refine(
      (v) => v === undefined || v === 'http/protobuf' || v === 'http/json',
      'must be http/protobuf or http/json (OTLP over gRPC is not built in)',
    );

const positiveIntOptional = () => z.coerce.number().int().positive().optional();

export const tracingConfigShape = {
  OTEL_SDK_DISABLED: z
    .enum(['true', 'false', 'TRUE', 'FALSE', ''])
    .default('false')
    .transform((v) => v.toLowerCase() === 'true'),
  OTEL_SERVICE_NAME: z.string().min(1).max(200).optional(),
  OTEL_RESOURCE_ATTRIBUTES: z
    .string()
    .default('')
    .transform((text, ctx) => {
      try {
        return parseResourceAttributes(text);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
        return z.NEVER;
      }
    }),
  OTEL_TRACES_EXPORTER: z.enum(['otlp', 'none'], { error: 'must be otlp or none' }).default('otlp'),
  OTEL_TRACES_SAMPLER: z
    .enum(SAMPLERS, { error: `must be one of ${SAMPLERS.join(', ')}` })
    .default('parentbased_always_on'),
  /** The ratio of the traceidratio samplers, 0–1 (ignored by the others, but checked all the same). */
  OTEL_TRACES_SAMPLER_ARG: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return undefined;
      const ratio = Number(v);
      if (!Number.isFinite(ratio) || ratio < 0 || ratio > 1) {
        ctx.addIssue({ code: 'custom', message: `must be a ratio from 0 to 1, not "${v}"` });
        return z.NEVER;
      }
      return ratio;
    }),
  OTEL_EXPORTER_OTLP_ENDPOINT: otlpUrl(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: otlpUrl(),
  OTEL_EXPORTER_OTLP_PROTOCOL: protocol(),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: protocol(),
  OTEL_BSP_SCHEDULE_DELAY: positiveIntOptional(),
  OTEL_BSP_EXPORT_TIMEOUT: positiveIntOptional(),
  OTEL_BSP_MAX_QUEUE_SIZE: positiveIntOptional(),
  OTEL_BSP_MAX_EXPORT_BATCH_SIZE: positiveIntOptional(),
};

export type TracingConfig = z.infer<z.ZodObject<typeof tracingConfigShape>>;

/** Where spans go, or undefined when nowhere (no endpoint, the exporter `none`, or the SDK disabled). */
export function tracesUrl(config: TracingConfig): string | undefined {
  if (config.OTEL_SDK_DISABLED || config.OTEL_TRACES_EXPORTER === 'none') return undefined;
  if (config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  const base = config.OTEL_EXPORTER_OTLP_ENDPOINT;
  return base ? `${base.replace(/\/+$/, '')}/v1/traces` : undefined;
}

/**
 * `key=value,key=value`, values percent-encoded (the W3C Baggage octet rules the specification
 * names). A malformed pair is an error, not a silent drop.
 */
export function parseResourceAttributes(text: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const pair of text.split(',')) {
    if (pair.trim() === '') continue;
    const eq = pair.indexOf('=');
    const key = eq > 0 ? pair.slice(0, eq).trim() : '';
    if (key === '' || !/^[\x21-\x7e]+$/.test(key)) {
      throw new Error(`"${pair.trim()}" is not key=value`);
    }
    let value: string;
    try {
      value = decodeURIComponent(pair.slice(eq + 1).trim());
    } catch {
      throw new Error(`the value of ${key} is not percent-encoded`);
    }
    attributes[key] = value;
  }
  return attributes;
}
