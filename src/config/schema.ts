import * as z from 'zod';
import { alertsSection } from './sections/alerts';
import { amdSection } from './sections/amd';
import { callsSection } from './sections/calls';
import { creditSection } from './sections/credit';
import { emailSection } from './sections/email';
import { httpSection } from './sections/http';
import { integrationsSection } from './sections/integrations';
import { logSection } from './sections/log';
import { metricsSection } from './sections/metrics';
import { numbersSection } from './sections/numbers';
import { panelSection } from './sections/panel';
import { selfTestSection } from './sections/self-test';
import { sipSection, sipTrunks } from './sections/sip';
import { undialableForms } from './sections/sip-trunks';
import { smsSection } from './sections/sms';
import { storeSection } from './sections/store';
import { ttsSection } from './sections/tts';
import { voiceDeskSection } from './sections/voice-desk';

/**
 * The whole configuration: one section per concern, each with its defaults.
 * `prefault({})` (not `default`) so a missing section still gets its inner defaults.
 */
export const configSchema = z
  .object({
    http: httpSection.prefault({}),
    store: storeSection.prefault({}),
    credit: creditSection.prefault({}),
    alerts: alertsSection.prefault({}),
    calls: callsSection.prefault({}),
    sip: sipSection.prefault({}),
    log: logSection.prefault({}),
    metrics: metricsSection.prefault({}),
    panel: panelSection.prefault({}),
    tts: ttsSection.prefault({}),
    numbers: numbersSection.prefault({}),
    integrations: integrationsSection.prefault({}),
    self_test: selfTestSection.prefault({}),
    voice_desk: voiceDeskSection.prefault({}),
    sms: smsSection.prefault({}),
    email: emailSection.prefault({}),
    amd: amdSection.prefault({}),
  })
  .strict()
  // A number form numbers.accept takes must have a trunk that may dial it (sip-trunks.ts).
  .superRefine((c, ctx) => {
    for (const message of undialableForms(c.sip, c.numbers.accept)) ctx.addIssue({ code: 'custom', path: ['sip', 'trunks'], message });
    // self_test.trunk names one of the trunks (docs/telephony.md "Voice-path self-test").
    const names = sipTrunks(c.sip).map((t) => t.name);
    if (c.self_test.trunk !== '' && !names.includes(c.self_test.trunk)) {
      ctx.addIssue({ code: 'custom', path: ['self_test', 'trunk'], message: `no trunk named ${c.self_test.trunk} (trunks: ${names.join(', ') || 'none'})` });
    }
  });

export type Config = z.infer<typeof configSchema>;
