import { Elysia } from 'elysia';
import { decodeBody } from '../intake';
import type { PersonResult } from '../people';
import { personJson } from '../outward';
import { authenticateApiRequest } from './api-auth';
import type { HttpDeps } from './deps';
import { readBodyLimited } from './read-body';
import { errorResponse, jsonResponse } from './respond';

/**
 * People over HTTP (docs/on-call.md "People"), authenticated with the API key only (its secret,
 * or a signature: over the raw body for POST and PUT, over the path otherwise), like
 * /api/maintenance: the webhook key monitoring tools hold cannot change who is called.
 * - GET  /api/people          the account's people
 * - POST /api/people          {"name", "phones": [..], "sms": [..], "emails": [..], "language", "time_zone"}
 * - GET  /api/people/:name    one (by name in any case, or id)
 * - PUT  /api/people/:name    replaces the fields given
 * - POST /api/people/:name/verify  {"phone"} optional: queues verification calls, answers 202 at
 *                                   once (docs/on-call.md "Verification"); results appear on the person
 * DELETE /api/people/:name is with the other deletes (deletes.ts: 409 while used).
 * Another account's person is 404 `Person not found`, like a missing one.
 */
export function peopleRoutes(deps: HttpDeps) {
  const service = deps.services.people;

  const answer = (r: PersonResult, status: number, message: string) => {
    if (r.ok) return jsonResponse(status, { status: 'success', message, person: personJson(r.person) });
    switch (r.code) {
      case 'account_not_found':
        return errorResponse('invalid_api_credentials');
      case 'invalid_person':
        return errorResponse(r.code, { detail: r.problem });
      case 'invalid_phone_number':
        return errorResponse(r.code, { detail: r.value });
      default:
        return errorResponse(r.code);
    }
  };

  /** The body as fields, or the answer refusing it. */
  const fieldsOf = async (request: Request, o: { emptyBody?: boolean } = {}) => {
    const body = await readBodyLimited(request, deps.config.http.max_body_bytes);
    if (body === null) return { response: errorResponse('body_too_large') } as const;
    const auth = await authenticateApiRequest(deps, request, { body, apiKeyOnly: true });
    if (!auth.ok) return { response: auth.response } as const;
    // A request that needs nothing more (verify: every phone) may come with no body at all.
    if (o.emptyBody && body.length === 0) return { accountId: auth.account.id, fields: {} as Record<string, unknown> } as const;
    const decoded = decodeBody(body, request.headers.get('content-type'));
    if (!decoded.ok) return { response: errorResponse('malformed_request') } as const;
    return { accountId: auth.account.id, fields: decoded.fields } as const;
  };

  return new Elysia({ name: 'people' })
    .get('/api/people', async ({ request }) => {
      const auth = await authenticateApiRequest(deps, request, { apiKeyOnly: true });
      if (!auth.ok) return auth.response;
      const people = (await service.list(auth.account.id)).map(personJson);
      return jsonResponse(200, { status: 'success', message: 'People', people });
    })
    .post(
      '/api/people',
      async ({ request }) => {
        const f = await fieldsOf(request);
        if ('response' in f) return f.response;
        return answer(await service.create(f.accountId, f.fields), 201, 'Person created');
      },
      { parse: 'none' },
    )
    .get('/api/people/:name', async ({ params, request }) => {
      const auth = await authenticateApiRequest(deps, request, { apiKeyOnly: true });
      if (!auth.ok) return auth.response;
      return answer(await service.get(auth.account.id, decodeURIComponent(params.name)), 200, 'Person found');
    })
    .post(
      '/api/people/:name/verify',
      async ({ params, request }) => {
        const f = await fieldsOf(request, { emptyBody: true });
        if ('response' in f) return f.response;
        const phone = f.fields.phone;
        if (phone !== undefined && typeof phone !== 'string') return errorResponse('invalid_person', { detail: 'phone: a number' });
        const r = await service.verify(f.accountId, decodeURIComponent(params.name), phone);
        if (!r.ok) return r.code === 'invalid_person' ? errorResponse(r.code, { detail: r.problem }) : errorResponse(r.code);
        return jsonResponse(202, { status: 'success', message: 'Verification calls queued', person: r.person.id, calls: r.calls });
      },
      { parse: 'none' },
    )
    .put(
      '/api/people/:name',
      async ({ params, request }) => {
        const f = await fieldsOf(request);
        if ('response' in f) return f.response;
        return answer(await service.update(f.accountId, decodeURIComponent(params.name), f.fields), 200, 'Person updated');
      },
      { parse: 'none' },
    );
}
