import { describe, expect, it } from 'vitest';
import { parseCmgr, parseCmti, parseCpin, parseCreg, parseCsq } from './at-answers';
import { MODEM_EDGES, MODEM_REACTIONS, MODEM_STATES } from './modem-states';
import { codingOf, fromUcs2Hex, splitText, toUcs2Hex, unitsOf } from './text-coding';

describe('text coding (TS 23.038)', () => {
  it('keeps ASCII that GSM 7-bit has in gsm, anything else in ucs2', () => {
    expect(codingOf('Disk full @ db1: 95% [ack]')).toBe('gsm');
    expect(codingOf('Disk dolu: ğ')).toBe('ucs2');
    expect(codingOf('back`tick')).toBe('ucs2'); // ` is not in the GSM alphabet
    expect(unitsOf('a[b]', 'gsm')).toBe(6); // extension characters take two septets
  });

  it('sends a text that fits as one part, unchanged but for CR', () => {
    expect(splitText('x'.repeat(160))).toEqual({ coding: 'gsm', parts: ['x'.repeat(160)] });
    expect(splitText('ş'.repeat(70))).toEqual({ coding: 'ucs2', parts: ['ş'.repeat(70)] });
    expect(splitText('a\r\nb')).toEqual({ coding: 'gsm', parts: ['a\nb'] });
  });

  it('splits long texts into numbered parts within the limits, never inside a surrogate pair', () => {
    const { coding, parts } = splitText('ş'.repeat(69) + '😀' + 'ş'.repeat(100));
    expect(coding).toBe('ucs2');
    for (const p of parts) {
      expect(p.length).toBeLessThanOrEqual(70);
      expect(/[\uD800-\uDBFF]$/.test(p)).toBe(false);
    }
    expect(parts.map((p) => p.replace(/^\(\d+\/\d+\) /, '')).join('')).toBe('ş'.repeat(69) + '😀' + 'ş'.repeat(100));
    const ten = splitText('y'.repeat(160 * 10));
    expect(ten.parts.length).toBe(11);
    expect(ten.parts[10]!.startsWith('(11/11) ')).toBe(true);
    for (const p of ten.parts) expect(unitsOf(p, 'gsm')).toBeLessThanOrEqual(160);
  });

  it('writes and reads UCS-2 hex', () => {
    expect(toUcs2Hex('İ1')).toBe('01300031');
    expect(fromUcs2Hex('01300031')).toBe('İ1');
    expect(fromUcs2Hex('+90532')).toBeNull();
  });
});

describe('AT answers (TS 27.007, TS 27.005)', () => {
  it('reads +CPIN, +CREG, +CSQ, +CMTI and +CMGR', () => {
    expect(parseCpin(['+CPIN: SIM PIN'])).toBe('SIM PIN');
    expect(parseCpin(['garbage'])).toBeNull();
    expect(parseCreg(['+CREG: 0,5'])).toEqual({ stat: 5, registered: true, text: 'registered, roaming' });
    expect(parseCreg(['+CREG: 3'])).toEqual({ stat: 3, registered: false, text: 'registration denied' });
    expect(parseCsq(['+CSQ: 0,99'])).toEqual({ rssi: 0, dbm: -113 });
    expect(parseCmti('+CMTI: "SM",12')).toBe(12);
    expect(parseCmti('+CMTI: garbage')).toBeNull();
    expect(parseCmgr(['+CMGR: "REC UNREAD","002B00390030",,"26/12/02,03:00:00+12"', '0061'], fromUcs2Hex)).toEqual({ from: '+90', body: 'a' });
    expect(parseCmgr(['+CMGR: "REC READ"'], fromUcs2Hex)).toBeNull();
  });
});

describe('modem session states', () => {
  it('every reaction is a drawn edge, and every state can be stopped', () => {
    for (const from of MODEM_STATES) {
      for (const to of Object.values(MODEM_REACTIONS[from])) {
        if (to !== 'ignore') expect(MODEM_EDGES[from]).toContain(to);
      }
      expect(MODEM_REACTIONS[from].stop).toBeDefined();
    }
    // Only a refused SIM is final until restart; lost is always opened again.
    expect(MODEM_REACTIONS.lost.reopen).toBe('opening');
    expect(MODEM_REACTIONS.failed.reopen).toBeUndefined();
  });
});
