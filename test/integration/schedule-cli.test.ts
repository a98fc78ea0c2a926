import { describe, expect, it } from 'vitest';
import { applianceDir, provision } from '../helpers/appliance';
import { startCallbackReceiver } from '../helpers/callback-receiver';

/** docs/on-call.md "On-call schedules": the CLI, as an operator runs it. */
const LAYERS = [
  {
    participants: [
      { name: 'Ayşe', number: '0532 111 11 11' },
      { name: 'Bora', number: '5322222222' },
    ],
    shift: '7d',
    start: '2026-11-02T09:00',
  },
  {
    participants: [{ name: 'Cem', number: '5323333333' }],
    shift: '1d',
    start: '2026-11-02T00:00',
    restrictions: [{ days: ['sat', 'sun'], from: '10:00', to: '16:00' }],
  },
];

describe('voice-alert schedule', () => {
  it('create, list, show (with ics_url), oncall, override and delete; bad input is one clear line', () => {
    const a = applianceDir({ panel: { public_url: 'https://alerts.example.com' } });
    const acc = provision(a);
    const created = a.cliJson(['schedule', 'create', acc.accountId, '--name', 'noc', '--time-zone', 'Europe/Istanbul', '--layers', JSON.stringify(LAYERS)]);
    expect(created).toMatchObject({
      id: expect.stringMatching(/^sch_/),
      account_id: acc.accountId,
      name: 'noc',
      time_zone: 'Europe/Istanbul',
      ics_url: expect.stringMatching(/^https:\/\/alerts\.example\.com\/schedules\/[0-9A-Za-z]{32}\.ics$/),
    });
    expect(created.layers[0].participants[0]).toEqual({ name: 'Ayşe', number: '5321111111' });
    expect(a.cliJson(['schedule', 'list', acc.accountId])).toEqual([created]);
    expect(a.cliJson(['schedule', 'show', acc.accountId, 'noc'])).toEqual({ ...created, overrides: [] });

    // Monday 2026-11-09 08:59 +03: Ayşe's week until 09:00, then Bora's.
    expect(a.cliJson(['schedule', 'oncall', acc.accountId, 'noc', '--at', '2026-11-09T08:59:00+03:00'])).toEqual({
      name: 'Ayşe',
      number: '5321111111',
      until: '2026-11-09T06:00:00.000Z',
    });
    // Saturday 11:00 local: the weekend layer is higher, until 16:00 local.
    expect(a.cliJson(['schedule', 'oncall', acc.accountId, 'noc', '--at', '2026-11-14T08:00:00Z'])).toEqual({
      name: 'Cem',
      number: '5323333333',
      until: '2026-11-14T13:00:00.000Z',
    });

    const o = a.cliJson(['schedule', 'override', acc.accountId, 'noc', '--from', '2099-01-01T00:00:00Z', '--to', '2099-01-02T00:00:00Z', '--number', '+90 532 444 44 44', '--name', 'Deniz']);
    expect(o).toMatchObject({ id: expect.stringMatching(/^ovr_/), from: '2099-01-01T00:00:00.000Z', to: '2099-01-02T00:00:00.000Z', name: 'Deniz', number: '5324444444' });
    expect(a.cliJson(['schedule', 'oncall', acc.accountId, 'noc', '--at', '2099-01-01T12:00:00Z'])).toEqual({ name: 'Deniz', number: '5324444444', until: '2099-01-02T00:00:00.000Z' });
    expect(a.cliJson(['schedule', 'show', acc.accountId, 'noc']).overrides).toEqual([o]);

    // An escalation step names schedules with @ beside numbers.
    expect(a.cliJson(['policy', 'create', acc.accountId, '--name', 'p', '--step', '@noc,5321111111:300', '--step', '@noc'])).toMatchObject({
      steps: [
        { numbers: ['5321111111'], schedules: ['noc'], wait_s: 300 },
        { numbers: [], schedules: ['noc'], wait_s: 300 },
      ],
    });
    expect(a.cli(['policy', 'create', acc.accountId, '--name', 'q', '--step', '@nope']).stderr).toBe('voice-alert: Invalid escalation policy: steps.0.schedules: no such schedule: nope\n');
    // Named by policy p: the schedule cannot be deleted, and the CLI names the policy.
    const refused = a.cli(['schedule', 'delete', acc.accountId, 'noc']);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/^voice-alert: Schedule in use: used by policy p \(pol_\w+\); remove those uses first\n$/);
    a.cliJson(['policy', 'delete', acc.accountId, 'p']);

    const badZone = a.cli(['schedule', 'create', acc.accountId, '--name', 'x', '--time-zone', 'Mars/Olympus', '--layers', JSON.stringify(LAYERS)]);
    expect(badZone.status).toBe(1);
    expect(badZone.stderr).toBe('voice-alert: Invalid schedule: time_zone: not an IANA time zone: Mars/Olympus\n');
    const badShift = a.cli(['schedule', 'create', acc.accountId, '--name', 'x', '--time-zone', 'UTC', '--layers', JSON.stringify([{ ...LAYERS[0], shift: '7w' }])]);
    expect(badShift.stderr).toBe('voice-alert: Invalid schedule: layers.0.shift: Nd or Nh, e.g. 7d or 12h\n');
    expect(a.cli(['schedule', 'create', acc.accountId, '--name', 'noc', '--time-zone', 'UTC', '--layers', JSON.stringify(LAYERS)]).stderr).toBe('voice-alert: Schedule name taken: noc\n');
    expect(a.cli(['schedule', 'oncall', acc.accountId, 'noc', '--at', '2026-11-09 08:59']).stderr).toMatch(/--at must be an ISO 8601 instant with a zone/);
    expect(a.cli(['schedule', 'override', acc.accountId, 'noc', '--from', '2099-01-02T00:00Z', '--to', '2099-01-01T00:00Z', '--number', '5324444444']).stderr).toBe(
      'voice-alert: Invalid override: --to must be after --from\n',
    );

    expect(a.cliJson(['schedule', 'delete', acc.accountId, 'noc'])).toMatchObject({ name: 'noc', deleted: true });
    expect(a.cliJson(['schedule', 'list', acc.accountId])).toEqual([]);
    expect(a.cli(['schedule', 'oncall', acc.accountId, 'noc']).stderr).toBe('voice-alert: Schedule not found: noc\n');
  }, 60_000); // about twenty runs of the binary one after the other: 16 s in CI on PostgreSQL

  it('update changes a schedule in place (id, feed URL, overrides kept); remove-override; a rename refused while a policy names it', () => {
    const a = applianceDir();
    const acc = provision(a);
    const created = a.cliJson(['schedule', 'create', acc.accountId, '--name', 'noc', '--time-zone', 'Europe/Istanbul', '--layers', JSON.stringify(LAYERS)]);
    const o = a.cliJson(['schedule', 'override', acc.accountId, 'noc', '--from', '2099-01-01T00:00:00Z', '--to', '2099-01-02T00:00:00Z', '--number', '5324444444']);
    const updated = a.cliJson(['schedule', 'update', acc.accountId, 'noc', '--layers', JSON.stringify(LAYERS.slice(0, 1))]);
    expect(updated).toMatchObject({ id: created.id, ics_url: created.ics_url, name: 'noc' });
    expect(updated.layers).toHaveLength(1);
    // Saturday 11:00 local: the weekend layer is gone, Bora's week.
    expect(a.cliJson(['schedule', 'oncall', acc.accountId, 'noc', '--at', '2026-11-14T08:00:00Z']).name).toBe('Bora');
    expect(a.cli(['schedule', 'update', acc.accountId, 'noc']).status).toBe(2);
    expect(a.cliJson(['schedule', 'remove-override', acc.accountId, 'noc', o.id])).toEqual(o);
    expect(a.cliJson(['schedule', 'show', acc.accountId, 'noc']).overrides).toEqual([]);
    expect(a.cli(['schedule', 'remove-override', acc.accountId, 'noc', o.id]).stderr).toBe(`voice-alert: Override not found: ${o.id}\n`);
    a.cliJson(['policy', 'create', acc.accountId, '--name', 'p', '--step', '@noc']);
    const renamed = a.cli(['schedule', 'update', acc.accountId, 'noc', '--name', 'noc2']);
    expect(renamed.status).toBe(1);
    expect(renamed.stderr).toMatch(/^voice-alert: Schedule in use: used by policy p \(pol_\w+\); remove those uses first\n$/);
  }, 60_000); // eleven runs of the binary one after the other
});

