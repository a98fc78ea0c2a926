import type { Messages } from '.';

/** The overview page's words, kept beside the page's own files (en.ts and tr.ts hold the rest). */
const en = {
  title: 'Overview',
  trunk: 'SIP trunk',
  trunkStates: { up: 'Up', starting: 'Starting', stopped: 'Stopped', not_configured: 'Not configured', unknown: 'Not running in this process' } as Record<string, string>,
  /** Each trunk's own state (docs/telephony.md "SIP trunks: several, in order"). */
  eachTrunkStates: { up: 'Up', down: 'Down', none: 'Not probed' } as Record<string, string>,
  registered: 'Registered',
  yes: 'yes',
  no: 'no',
  lastError: 'Last error',
  lastAnswer: 'Last SIP answer',
  none: 'none yet',
  now: 'Now',
  inProgress: 'Calls in progress',
  queued: 'Queued calls',
  oldestQueued: 'Oldest waiting',
  seconds: '{n} s',
  openAlerts: 'Open alerts',
  unacknowledged: 'Unacknowledged alerts',
  today: 'Today’s calls by outcome',
  noCallsToday: 'No call has ended today.',
  failures: 'Last failures',
  noFailures: 'No failed calls.',
  credit: 'Credit left this month',
  creditOf: '{left} of {total}',
  refreshed: 'Refreshed every 5 seconds.',
};

const tr: typeof en = {
  title: 'Genel bakış',
  trunk: 'SIP hattı',
  trunkStates: { up: 'Açık', starting: 'Başlatılıyor', stopped: 'Durduruldu', not_configured: 'Ayarlanmamış', unknown: 'Bu süreçte çalışmıyor' },
  eachTrunkStates: { up: 'Açık', down: 'Kapalı', none: 'Denetlenmiyor' },
  registered: 'Kayıtlı',
  yes: 'evet',
  no: 'hayır',
  lastError: 'Son hata',
  lastAnswer: 'Son SIP yanıtı',
  none: 'henüz yok',
  now: 'Şu an',
  inProgress: 'Süren aramalar',
  queued: 'Kuyruktaki aramalar',
  oldestQueued: 'En uzun bekleyen',
  seconds: '{n} sn',
  openAlerts: 'Açık uyarılar',
  unacknowledged: 'Onaylanmamış uyarılar',
  today: 'Bugünkü aramaların sonuçları',
  noCallsToday: 'Bugün biten arama yok.',
  failures: 'Son başarısız aramalar',
  noFailures: 'Başarısız arama yok.',
  credit: 'Bu ay kalan kredi',
  creditOf: '{left} / {total}',
  refreshed: '5 saniyede bir yenilenir.',
};

export type OverviewWords = typeof en;

/** By the page's language (its `locale`), so the person's language switch holds here too. */
export function overviewWords(t: Messages): OverviewWords {
  return t.locale.startsWith('tr') ? tr : en;
}
