import { afterEach, describe, expect, it } from 'vitest';
import { applianceDir, provision } from '../helpers/appliance';
import { callbackRig } from '../helpers/callback-rig';
import { startSipp } from '../helpers/sipp';

/**
 * docs/on-call.md "Hand-off calls", through the compiled binary against sipp standing for the
 * incoming person's phone (test/peers/sipp/busy-or-press.xml: it answers and presses 1): an
 * override of a schedule with --handoff-call starting seconds from now is a hand-off; the
 * running appliance calls the incoming person once, uncharged, and the 1 confirms it: no
 * alert, nobody else called, no second try.
 */
const rig = callbackRig();
afterEach(() => rig.stopAll());

const AYSE = '5321111111';
const BORA = '5322222222';

describe('hand-off calls, through the binary', () => {
  it('the incoming person is called at the hand-off and presses 1: confirmed, nothing more', async () => {
    const sipp = rig.keepPeer(await startSipp({ scenario: 'busy-or-press.xml', calls: 1, keys: { listen_ms: 300, digit: 1 }, fill: { busy_number: '5329999999' } }));
    const a = applianceDir(await rig.sipConfig(sipp.port));
    const acc = provision(a);
    a.cliJson(['person', 'create', acc.accountId, '--name', 'Bora', '--phone', BORA, '--language', 'en']);
    const layers = [{ participants: [{ name: 'Ayşe', number: AYSE }], shift: '7d', start: '2026-01-05T09:00' }];
    expect(a.cliJson(['schedule', 'create', acc.accountId, '--name', 'noc', '--time-zone', 'Europe/Istanbul', '--layers', JSON.stringify(layers), '--handoff-call']).handoff_call).toBe(true);
    const before = a.cliJson(['credit', 'show', acc.accountId]);
    await rig.start(a);
    // Bora takes over from Ayşe a few seconds from now, for an hour.
    const startsAt = new Date(Math.ceil((Date.now() + 6000) / 1000) * 1000);
    a.cliJson(['schedule', 'override', acc.accountId, 'noc', '--from', startsAt.toISOString(), '--to', new Date(startsAt.getTime() + 3600_000).toISOString(), '--person', 'Bora']);

    const calls = () => a.cliJson(['calls', 'list', acc.accountId]) as { id: string; phone_number: string; source: string; state: string; person: unknown }[];
    // The watch looks every 5 s, the hand-off loop every 5 s; then the call rings and 1 is pressed.
    await expect.poll(() => calls().find((c) => c.source === 'handoff')?.state, { timeout: 40_000, interval: 500 }).toBe('acknowledged');
    expect(await sipp.exited).toBe(0);
    // Another look of both loops: nothing more (no second try, no alert to Ayşe).
    await new Promise((r) => setTimeout(r, 6000));
    const all = calls();
    expect(all.map((c) => ({ number: c.phone_number, source: c.source, state: c.state }))).toEqual([{ number: BORA, source: 'handoff', state: 'acknowledged' }]);
    expect(a.cliJson(['credit', 'show', acc.accountId]).used).toBe(before.used);
  }, 90_000);
});
