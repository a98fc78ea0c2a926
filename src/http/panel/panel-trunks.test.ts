import { describe, expect, test } from 'vitest';
import type { PanelUser } from '../../store';
import { createFormatter } from './format';
import { messagesFor } from './i18n';
import { OverviewLive, type OverviewData } from './views/overview-page';

const data = (trunks: NonNullable<OverviewData['trunk']>['trunks']): OverviewData => ({
  trunk: { state: 'up', registered: null, lastError: null, trunks },
  lastSip: null,
  inProgress: 0,
  queued: 0,
  oldestQueuedS: null,
  openAlerts: 0,
  unacknowledged: 0,
  today: {},
  failures: [],
  credit: null,
});

const render = (role: 'admin' | 'owner', language: 'en' | 'tr' = 'en') => {
  const t = messagesFor(language);
  const user = { role } as PanelUser;
  return String(
    OverviewLive({
      t,
      fmt: createFormatter(t, 'Europe/Istanbul'),
      user,
      data: data([
        { name: 'pbx', server: '192.0.2.10:5060', state: 'down', lastProbeResult: 'timeout' },
        { name: 'carrier', server: '198.51.100.7:5060', state: 'up', lastProbeResult: '200 OK' },
        { name: 'spare', server: '203.0.113.9:5060', state: 'none', lastProbeResult: null },
      ]),
    }),
  );
};

describe('panel overview: each trunk (docs/telephony.md "SIP trunks: several, in order")', () => {
  test('every trunk with its own state, in order; the administrator also sees its server and last probe', () => {
    const html = render('admin');
    const states = [...html.matchAll(/data-testid="trunk-state-([^"]+)" data-state="([^"]+)"[^>]*>([^<]*)</g)].map((m) => [m[1], m[2], m[3]!.trim()]);
    expect(states).toEqual([
      ['pbx', 'down', 'Down'],
      ['carrier', 'up', 'Up'],
      ['spare', 'none', 'Not probed'],
    ]);
    expect(html).toContain('192.0.2.10:5060 · timeout');
    const owner = render('owner');
    expect(owner).toContain('data-testid="trunk-state-pbx" data-state="down"');
    expect(owner).not.toContain('192.0.2.10');
    expect(render('admin', 'tr')).toMatch(/data-state="down"[^>]*>\s*Kapalı/);
  });
});
