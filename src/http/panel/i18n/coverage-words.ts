import type { Messages } from '.';

/** The coverage page's and the overview's coverage words (docs/on-call.md "Coverage"). */
const en = {
  title: 'Coverage',
  intro: 'Each schedule over the next {days} days: every shift with the phones of whoever is on call and whether a verification call proved them, the times nobody is on call, and the people on call whom no verified phone reaches. Times are the schedule’s local times.',
  days: 'Days ahead',
  show: 'Show',
  none: 'No schedules yet.',
  allGood: 'Someone is on call all the time, and everyone on call has a verified phone.',
  gaps: 'Nobody on call',
  gapTotal: '{n} gap(s), {h} in all',
  unverified: 'On call with no verified phone',
  unverifiedFrom: 'on call from {t}',
  shifts: 'Shifts',
  from: 'From',
  to: 'To',
  length: 'Length',
  who: 'Who',
  phones: 'Phones',
  bareNumber: 'a number, not a person: nothing verifies it',
  verified: 'verified',
  notVerified: 'not verified',
  noPhone: 'no phone: reaches nobody',
  overviewTitle: 'Coverage in the next 14 days',
  overviewGap: '{h} with nobody on call',
  overviewUnverified: '{n} on call with no verified phone',
  overviewLink: 'See coverage',
  hours: '{h} h',
  hoursMinutes: '{h} h {m} min',
  minutes: '{m} min',
};

const tr: typeof en = {
  title: 'Kapsama',
  intro: 'Her çizelgenin önümüzdeki {days} günü: her nöbet, nöbetçinin telefonları ve bir doğrulama aramasının onları kanıtlayıp kanıtlamadığı, kimsenin nöbette olmadığı zamanlar ve doğrulanmış telefonu olmayan nöbetçiler. Saatler çizelgenin yerel saatidir.',
  days: 'Kaç gün ileri',
  show: 'Göster',
  none: 'Henüz çizelge yok.',
  allGood: 'Her an bir nöbetçi var ve her nöbetçinin doğrulanmış bir telefonu var.',
  gaps: 'Kimse nöbette değil',
  gapTotal: '{n} boşluk, toplam {h}',
  unverified: 'Doğrulanmış telefonu olmayan nöbetçiler',
  unverifiedFrom: '{t} itibarıyla nöbette',
  shifts: 'Nöbetler',
  from: 'Başlangıç',
  to: 'Bitiş',
  length: 'Süre',
  who: 'Kim',
  phones: 'Telefonlar',
  bareNumber: 'kişi değil, numara: doğrulanamaz',
  verified: 'doğrulandı',
  notVerified: 'doğrulanmadı',
  noPhone: 'telefon yok: kimseye ulaşılmaz',
  overviewTitle: 'Önümüzdeki 14 günün kapsaması',
  overviewGap: '{h} boyunca kimse nöbette değil',
  overviewUnverified: 'doğrulanmış telefonu olmayan {n} nöbetçi',
  overviewLink: 'Kapsamayı gör',
  hours: '{h} sa',
  hoursMinutes: '{h} sa {m} dk',
  minutes: '{m} dk',
};

export type CoverageWords = typeof en;

/** A length for people, in the page's words: `25 h`, `1 h 30 min`, `45 min`. */
export function lengthText(w: CoverageWords, ms: number): string {
  const total = Math.round(ms / 60_000);
  const h = Math.floor(total / 60);
  const m = total % 60;
  return h === 0 ? w.minutes.replace('{m}', String(m)) : (m === 0 ? w.hours : w.hoursMinutes).replace('{h}', String(h)).replace('{m}', String(m));
}

/** By the page's language (its `locale`), as scheduleWords. */
export function coverageWords(t: Messages): CoverageWords {
  return t.locale.startsWith('tr') ? tr : en;
}
