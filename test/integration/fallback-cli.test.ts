import { afterAll, describe, expect, it } from 'vitest';
import { applianceDir, provision, type RunningAppliance } from '../helpers/appliance';
import { post } from '../helpers/http';
import { parsePromText, sampleValue } from '../helpers/prom-text';

/**
 * Contract "Nothing silently calls nobody" from the compiled binary: `account set-fallback`
 * (or `--person`, a person of the account), shown by `account show|list`; then a webhook
 * naming a policy whose schedule has nobody on call is answered with the warning, queues the
 * fallback's call, and /metrics counts it.
 */
let app: RunningAppliance | undefined;
afterAll(async () => {
  await app?.stop();
});

describe('voice-alert account set-fallback', () => {
  it('sets, shows and clears the fallback; refuses a bad number, an unknown --person and neither', async () => {
    const a = applianceDir();
    const acc = provision(a);
    expect(a.cliJson(['account', 'show', acc.accountId])).toMatchObject({ id: acc.accountId, fallback: null });
    expect(a.cliJson(['account', 'set-fallback', acc.accountId, '--phone', '0532 999 99 99'])).toEqual({ id: acc.accountId, fallback: { phone_number: '5329999999', person: null } });
    expect(a.cliJson(['account', 'show', acc.accountId])).toMatchObject({ id: acc.accountId, fallback: { phone_number: '5329999999', person: null } });
    expect(a.cliJson<{ id: string; fallback: unknown }[]>(['account', 'list']).find((x) => x.id === acc.accountId)?.fallback).toEqual({ phone_number: '5329999999', person: null });

    const bad = a.cli(['account', 'set-fallback', acc.accountId, '--phone', '123']);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toBe('voice-alert: Invalid phone number: --phone 123\n');
    const person = a.cli(['account', 'set-fallback', acc.accountId, '--person', 'Ayşe']);
    expect(person.status).toBe(1);
    expect(person.stderr).toBe('voice-alert: Person not found: Ayşe\n');
    const neither = a.cli(['account', 'set-fallback', acc.accountId]);
    expect([neither.status, neither.stderr]).toEqual([2, 'voice-alert: give exactly one of --phone NUMBER and --person NAME\n']);
    const unknown = a.cli(['account', 'set-fallback', 'acc_nope', '--phone', '5329999999']);
    expect([unknown.status, unknown.stderr]).toEqual([1, 'voice-alert: Account not found: acc_nope\n']);
    expect(a.cliJson(['account', 'show', acc.accountId]).fallback).toEqual({ phone_number: '5329999999', person: null });

    // A person (docs/on-call.md "People"): kept by id, reached like any person.
    const ayse = a.cliJson(['person', 'create', acc.accountId, '--name', 'Ayşe', '--phone', '5321111111']);
    expect(a.cliJson(['account', 'set-fallback', acc.accountId, '--person', 'ayşe'])).toEqual({ id: acc.accountId, fallback: { phone_number: null, person: ayse.id } });
    const inUse = a.cli(['person', 'delete', acc.accountId, 'Ayşe']);
    expect([inUse.status, inUse.stderr]).toEqual([1, "voice-alert: Person in use: used by the account's fallback; remove those uses first\n"]);

    expect(a.cliJson(['account', 'clear-fallback', acc.accountId])).toEqual({ id: acc.accountId, fallback: null });
    expect(a.cliJson(['account', 'show', acc.accountId]).fallback).toBeNull();
  }, 60_000);

  it('a webhook whose policy reaches nobody: the warning, the fallback called, the metric counted', async () => {
    const a = applianceDir();
    const acc = provision(a);
    // Its only layer starts in 2099: nobody on call now.
    const layers = [{ participants: [{ name: 'Cem', number: '5323333333' }], shift: '7d', start: '2099-01-05T09:00' }];
    a.cliJson(['schedule', 'create', acc.accountId, '--name', 'backup', '--time-zone', 'Europe/Istanbul', '--layers', JSON.stringify(layers)]);
    a.cliJson(['policy', 'create', acc.accountId, '--name', 'night', '--step', '@backup:60']);
    a.cliJson(['account', 'set-fallback', acc.accountId, '--phone', '5329999999']);
    app = await a.start();
    const r = await post(`${app.url}/webhook/receive?key=${acc.webhookKey}`, { error_message: 'Disk dolu', policy: 'night' });
    expect(r.status).toBe(200);
    const body = r.json as { message: string; warning: string; call_ids: string[]; alert_id: string };
    const nobody = 'Nobody to call: step 1: schedule backup has nobody on call';
    // No trunk here either: the trunk's warning is listed beside it, the warning stays who cannot be reached.
    expect(body).toMatchObject({ status: 'success', message: '1 call(s) queued', warning: nobody, warnings: [nobody, 'No SIP trunk configured: calls wait'] });
    const alert = a.cliJson(['alerts', 'show', body.alert_id]);
    expect(alert).toMatchObject({ unroutable: 'step 1: schedule backup has nobody on call' });
    expect(alert.calls.map((c: { id: string; phone_number?: string; number?: string }) => c.id)).toEqual(body.call_ids);
    const text = await (await fetch(`${app.url}/metrics`)).text();
    expect(sampleValue(parsePromText(text), 'voice_alert_alerts_unroutable_total')).toBe(1);
  }, 60_000);
});
