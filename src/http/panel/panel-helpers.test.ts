import { describe, expect, test } from 'vitest';
import { verifySignature } from '../../signing';
import { buildExamples } from './examples';
import { startOfDay } from './format';
import { flattenConfig, MASK } from './mask-config';
import { dailyUsage } from './usage-days';

describe('panel helpers', () => {
  test('the worked signature example verifies with the real checker', () => {
    const ex = buildExamples({ baseUrl: 'http://h:8080', apiKey: 'vak_x', apiSecret: 'vas_secret', webhookKey: 'vwk_k' });
    expect(ex.webhookUrl).toBe('http://h:8080/webhook/receive?key=vwk_k');
    const { timestamp, body, signature } = ex.signedCheck!;
    const ok = verifySignature('vas_secret', { timestamp, signature }, new TextEncoder().encode(body), Number(timestamp) * 1000);
    expect(ok).toBe(true);
    expect(ex.curlApi).toContain("'http://h:8080/api/call'");
  });

  test('without the secret the examples use shell variables, never a value', () => {
    const ex = buildExamples({ baseUrl: 'http://h', apiKey: 'vak_x' });
    expect(ex.webhookUrl).toBe('http://h/webhook/receive?key=$WEBHOOK_KEY');
    expect(ex.curlApi).toContain('$API_SECRET');
    expect(ex.signedCheck).toBeNull();
  });

  test('days start at local midnight, across a DST change too', () => {
    expect(startOfDay('2026-11-15', 'Europe/Istanbul')).toBe(Date.parse('2026-11-14T21:00:00Z'));
    expect(startOfDay('2026-03-29', 'Europe/Berlin')).toBe(Date.parse('2026-03-28T23:00:00Z'));
    expect(startOfDay('2026-03-30', 'Europe/Berlin')).toBe(Date.parse('2026-03-29T22:00:00Z'));
    expect(startOfDay('15.11.2026', 'Europe/Istanbul')).toBeUndefined();
  });

  test('usage per day covers the period up to today, zeros included, in the credit time zone', () => {
    const now = Date.parse('2026-11-03T10:00:00Z');
    const times = [Date.parse('2026-10-31T22:30:00Z'), Date.parse('2026-11-03T09:00:00Z'), Date.parse('2026-11-03T09:30:00Z')];
    // 2026-10-31T22:30Z is 01:30 on the 1st in Istanbul (UTC+3).
    expect(dailyUsage(times, now, 'Europe/Istanbul')).toEqual([
      { day: '2026-11-01', calls: 1 },
      { day: '2026-11-02', calls: 0 },
      { day: '2026-11-03', calls: 2 },
    ]);
  });

  test('secret-looking settings are masked, also inside lists of tables', () => {
    const rows = new Map(flattenConfig({ sip: { password: 'p', user: 'u', trunks: [{ auth_password: 'x', host: 'h' }] }, tts: { api_key: '' } }));
    expect(rows.get('sip.password')).toBe(MASK);
    expect(rows.get('sip.user')).toBe('"u"');
    expect(rows.get('sip.trunks[0].auth_password')).toBe(MASK);
    expect(rows.get('sip.trunks[0].host')).toBe('"h"');
    expect(rows.get('tts.api_key')).toBe('');
  });
});
