import * as z from 'zod';
import { NUMBER_FORMS } from '../../phone';

/** Which phone numbers are called (docs/operations.md "Configuration", `numbers.accept`). */
export const numbersSection = z
  .object({
    /**
     * Forms accepted by the API, the webhook and the panel's test call: tr-mobile (5xxxxxxxxx),
     * tr-landline (0 + area code + number), e164 (+ and 8–15 digits), extension (3–6 digits,
     * dialled as they are, without sip.dial_prefix).
     */
    accept: z
      .array(z.enum(NUMBER_FORMS))
      .min(1, 'at least one number form')
      .default(['tr-mobile'])
      .transform((forms) => [...new Set(forms)]),
  })
  .strict();
