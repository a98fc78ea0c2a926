import { Elysia } from 'elysia';
import { errorBody } from '../errors';
import type { UsedBy } from '../store';
import { authenticateApiRequest } from './api-auth';
import type { HttpDeps } from './deps';
import { errorResponse, jsonResponse } from './respond';

/**
 * Deleting what others use, over HTTP (docs/on-call.md "Nothing silently calls nobody"),
 * authenticated with the API key only (its secret, or a signature over the path), as
 * DELETE /api/maintenance/{id}: the webhook key monitoring tools hold cannot delete.
 * - DELETE /api/schedules/:name  a schedule (by name or id) and its overrides
 * - DELETE /api/policies/:name   an escalation policy (by name or id)
 * - DELETE /api/people/:name     a person (by name in any case, or id)
 * While something uses it: `409` `Schedule in use` / `Policy in use` / `Person in use` with `used_by`
 * ([{kind, id, name}], src/store/usage-of.ts). Another account's is 404 like a missing one.
 */
export function deleteRoutes(deps: HttpDeps) {
  const { schedules, policies, people } = deps.services;
  const inUse = (code: 'schedule_in_use' | 'policy_in_use' | 'person_in_use', usedBy: readonly UsedBy[]) =>
    jsonResponse(409, { ...errorBody(code), used_by: usedBy.map((u) => ({ kind: u.kind, id: u.id, name: u.name })) });

  return new Elysia({ name: 'deletes' })
    .delete(
      '/api/schedules/:name',
      async ({ params, request }) => {
        const auth = await authenticateApiRequest(deps, request, { apiKeyOnly: true });
        if (!auth.ok) return auth.response;
        const r = await schedules.remove(auth.account.id, decodeURIComponent(params.name));
        if (r.ok) return jsonResponse(200, { status: 'success', message: 'Schedule deleted', id: r.schedule.id, name: r.schedule.name });
        if (r.code === 'schedule_in_use') return inUse(r.code, r.usedBy);
        return errorResponse('schedule_not_found');
      },
      { parse: 'none' },
    )
    .delete(
      '/api/policies/:name',
      async ({ params, request }) => {
        const auth = await authenticateApiRequest(deps, request, { apiKeyOnly: true });
        if (!auth.ok) return auth.response;
        const r = await policies.remove(auth.account.id, decodeURIComponent(params.name));
        if (r.ok) return jsonResponse(200, { status: 'success', message: 'Policy deleted', id: r.policy.id, name: r.policy.name });
        if (r.code === 'policy_in_use') return inUse(r.code, r.usedBy);
        return errorResponse('policy_not_found');
      },
      { parse: 'none' },
    )
    .delete(
      '/api/people/:name',
      async ({ params, request }) => {
        const auth = await authenticateApiRequest(deps, request, { apiKeyOnly: true });
        if (!auth.ok) return auth.response;
        const r = await people.remove(auth.account.id, decodeURIComponent(params.name));
        if (r.ok) return jsonResponse(200, { status: 'success', message: 'Person deleted', id: r.person.id, name: r.person.name });
        if (r.code === 'person_in_use') return inUse(r.code, r.usedBy);
        return errorResponse('person_not_found');
      },
      { parse: 'none' },
    );
}
