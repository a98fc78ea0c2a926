/**
 * A call's or an alert's JSON read over the appliance's HTTP API (docs/http-api.md "GET
 * /api/calls/{id}", "GET /api/alerts/{id}"), for the tests' polls. The same JSON as `calls show
 * ID --json` and `alerts show ID --json` (test/integration/api-call.test.ts and alerts.test.ts
 * assert it), without a process: a CLI command costs the 2-core machine about 0.2 CPU-seconds,
 * so a poll through the CLI every 200 ms kept a core busy for as long as it waited, beside peer
 * suites that time their media, and its spawnSync stopped the test's own event loop each time.
 */
export interface ReadsWith {
  /** The account's webhook key (test/helpers/appliance.ts provision). */
  webhookKey: string;
}

async function read(url: string, path: string, cred: ReadsWith, field: 'call' | 'alert') {
  const res = await fetch(`${url}${path}`, { headers: { 'x-webhook-key': cred.webhookKey } });
  const body = (await res.json()) as Record<string, any>;
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${JSON.stringify(body)}`);
  return body[field];
}

export const callOverHttp = (app: { url: string }, cred: ReadsWith, id: string): Promise<any> => read(app.url, `/api/calls/${id}`, cred, 'call');

export const alertOverHttp = (app: { url: string }, cred: ReadsWith, id: string): Promise<any> => read(app.url, `/api/alerts/${id}`, cred, 'alert');
