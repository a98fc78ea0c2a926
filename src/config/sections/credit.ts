import * as z from 'zod';

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export const creditSection = z
  .object({
    /** Monthly credit resets at 00:00 on the 1st in this IANA time zone. */
    timezone: z.string().refine(isTimeZone, 'not a known IANA time zone').default('Europe/Istanbul'),
  })
  .strict();
