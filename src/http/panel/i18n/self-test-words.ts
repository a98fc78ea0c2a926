import type { Messages } from '.';

/** The overview's voice-path self-test card (docs/telephony.md "Voice-path self-test"). */
const en = {
  title: 'Voice-path self-test',
  passed: 'Passed',
  failed: 'Failed',
  at: 'at {t}',
};

const tr: typeof en = {
  title: 'Ses yolu öz testi',
  passed: 'Başarılı',
  failed: 'Başarısız',
  at: '{t}',
};

export type SelfTestWords = typeof en;

/** By the page's language (its `locale`), as maintenanceWords. */
export function selfTestWords(t: Messages): SelfTestWords {
  return t.locale.startsWith('tr') ? tr : en;
}
