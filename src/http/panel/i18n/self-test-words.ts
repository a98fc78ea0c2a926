import type { Messages } from '.';

/** The overview's voice-path self-test card (docs/telephony.md "Voice-path self-test"). */
const en = {
  title: 'Voice-path self-test',
  passed: 'Passed',
  failed: 'Failed',
  at: 'at {t}',
  trunksTitle: 'Trunks',
  trunksIntro: 'Each SIP trunk in the order calls try them: its state (from OPTIONS probes and self-tests), and its newest voice-path self-test: a call to self_test.number that plays a signal and checks the answer (and the echo).',
  trunk: 'Trunk',
  server: 'Server',
  state: 'State',
  lastProbe: 'Last probe',
  lastSelfTest: 'Last self-test',
  never: 'never run',
  run: 'Run self-test now',
  asked: 'Self-test asked for on {trunk}: the server runs it within a few seconds (this page follows it).',
  off: 'Self-tests are off: set self_test.number (a PBX echo or answering number) and at least one trunk.',
  unknownTrunk: 'Self-tests do not run on this trunk (self_test.trunk names another).',
  none: 'No trunk is configured (sip.server or sip.trunks).',
  notRunning: 'Telephony does not run in this process: states are unknown.',
};

const tr: typeof en = {
  title: 'Ses yolu öz testi',
  passed: 'Başarılı',
  failed: 'Başarısız',
  at: '{t}',
  trunksTitle: 'Hatlar',
  trunksIntro: 'Aramaların denediği sırayla her SIP hattı: durumu (OPTIONS yoklamaları ve öz testlerden) ve en yeni ses yolu öz testi: self_test.number numarasına bir sinyal çalan ve cevabı (ve yankıyı) denetleyen bir arama.',
  trunk: 'Hat',
  server: 'Sunucu',
  state: 'Durum',
  lastProbe: 'Son yoklama',
  lastSelfTest: 'Son öz test',
  never: 'hiç çalışmadı',
  run: 'Öz testi şimdi çalıştır',
  asked: '{trunk} için öz test istendi: sunucu birkaç saniye içinde çalıştırır (bu sayfa izler).',
  off: 'Öz testler kapalı: self_test.number (bir PBX yankı ya da cevap numarası) ve en az bir hat ayarlayın.',
  unknownTrunk: 'Bu hatta öz test çalışmaz (self_test.trunk başka bir hattı anıyor).',
  none: 'Hiç hat ayarlanmamış (sip.server ya da sip.trunks).',
  notRunning: 'Telefon bu süreçte çalışmıyor: durumlar bilinmiyor.',
};

export type SelfTestWords = typeof en;

/** By the page's language (its `locale`), as maintenanceWords. */
export function selfTestWords(t: Messages): SelfTestWords {
  return t.locale.startsWith('tr') ? tr : en;
}
