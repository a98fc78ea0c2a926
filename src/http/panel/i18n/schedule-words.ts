import type { Messages } from '.';

/** The schedules page's and the overview's on-call words (docs/on-call.md "On-call schedules"). */
const en = {
  title: 'On-call schedules',
  intro: 'Who is on call, from each schedule’s layers and overrides. Create schedules with the CLI (voice-alert schedule create); escalation steps name them as @name.',
  none: 'No schedules yet.',
  timeZone: 'Time zone',
  onCallNow: 'On call now',
  nobody: 'nobody',
  until: 'until {t}',
  next14: 'Next 14 days',
  from: 'From',
  to: 'To',
  who: 'Who',
  number: 'Number',
  overrides: 'Overrides',
  noOverrides: 'No overrides to come.',
  addOverride: 'Add an override',
  overrideHint: 'Local times in {tz}. The override beats every layer for its time.',
  name: 'Name (optional)',
  add: 'Add',
  added: 'Override added.',
  calendar: 'Calendar feed (keep it secret)',
  invalid: 'Invalid override:',
  notFound: 'No such schedule.',
  oncallTitle: 'On call now',
  openAlertsTitle: 'Open alerts, newest first',
  noOpenAlerts: 'No open alerts.',
  alert: 'Alert',
  created: 'Created',
  schedule: 'Schedule',
};

const tr: typeof en = {
  title: 'Nöbet çizelgeleri',
  intro: 'Kimin nöbette olduğu, her çizelgenin katmanlarından ve istisnalarından. Çizelgeler CLI ile oluşturulur (voice-alert schedule create); yükseltme adımları onları @ad olarak anar.',
  none: 'Henüz çizelge yok.',
  timeZone: 'Saat dilimi',
  onCallNow: 'Şu an nöbette',
  nobody: 'kimse',
  until: '{t} saatine kadar',
  next14: 'Önümüzdeki 14 gün',
  from: 'Başlangıç',
  to: 'Bitiş',
  who: 'Kim',
  number: 'Numara',
  overrides: 'İstisnalar',
  noOverrides: 'Gelecek istisna yok.',
  addOverride: 'İstisna ekle',
  overrideHint: '{tz} yerel saatiyle. İstisna, süresince bütün katmanlardan önce gelir.',
  name: 'Ad (isteğe bağlı)',
  add: 'Ekle',
  added: 'İstisna eklendi.',
  calendar: 'Takvim beslemesi (gizli tutun)',
  invalid: 'Geçersiz istisna:',
  notFound: 'Böyle bir çizelge yok.',
  oncallTitle: 'Şu an nöbette',
  openAlertsTitle: 'Açık uyarılar, en yenisi önce',
  noOpenAlerts: 'Açık uyarı yok.',
  alert: 'Uyarı',
  created: 'Oluşturuldu',
  schedule: 'Çizelge',
};

export type ScheduleWords = typeof en;

/** By the page's language (its `locale`), as overviewWords. */
export function scheduleWords(t: Messages): ScheduleWords {
  return t.locale.startsWith('tr') ? tr : en;
}
