import type { Messages } from '.';

/** The maintenance page's words, and the alert page's suppression line (docs/on-call.md "Maintenance windows"). */
const en = {
  title: 'Maintenance',
  intro: 'During a maintenance window, matching alerts are stored but nobody is called and no credit is used. When a window starts, the calls it covers that were not answered yet are cancelled.',
  none: 'No maintenance windows to come.',
  start: 'Start',
  end: 'End',
  state: 'State',
  states: { scheduled: 'scheduled', active: 'active', ended: 'ended' } as Record<string, string>,
  match: 'Matches',
  everything: 'every alert',
  reason: 'Reason',
  create: 'New maintenance window',
  timesHint: 'Local times in {tz}.',
  matchHint: 'One per line: key=PREFIX, source=NAME or label:NAME=VALUE. Empty: every alert of the account.',
  delete: 'Delete',
  created: 'Maintenance window saved.',
  deleted: 'Maintenance window deleted.',
  notFound: 'No such maintenance window.',
  suppressedBy: 'Suppressed by maintenance',
  until: 'until {t}',
};

const tr: typeof en = {
  title: 'Bakım',
  intro: 'Bakım penceresi sırasında eşleşen uyarılar kaydedilir ama kimse aranmaz ve kredi harcanmaz. Pencere başlayınca kapsadığı, henüz cevaplanmamış aramalar iptal edilir.',
  none: 'Gelecek bakım penceresi yok.',
  start: 'Başlangıç',
  end: 'Bitiş',
  state: 'Durum',
  states: { scheduled: 'planlandı', active: 'sürüyor', ended: 'bitti' },
  match: 'Eşleşme',
  everything: 'tüm uyarılar',
  reason: 'Neden',
  create: 'Yeni bakım penceresi',
  timesHint: '{tz} yerel saatiyle.',
  matchHint: 'Her satıra bir tane: key=ÖNEK, source=AD ya da label:AD=DEĞER. Boş: hesabın tüm uyarıları.',
  delete: 'Sil',
  created: 'Bakım penceresi kaydedildi.',
  deleted: 'Bakım penceresi silindi.',
  notFound: 'Böyle bir bakım penceresi yok.',
  suppressedBy: 'Bakım nedeniyle bastırıldı',
  until: '{t} tarihine kadar',
};

export type MaintenanceWords = typeof en;

/** By the page's language (its `locale`), as scheduleWords. */
export function maintenanceWords(t: Messages): MaintenanceWords {
  return t.locale.startsWith('tr') ? tr : en;
}
