import type { Messages } from '.';

/** The Import page (docs/panel.md "Import"): the last applied plan and check of each source. */
const en = {
  title: 'Import',
  intro: 'Teams moved here from Opsgenie or PagerDuty with voice-alert import: the last plan applied and the last check of each source. The import itself runs on the command line (it needs the source\'s API key):',
  none: 'Nothing imported into this account yet.',
  sources: { opsgenie: 'Opsgenie', pagerduty: 'PagerDuty' } as Record<string, string>,
  applied: 'Last applied',
  neverApplied: 'Never applied (checked only).',
  summary: 'Summary',
  actions: { create: 'create', update: 'update', unchanged: 'unchanged', skip: 'skip' } as Record<string, string>,
  action: 'Action',
  kind: 'Kind',
  name: 'Name',
  why: 'Why / notes',
  of: 'of {of}',
  integrations: 'Integrations: where each tool now sends',
  notTaken: 'not taken: {why}',
  check: 'Last check',
  neverChecked: 'Never checked: voice-alert import … --check compares the source\'s on-call timeline with ours, minute by minute, for 14 days.',
  checkRange: '{from} to {to}, minute by minute',
  agrees: 'agrees',
  disagreements: '{n} disagreement(s)',
  theirs: 'theirs',
  ours: 'ours',
  nobody: 'nobody',
  unreadable: 'This record could not be read.',
};

const tr: typeof en = {
  title: 'İçe aktarma',
  intro: 'Opsgenie ya da PagerDuty\'den voice-alert import ile buraya taşınan ekipler: her kaynağın en son uygulanan planı ve en son denetimi. İçe aktarmanın kendisi komut satırında çalışır (kaynağın API anahtarı gerekir):',
  none: 'Bu hesaba henüz bir şey içe aktarılmadı.',
  sources: { opsgenie: 'Opsgenie', pagerduty: 'PagerDuty' },
  applied: 'En son uygulanan',
  neverApplied: 'Hiç uygulanmadı (yalnızca denetlendi).',
  summary: 'Özet',
  actions: { create: 'oluştur', update: 'güncelle', unchanged: 'değişmedi', skip: 'atla' },
  action: 'İşlem',
  kind: 'Tür',
  name: 'Ad',
  why: 'Neden / notlar',
  of: '{of} içinde',
  integrations: 'Entegrasyonlar: her aracın artık gönderdiği yer',
  notTaken: 'alınmadı: {why}',
  check: 'En son denetim',
  neverChecked: 'Hiç denetlenmedi: voice-alert import … --check, kaynağın nöbet çizelgesini bizimkiyle 14 gün boyunca dakika dakika karşılaştırır.',
  checkRange: '{from} – {to}, dakika dakika',
  agrees: 'uyuşuyor',
  disagreements: '{n} uyuşmazlık',
  theirs: 'onların',
  ours: 'bizim',
  nobody: 'kimse',
  unreadable: 'Bu kayıt okunamadı.',
};

export type ImportWords = typeof en;

/** By the page's language (its `locale`), as answeredByWords. */
export function importWords(t: Messages): ImportWords {
  return t.locale.startsWith('tr') ? tr : en;
}
