import type { Language } from '../tts/language';

/** What the voice desk says (docs/telephony.md "Voice desk"), in the language calls are spoken in. */
export interface DeskWords {
  greeting: string;
  wrongPin: string;
  goodbye: string;
  /** How many alerts nobody acknowledged or resolved. */
  count: (n: number) => string;
  /** Names one alert before its text: "Alert 1 of 3." */
  alert: (i: number, of: number) => string;
  keys: string;
  acknowledged: string;
  resolved: string;
  /** Keypad 1 or 3 on an alert someone else closed meanwhile. */
  alreadyClosed: string;
  noMore: string;
  connecting: string;
  transferFailed: string;
  nobodyOnCall: string;
}

const en: DeskWords = {
  greeting: 'Voice alert desk. Enter your PIN, then press the hash key.',
  wrongPin: 'Wrong PIN.',
  goodbye: 'Goodbye.',
  count: (n) => (n === 0 ? 'There are no open alerts.' : n === 1 ? 'There is 1 open alert.' : `There are ${n} open alerts.`),
  alert: (i, of) => `Alert ${i} of ${of}.`,
  keys: 'Press 1 to acknowledge, 2 for the next alert, 3 to resolve, 9 to repeat, 0 to reach the on-call engineer, star to end.',
  acknowledged: 'The alert is acknowledged.',
  resolved: 'The alert is resolved.',
  alreadyClosed: 'Someone else closed this alert already.',
  noMore: 'No more alerts.',
  connecting: 'Connecting you to the on-call engineer.',
  transferFailed: 'The transfer did not work. You are back in the menu.',
  nobodyOnCall: 'Nobody is on call.',
};

const tr: DeskWords = {
  greeting: 'Sesli alarm masası. PIN kodunuzu girip kare tuşuna basın.',
  wrongPin: 'PIN yanlış.',
  goodbye: 'Hoşça kalın.',
  count: (n) => (n === 0 ? 'Açık alarm yok.' : `${n} açık alarm var.`),
  alert: (i, of) => `${of} alarmdan ${i}.`,
  keys: "Onaylamak için 1'e, sonraki alarm için 2'ye, çözüldü demek için 3'e, tekrar için 9'a, nöbetçiye bağlanmak için 0'a, bitirmek için yıldıza basın.",
  acknowledged: 'Alarm onaylandı.',
  resolved: 'Alarm çözüldü olarak kapatıldı.',
  alreadyClosed: 'Bu alarmı başka biri kapattı.',
  noMore: 'Başka alarm yok.',
  connecting: 'Nöbetçiye bağlanıyorsunuz.',
  transferFailed: 'Aktarma yapılamadı. Menüye döndünüz.',
  nobodyOnCall: 'Şu anda nöbetçi yok.',
};

export const DESK_WORDS: Record<Language, DeskWords> = { en, tr };
