import type { Messages } from '.';

/** The voice desk page's words (docs/telephony.md "Voice desk: calls in"). */
const en = {
  title: 'Voice desk',
  intro: 'Engineers call the appliance on an internal extension, type the account’s PIN, hear its open alerts, acknowledge or resolve them, or press 0 for whoever is on call.',
  off: 'The voice desk is off on this appliance (voice_desk.enabled = false): the PIN and policy are kept for when it is on.',
  pin: 'PIN',
  pinSet: 'set (only a salted hash is kept)',
  pinNone: 'none yet: nobody can use the desk for this account',
  newPin: 'Make a new PIN',
  confirmPin: 'Make a new desk PIN? The old one stops working at once: tell everyone who uses it.',
  pinShown: 'The new desk PIN, shown only now',
  pinHint: 'Only its hash is kept: write it down now. Lost it? Make a new one.',
  policy: 'Keypad 0 calls the first step of',
  policyDefault: '— the default policy of the oldest API key —',
  policySave: 'Save',
  policySaved: 'Desk policy saved.',
  noPolicies: 'No escalation policies yet: keypad 0 follows the oldest API key’s default policy, if any.',
  policyNotFound: 'No such escalation policy.',
};

const tr: typeof en = {
  title: 'Sesli masa',
  intro: 'Mühendisler cihazı dahili bir numaradan arar, hesabın PIN’ini tuşlar, açık uyarıları dinler, onaylar ya da çözer veya nöbetçiye bağlanmak için 0’a basar.',
  off: 'Sesli masa bu cihazda kapalı (voice_desk.enabled = false): PIN ve politika açıldığında kullanılmak üzere saklanır.',
  pin: 'PIN',
  pinSet: 'ayarlı (yalnızca tuzlanmış özeti saklanır)',
  pinNone: 'henüz yok: bu hesap için masayı kimse kullanamaz',
  newPin: 'Yeni PIN oluştur',
  confirmPin: 'Yeni bir masa PIN’i oluşturulsun mu? Eskisi hemen çalışmaz olur: kullanan herkese bildirin.',
  pinShown: 'Yeni masa PIN’i, yalnızca şimdi gösteriliyor',
  pinHint: 'Yalnızca özeti saklanır: şimdi not edin. Kaybettiniz mi? Yenisini oluşturun.',
  policy: '0 tuşu şu politikanın ilk adımını arar',
  policyDefault: '— en eski API anahtarının varsayılan politikası —',
  policySave: 'Kaydet',
  policySaved: 'Masa politikası kaydedildi.',
  noPolicies: 'Henüz yükseltme politikası yok: 0 tuşu varsa en eski API anahtarının varsayılan politikasını izler.',
  policyNotFound: 'Böyle bir yükseltme politikası yok.',
};

export type DeskWords = typeof en;

/** By the page's language (its `locale`), as scheduleWords. */
export function deskWords(t: Messages): DeskWords {
  return t.locale.startsWith('tr') ? tr : en;
}
