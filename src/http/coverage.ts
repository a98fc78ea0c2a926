import { Elysia } from 'elysia';
import { coverageJson } from '../outward';
import { COVERAGE_DAYS, MAX_COVERAGE_DAYS, coverageDays } from '../schedules';
import { authenticateApiRequest } from './api-auth';
import type { HttpDeps } from './deps';
import { errorResponse, jsonResponse } from './respond';

/**
 * GET /api/coverage[?days=N] (docs/on-call.md "Coverage"): the account's schedules over the
 * next N days (default 14, at most 90) as `voice-alert coverage --json` prints them, with
 * `status` and `message` beside. The API key only (its secret, or a signature over the path),
 * as /api/people: who can be reached is not for the webhook key monitoring tools hold.
 */
export function coverageRoutes(deps: HttpDeps) {
  return new Elysia({ name: 'coverage' }).get('/api/coverage', async ({ request }) => {
    const auth = await authenticateApiRequest(deps, request, { apiKeyOnly: true });
    if (!auth.ok) return auth.response;
    const given = new URL(request.url).searchParams.get('days');
    const days = given === null ? COVERAGE_DAYS : coverageDays(given);
    if (days === null) return errorResponse('malformed_request', { detail: `days must be a whole number from 1 to ${MAX_COVERAGE_DAYS}` });
    const c = await deps.services.schedules.coverage(auth.account.id, days);
    return jsonResponse(200, { status: 'success', message: 'Coverage', ...coverageJson(auth.account.id, c, days) });
  });
}
