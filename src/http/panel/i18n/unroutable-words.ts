import type { Messages } from '.';

/** The Overview's "nobody to call" line and the fallback card (docs/on-call.md "Nothing silently calls nobody"). */
const en = {
  nobodyToCall: 'Nobody to call: {why}',
  fallbackTitle: 'Fallback',
  fallbackIntro: 'Called when an alert reaches nobody else: a schedule with nobody on call, a gap in the rota.',
  fallbackNumber: 'Fallback number',
  fallbackNone: 'No fallback: an alert that reaches nobody calls nobody (it still warns and is shown here in red).',
  fallbackSave: 'Save fallback',
  fallbackSaved: 'Fallback saved.',
  fallbackInvalid: 'Invalid phone number: {value}',
  fallbackHint: 'A number, or +name for a person of this account (their phones are called in order).',
  fallbackNoPerson: 'No such person: {value}',
};

const tr: typeof en = {
  nobodyToCall: 'Aranacak kimse yok: {why}',
  fallbackTitle: 'Yedek numara',
  fallbackIntro: 'Bir uyarı başka kimseye ulaşamadığında aranır: nöbetçisi olmayan bir çizelge, nöbet listesindeki bir boşluk.',
  fallbackNumber: 'Yedek numara',
  fallbackNone: 'Yedek numara yok: kimseye ulaşamayan bir uyarı kimseyi aramaz (yine de uyarır ve burada kırmızıyla gösterilir).',
  fallbackSave: 'Yedek numarayı kaydet',
  fallbackSaved: 'Yedek numara kaydedildi.',
  fallbackInvalid: 'Geçersiz telefon numarası: {value}',
  fallbackHint: 'Bir numara ya da bu hesaptan bir kişi için +ad (telefonları sırayla aranır).',
  fallbackNoPerson: 'Böyle bir kişi yok: {value}',
};

export type UnroutableWords = typeof en;

/** By the page's language (its `locale`), as scheduleWords. */
export function unroutableWords(t: Messages): UnroutableWords {
  return t.locale.startsWith('tr') ? tr : en;
}