describe('the binary serves schedules', () => {
  it('--handoff-call on create and update (docs/on-call.md "Hand-off calls"): in the JSON, on show, off again with --no-handoff-call', () => {
    const a = applianceDir();
    const acc = provision(a);
    const created = a.cliJson(['schedule', 'create', acc.accountId, '--name', 'noc', '--time-zone', 'Europe/Istanbul', '--layers', JSON.stringify(LAYERS), '--handoff-call']);
    expect(created.handoff_call).toBe(true);
    expect(a.cli(['schedule', 'show', acc.accountId, 'noc']).stdout).toContain('hand-off calls\ton: whoever comes on call is asked to press 1');
    expect(a.cliJson(['schedule', 'update', acc.accountId, 'noc', '--no-handoff-call']).handoff_call).toBe(false);
    expect(a.cli(['schedule', 'show', acc.accountId, 'noc']).stdout).not.toContain('hand-off calls');
    expect(a.cliJson(['schedule', 'show', acc.accountId, 'noc'])).toMatchObject({ handoff_call: false, overrides: [] });
    expect(a.cliJson(['schedule', 'update', acc.accountId, 'noc', '--handoff-call']).handoff_call).toBe(true);
    // Without the flag a schedule calls nobody at its hand-offs.
    expect(a.cliJson(['schedule', 'create', acc.accountId, '--name', 'plain', '--time-zone', 'UTC', '--layers', JSON.stringify(LAYERS)]).handoff_call).toBe(false);
  });

  it('GET /api/schedules/{name}/oncall and the .ics feed from the compiled binary', async () => {
    const a = applianceDir();
    const acc = provision(a);
    const created = a.cliJson(['schedule', 'create', acc.accountId, '--name', 'noc', '--time-zone', 'Europe/Istanbul', '--layers', JSON.stringify(LAYERS)]);
    const server = await a.start();
    try {
      const token = /\/schedules\/([0-9A-Za-z]{32})\.ics$/.exec(created.ics_url)![1];
      const oncall = await fetch(`${server.url}/api/schedules/noc/oncall?at=2026-11-09T08:59:00%2B03:00`, { headers: { 'x-webhook-key': acc.webhookKey } });
      expect(oncall.status).toBe(200);
      expect(await oncall.json()).toEqual({ status: 'success', message: 'On call', name: 'Ayşe', number: '5321111111', until: '2026-11-09T06:00:00.000Z' });
      const ics = await fetch(`${server.url}/schedules/${token}.ics`);
      expect(ics.status).toBe(200);
      const text = await ics.text();
      expect(text.startsWith('BEGIN:VCALENDAR')).toBe(true);
      expect((text.match(/BEGIN:VEVENT/g) ?? []).length).toBeGreaterThan(8);
      expect(text).toContain('SUMMARY:On call: Ay');
    } finally {
      await server.stop();
    }
  });
});

