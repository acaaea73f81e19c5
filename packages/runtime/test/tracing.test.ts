import { Writable } from 'node:stream';
import { formatTraceparent, parseTraceparent } from '@dsched/domain';
import { context, trace } from '@opentelemetry/api';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ConfigError,
  createLogger,
  JobTraces,
  loadConfig,
  parseResourceAttributes,
  startTracing,
  type Tracing,
  type TracingConfig,
  tracesUrl,
  tracingConfigShape,
} from '../src/index.ts';

const schema = z.object(tracingConfigShape);
const config = (env: Record<string, string>): TracingConfig => loadConfig(schema, env);

function problemsOf(env: Record<string, string>): string[] {
  try {
    config(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).variables;
  }
  return [];
}

describe('the OTEL_* variables', () => {
  it('stop the service on an unknown sampler, a ratio out of 0–1, gRPC, a bad endpoint or attribute', () => {
    expect(problemsOf({ OTEL_TRACES_SAMPLER: 'sometimes' })).toEqual(['OTEL_TRACES_SAMPLER']);
    expect(problemsOf({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '2' })).toEqual([
      'OTEL_TRACES_SAMPLER_ARG',
    ]);
    expect(problemsOf({ OTEL_TRACES_SAMPLER_ARG: 'half' })).toEqual(['OTEL_TRACES_SAMPLER_ARG']);
    expect(problemsOf({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toEqual(['OTEL_EXPORTER_OTLP_PROTOCOL']);
    expect(problemsOf({ OTEL_EXPORTER_OTLP_ENDPOINT: 'localhost:4318' })).toEqual([
      'OTEL_EXPORTER_OTLP_ENDPOINT',
    ]);
    expect(problemsOf({ OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment' })).toEqual([
      'OTEL_RESOURCE_ATTRIBUTES',
    ]);
    expect(problemsOf({ OTEL_TRACES_EXPORTER: 'zipkin' })).toEqual(['OTEL_TRACES_EXPORTER']);
    expect(() => config({ OTEL_TRACES_SAMPLER: 'sometimes' })).toThrow(/OTEL_TRACES_SAMPLER: must be one of/);
    expect(() => config({ OTEL_TRACES_SAMPLER_ARG: '2' })).toThrow(/ratio from 0 to 1, not "2"/);
  });

  it('turn tracing on only with an endpoint, and off with the SDK disabled or the exporter none', () => {
    expect(tracesUrl(config({}))).toBeUndefined();
    expect(tracesUrl(config({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318/' }))).toBe(
      'http://127.0.0.1:4318/v1/traces',
    );
    expect(
      tracesUrl(
        config({
          OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318',
          OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://b:4318/custom',
        }),
      ),
    ).toBe('http://b:4318/custom');
    expect(
      tracesUrl(config({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_SDK_DISABLED: 'true' })),
    ).toBe(undefined);
    expect(
      tracesUrl(config({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_TRACES_EXPORTER: 'none' })),
    ).toBe(undefined);
  });

  it('read resource attributes percent-encoded', () => {
    expect(parseResourceAttributes('deployment.environment=prod, team=a%20b,')).toEqual({
      'deployment.environment': 'prod',
      team: 'a b',
    });
  });
});

describe('traceparent', () => {
  it('round-trips and refuses what the W3C rules refuse', () => {
    const ctx = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', sampled: true };
    expect(formatTraceparent(ctx)).toBe('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01');
    expect(parseTraceparent(formatTraceparent(ctx))).toEqual(ctx);
    expect(parseTraceparent('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00')?.sampled).toBe(false);
    expect(parseTraceparent('ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01')).toBeUndefined();
    expect(parseTraceparent(`00-${'0'.repeat(32)}-00f067aa0ba902b7-01`)).toBeUndefined();
    expect(parseTraceparent('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-x')).toBeUndefined();
    expect(parseTraceparent('01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-x')?.sampled).toBe(true);
    expect(parseTraceparent('00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01')).toBeUndefined();
  });
});

describe('job traces', () => {
  it('with tracing off, are born and carried but make nothing', () => {
    const off = startTracing({ service: 'test', config: config({}), logger: createLogger('test', 'silent') });
    expect(off.enabled).toBe(false);
    const traces = new JobTraces(off);
    const a = traces.create('create default', {});
    const b = traces.create('create default', {});
    expect(a.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(a.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(a.traceId).not.toBe(b.traceId);
    expect(a.sampled).toBe(false);
    expect(traces.batch('send jobs', 'send', [a, b])).toBeUndefined();
    expect(traces.step('process default', { ...a, sampled: true }, {})).toBeUndefined();
    const batch = traces.bornBatch([{ id: 'j', kind: 'scheduled' }]);
    expect(batch.contexts[0]).toMatchObject({ sampled: false });
    expect(batch.contexts[0]!.rootOwed).toBeUndefined();
  });

  describe('with tracing on', () => {
    const exporter = new InMemorySpanExporter();
    let out = '';
    const logger = createLogger(
      'test',
      'info',
      new Writable({
        write(chunk, _enc, cb) {
          out += chunk.toString();
          cb();
        },
      }),
    );
    const tracing = startTracing({
      service: 'scheduler',
      config: config({
        OTEL_BSP_SCHEDULE_DELAY: '1',
        OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=test',
      }),
      logger,
      exporter,
    });
    const traces = new JobTraces(tracing);
    afterAll(() => tracing.shutdown());
    const flushed = async () => {
      await trace.getTracerProvider();
      await new Promise((r) => setTimeout(r, 20));
      return exporter.getFinishedSpans();
    };

    it('root a new trace per job, link one batch span to them, and join each later step', async () => {
      const jobs = [
        traces.create('create default', { 'messaging.message.id': 'j1' }),
        traces.create('create default', {}),
      ];
      expect(jobs[0]!.traceId).not.toBe(jobs[1]!.traceId);
      expect(jobs.every((j) => j.sampled)).toBe(true);
      const batch = traces.batch('send jobs', 'send', jobs);
      expect(batch).toBeDefined();
      batch!.end();
      const step = traces.step('process default', jobs[0], { 'dsched.job.attempt': 1 }, { link: batch });
      step!.end();
      const spans = await flushed();
      const create = spans.find((s) => s.attributes['messaging.message.id'] === 'j1')!;
      expect(create.parentSpanContext).toBeUndefined();
      expect(create.resource.attributes['service.name']).toBe('scheduler');
      expect(create.resource.attributes['deployment.environment']).toBe('test');
      const send = spans.find((s) => s.name === 'send jobs')!;
      expect(send.links.map((l) => l.context.traceId).sort()).toEqual(jobs.map((j) => j.traceId).sort());
      expect(send.attributes['messaging.batch.message_count']).toBe(2);
      const process = spans.find((s) => s.name === 'process default')!;
      expect(process.spanContext().traceId).toBe(jobs[0]!.traceId);
      expect(process.parentSpanContext?.spanId).toBe(jobs[0]!.spanId);
      expect(process.links[0]!.context.spanId).toBe(send.spanContext().spanId);
    });

    it('a batch of 500 jobs born in one insert is one span linked to each job, whose root the archiver exports later', async () => {
      exporter.reset();
      const births = Array.from({ length: 500 }, (_, i) => ({ id: `b${i}`, kind: 'scheduled' }));
      const born = traces.bornBatch(births);
      born.end(500);
      const { contexts } = born;
      expect(new Set(contexts.map((c) => c.traceId)).size).toBe(500);
      expect(contexts.every((c) => c.sampled && c.rootOwed)).toBe(true);
      let spans = await flushed();
      expect(spans.map((s) => s.name)).toEqual(['create jobs']);
      expect(spans[0]!.links.map((l) => l.context.traceId)).toEqual(contexts.map((c) => c.traceId));
      expect(spans[0]!.attributes['dsched.jobs.inserted']).toBe(500);
      // Later steps are children of the stored context; the occurrence's root carries its ids.
      traces.step('process default', contexts[7], {})!.end();
      traces.root(contexts[7], { 'messaging.message.id': 'b7' }, new Date(Date.now() - 1000));
      traces.root({ ...contexts[8]!, rootOwed: false }, {}, new Date());
      spans = await flushed();
      const root = spans.find((s) => s.name === 'occurrence')!;
      expect(spans.filter((s) => s.name === 'occurrence')).toHaveLength(1);
      expect(root.spanContext().traceId).toBe(contexts[7]!.traceId);
      expect(root.spanContext().spanId).toBe(contexts[7]!.spanId);
      expect(root.parentSpanContext).toBeUndefined();
      const process = spans.find((s) => s.name === 'process default')!;
      expect(process.parentSpanContext?.spanId).toBe(root.spanContext().spanId);
      // The ids were this span's only: the next span gets ids of its own.
      const next = tracing.tracer.startSpan('next');
      next.end();
      expect(next.spanContext().spanId).not.toBe(contexts[7]!.spanId);
    });

    it('make no span for a job or batch whose trace is not sampled', () => {
      const unsampled = { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), sampled: false };
      expect(traces.batch('send jobs', 'send', [unsampled, null])).toBeUndefined();
      expect(traces.step('process default', unsampled, {})).toBeUndefined();
    });

    it('join a parent trace: a request that carried traceparent, a parent job', () => {
      const parent = { traceId: 'c'.repeat(32), spanId: 'd'.repeat(16), sampled: true };
      const child = traces.create('create default', {}, parent);
      expect(child.traceId).toBe(parent.traceId);
      expect(child.spanId).not.toBe(parent.spanId);
    });

    it('write trace_id and span_id on every log line within a span', () => {
      const span = tracing.tracer.startSpan('handle');
      context.with(trace.setSpan(context.active(), span), () => logger.info('inside'));
      logger.info('outside');
      span.end();
      const lines = out
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      const inside = lines.find((l) => l.msg === 'inside');
      expect(inside.trace_id).toBe(span.spanContext().traceId);
      expect(inside.span_id).toBe(span.spanContext().spanId);
      expect(lines.find((l) => l.msg === 'outside').trace_id).toBeUndefined();
    });
  });
});
