import * as z from 'zod';

/** Native monitoring sources on /webhook/receive (docs/integrations.md "Integration recipes"). */
export const integrationsSection = z
  .object({
    /** GET an SNS SubscribeURL once when it is https on an allowed host; otherwise it is only logged. */
    sns_auto_confirm: z.boolean().default(true),
    /** Hosts an SNS SubscribeURL may point at for auto-confirmation; `*` matches within one label. */
    sns_confirm_hosts: z
      .array(z.string().regex(/^[a-z0-9*.-]+$/i, 'a host name pattern such as "sns.*.amazonaws.com"'))
      .default(['sns.*.amazonaws.com']),
  })
  .strict();