describe('the binary sends oncall.changed (docs/on-call.md "On-call schedules", "Callbacks")', () => {
  it('an override starting seconds from now (time for two CLI runs): one signed oncall.changed at its start, from the rotation to the override', async () => {
    const a = applianceDir();
    const acc = provision(a);
    a.cliJson(['schedule', 'create', acc.accountId, '--name', 'noc', '--time-zone', 'Europe/Istanbul', '--layers', JSON.stringify(LAYERS)]);
    let secret = '';
    const receiver = startCallbackReceiver(() => secret);
    try {
      secret = a.cliJson(['account', 'set-callback', acc.accountId, '--url', receiver.url]).callback_secret;
      const server = await a.start();
      try {
        const startsAt = new Date(Math.ceil((Date.now() + 8000) / 1000) * 1000);
        const before = a.cliJson(['schedule', 'oncall', acc.accountId, 'noc', '--at', startsAt.toISOString()]);
        const to = new Date(startsAt.getTime() + 3600_000).toISOString();
        a.cliJson(['schedule', 'override', acc.accountId, 'noc', '--from', startsAt.toISOString(), '--to', to, '--number', '5324444444', '--name', 'Deniz']);
        const changed = () => receiver.received.filter((r) => r.event.type === 'oncall.changed');
        // The watch looks every 5 s (schedules/watch.ts WATCH_POLL_MS); then the outbox sends it.
        await expect.poll(() => changed().length, { timeout: 25_000, interval: 200 }).toBeGreaterThan(0);
        const [first] = changed();
        expect(first!.signatureValid).toBe(true);
        expect(first!.event).toMatchObject({
          type: 'oncall.changed',
          at: startsAt.toISOString(),
          account_id: acc.accountId,
          schedule: 'noc',
          from: { name: before.name, number: before.number },
          to: { name: 'Deniz', number: '5324444444' },
        });
        expect(first!.at).toBeGreaterThanOrEqual(startsAt.getTime());
        await new Promise((r) => setTimeout(r, 6000)); // another look of the watch: nothing sent again
        expect(changed()).toHaveLength(1);
      } finally {
        await server.stop();
      }
    } finally {
      receiver.stop();
    }
  }, 60_000);
});
