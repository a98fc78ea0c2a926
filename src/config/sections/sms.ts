import * as z from 'zod';

/**
 * `[[sms.modems]]` (docs/second-path.md "GSM modems"): a GSM modem on the appliance itself, spoken
 * to with AT commands (3GPP TS 27.005 / 27.007) over a serial port. It reaches a phone when the
 * network or the PBX is what broke.
 */
export const smsModem = z
  .object({
    /** Short and plain: it labels metrics, logs and health checks. */
    name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,31}$/, 'expected 1–32 letters, digits, ".", "_" or "-", e.g. gsm1'),
    /** The serial device, e.g. /dev/ttyUSB2 (a USB stick's AT port) or /dev/serial/by-id/…. */
    device: z.string().min(1),
    baud: z.number().int().positive().default(115200),
    /** The SIM's PIN, entered only when the modem asks (`+CPIN: SIM PIN`); never logged. */
    pin: z.string().regex(/^[0-9]{4,8}$/, 'expected 4–8 digits').optional(),
  })
  .strict();

export type SmsModemConfig = z.infer<typeof smsModem>;

/**
 * `[sms]`: which path texts take (`modem`: the `[[sms.modems]]` in order; `sip`: SIP MESSAGE,
 * RFC 3428, through the trunks) and the modem timings. The timings are in the file so the tests
 * can shorten them; the defaults suit real modems.
 */
export const smsSection = z
  .object({
    via: z.enum(['modem', 'sip']).default('modem'),
    modems: z.array(smsModem).default([]),
    /** How long one AT command may take before the modem counts as not answering. */
    at_timeout_s: z.number().positive().max(60).default(5),
    /** How long `AT+CMGS` may take (the network's answer), TS 27.005 allows long waits. */
    send_timeout_s: z.number().positive().max(300).default(60),
    /** Registration (`AT+CREG?`) and signal (`AT+CSQ`) are read this often. */
    status_interval_s: z.number().positive().max(3600).default(30),
    /** A modem that vanished or did not answer is opened again after this long. */
    reopen_s: z.number().positive().max(600).default(3),
    /** A text that failed (`+CMS ERROR`, a lost device) is tried again within this window, at most 3 times. */
    retry_window_s: z.number().positive().max(600).default(10),
  })
  .strict()
  .superRefine((s, ctx) => {
    const seen = new Set<string>();
    for (const m of s.modems) {
      if (seen.has(m.name)) ctx.addIssue({ code: 'custom', path: ['modems'], message: `two modems named ${m.name}` });
      seen.add(m.name);
    }
  });

export type SmsConfig = z.infer<typeof smsSection>;
