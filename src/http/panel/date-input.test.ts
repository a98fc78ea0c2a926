import { describe, expect, test } from 'vitest';
import { readLocalDate, readLocalDateTime, showLocalDate, showLocalDateTime } from './date-input';
import { inZone } from './views/schedules-page';
import { createFormatter } from './format';
import { messagesFor } from './i18n';

// docs/panel.md "Typing dates": a form takes a date as the panel shows it, and ISO as before.
describe('dates typed as the panel shows them', () => {
  const at = Date.parse('2026-11-25T22:05:00Z');
  test.each(['tr-TR', 'en-GB'])('%s: every way the panel writes a date-time reads back as the same local time', (locale) => {
    const t = locale === 'tr-TR' ? messagesFor('tr') : messagesFor('en');
    const shown = [createFormatter(t, 'UTC').dateTime(at), inZone(locale, 'UTC', at), showLocalDateTime('2026-11-25T22:05', locale)];
    expect(shown.map((s) => readLocalDateTime(s, locale))).toEqual(['2026-11-25T22:05', '2026-11-25T22:05', '2026-11-25T22:05']);
    expect(readLocalDate(createFormatter(t, 'UTC').date(at), locale)).toBe('2026-11-25');
    expect(readLocalDate(showLocalDate('2026-11-25', locale), locale)).toBe('2026-11-25');
  });

  test('the ISO forms as before; seconds kept when not zero; one-digit days, months and hours', () => {
    expect(readLocalDateTime('2026-11-25T22:00', 'tr-TR')).toBe('2026-11-25T22:00');
    expect(readLocalDateTime(' 2026-11-25 22:00:30 ', 'en-GB')).toBe('2026-11-25T22:00:30');
    expect(readLocalDateTime('5.1.2026 9:05', 'tr-TR')).toBe('2026-01-05T09:05');
    expect(readLocalDate('2026-11-25', 'tr-TR')).toBe('2026-11-25');
  });

  test.each([
    ['31.02.2026 10:00', 'no 31 February'],
    ['25.11.26 10:00', 'a two-digit year'],
    ['25.11.2026 24:00', 'no hour 24'],
    ['25.13.2026 10:00', 'no month 13'],
    ['25.11.2026', 'no time'],
    ['tomorrow', 'words'],
    ['2026-11-25T22:00:00Z', 'an instant, not a local time'],
  ])('%s is not a local date-time (%s)', (typed) => {
    expect(readLocalDateTime(typed, 'tr-TR')).toBeNull();
  });

  test('a locale that writes the month first reads the month first', () => {
    expect(readLocalDateTime('11/25/2026, 22:00', 'en-US')).toBe('2026-11-25T22:00');
    expect(readLocalDateTime('11/25/2026, 22:00', 'en-GB')).toBeNull();
    expect(readLocalDate('30.02.2026', 'tr-TR')).toBeNull();
  });
});
