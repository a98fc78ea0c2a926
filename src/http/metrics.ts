import { timingSafeEqual } from 'node:crypto';
import { Elysia } from 'elysia';
import { createScrapeRegistry, instrumentRegistry, promClient } from '../metrics';
import type { HttpDeps } from './deps';
import { errorResponse } from './respond';

const BEARER = /^Bearer\s+(\S+)$/i;

function sameToken(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * GET /metrics (docs/operations.md "Metrics"): Prometheus text format, the process's
 * counters and histograms plus gauges read from the store at scrape time. When
 * metrics.token is set, only with `Authorization: Bearer <token>` (compared in constant
 * time); 401 JSON otherwise, like every other refusal.
 */
export function metricsRoutes(deps: HttpDeps) {
  const scrape = createScrapeRegistry({ store: deps.store, clock: deps.clock, trunkStatus: deps.trunkStatus, mediaCounts: deps.mediaCounts, selfTestResults: deps.selfTestResults, smsStatus: deps.smsStatus, coverage: deps.coverage });
  const both = promClient().Registry.merge([instrumentRegistry(), scrape]);
  return new Elysia({ name: 'metrics' }).get('/metrics', async ({ request }) => {
    const token = deps.config.metrics.token;
    if (token !== '') {
      const given = BEARER.exec(request.headers.get('authorization') ?? '')?.[1];
      if (!sameToken(given, token)) return errorResponse('metrics_token_required', { headers: { 'www-authenticate': 'Bearer realm="metrics"' } });
    }
    return new Response(await both.metrics(), { status: 200, headers: { 'content-type': both.contentType } });
  });
}
