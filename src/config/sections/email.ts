import * as z from 'zod';

/**
 * `[email]` (docs/second-path.md "E-mail"): the LAN's relay. Empty `smtp_url`: no e-mail.
 * `starttls` "auto" (the default): used when the relay offers it; `true`: required (a relay that
 * does not offer it is an error); `false`: never (plain SMTP on a trusted LAN). An smtps:// URL
 * is TLS from the first byte and ignores it.
 */
export const emailSection = z
  .object({
    smtp_url: z
      .string()
      .regex(/^(smtps?:\/\/[^/\s]+\/?)?$/, 'expected smtp://host[:port] or smtps://host[:port], e.g. smtp://relay.lan:25')
      .default(''),
    // From the environment it comes as a string: "true"/"false" are the booleans.
    starttls: z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.union([z.boolean(), z.literal('auto')])).default('auto'),
    username: z.string().default(''),
    password: z.string().default(''),
    /** The sender, e.g. "voice-alert <alerts@example.lan>". */
    from: z.string().default(''),
    /** PEM file of the CA that signed the relay's certificate (a LAN's own PKI); empty: the system's CAs. */
    tls_ca_file: z.string().default(''),
    /** Connection, greeting and each SMTP step's bound. */
    timeout_s: z.number().positive().max(300).default(30),
  })
  .strict()
  .refine((e) => e.smtp_url === '' || e.from !== '', { message: 'email.from is required with email.smtp_url', path: ['from'] });

export type EmailConfig = z.infer<typeof emailSection>;
