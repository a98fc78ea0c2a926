import type { Messages } from '.';

/** The people page's words (docs/on-call.md "People"). */
const en = {
  title: 'People',
  intro: 'Who is reached: phones are called in order (when one is busy, unanswered or fails, the next rings at once). Schedules, overrides and escalation steps name a person (+name in a step).',
  none: 'No people yet.',
  name: 'Name',
  phones: 'Phones, called in this order (one a line)',
  sms: 'SMS numbers (one a line)',
  emails: 'E-mail addresses (one a line)',
  language: 'Call language',
  timeZone: 'Time zone (IANA, e.g. Europe/Istanbul; empty: the account’s)',
  languages: { tr: 'Türkçe', en: 'English' },
  verified: 'verified {t}',
  notVerified: 'not verified',
  noPhone: 'no phone: reaches nobody',
  lastCheckOk: 'last check {t}: 1 pressed',
  lastCheckFailed: 'last check {t}: {reason}',
  reasons: { 'no answer': 'no answer', busy: 'busy', voicemail: 'voicemail', 'no key': 'answered, no 1 pressed', rejected: 'rejected', failed: 'failed' } as Record<string, string>,
  verify: 'Verify',
  verifyHint: 'Calls each phone now (no credit used), says who it is for and asks to press 1.',
  verifying: 'Verification calls placed to {n} phone(s); the results appear here as they end.',
  edit: 'Edit',
  save: 'Save',
  delete: 'Delete',
  add: 'Add a person',
  saved: 'Saved.',
  invalid: 'Not saved:',
  errors: {
    person_name_taken: 'Another person of this account has this name.',
    person_not_found: 'No such person.',
    invalid_phone_number: 'Invalid phone number:',
  },
};

const tr: typeof en = {
  title: 'Kişiler',
  intro: 'Ulaşılacak kişiler: telefonları sırayla aranır (biri meşgulse, açılmazsa ya da hata verirse hemen sıradaki çalar). Çizelgeler, devirler ve eskalasyon adımları kişiyi adıyla anar (adımda +ad).',
  none: 'Henüz kişi yok.',
  name: 'Ad',
  phones: 'Telefonlar, bu sırayla aranır (her satıra bir)',
  sms: 'SMS numaraları (her satıra bir)',
  emails: 'E-posta adresleri (her satıra bir)',
  language: 'Arama dili',
  timeZone: 'Saat dilimi (IANA, ör. Europe/Istanbul; boş: hesabınki)',
  languages: { tr: 'Türkçe', en: 'English' },
  verified: '{t} doğrulandı',
  notVerified: 'doğrulanmadı',
  noPhone: 'telefon yok: kimseye ulaşılmaz',
  lastCheckOk: 'son kontrol {t}: 1’e basıldı',
  lastCheckFailed: 'son kontrol {t}: {reason}',
  reasons: { 'no answer': 'açılmadı', busy: 'meşgul', voicemail: 'sesli mesaj', 'no key': 'açıldı, 1’e basılmadı', rejected: 'reddedildi', failed: 'başarısız' },
  verify: 'Doğrula',
  verifyHint: 'Her telefonu şimdi arar (kredi kullanılmaz), kimin için olduğunu söyler ve 1’e basılmasını ister.',
  verifying: '{n} telefona doğrulama araması yapılıyor; sonuçlar bittikçe burada görünür.',
  edit: 'Düzenle',
  save: 'Kaydet',
  delete: 'Sil',
  add: 'Kişi ekle',
  saved: 'Kaydedildi.',
  invalid: 'Kaydedilmedi:',
  errors: {
    person_name_taken: 'Bu hesapta bu adda başka bir kişi var.',
    person_not_found: 'Böyle bir kişi yok.',
    invalid_phone_number: 'Geçersiz telefon numarası:',
  },
};

export type PeopleWords = typeof en;

/** By the page's language (its `locale`), as scheduleWords. */
export function peopleWords(t: Messages): PeopleWords {
  return t.locale.startsWith('tr') ? tr : en;
}
