/**
 * What is said in each language besides the alert text: the fixed prompts and the words
 * normalisation uses. Adding a language = one entry here plus a row set in normalize.test.ts.
 */
export type Language = 'tr' | 'en';

export interface LanguageWords {
  intro: string;
  /** The keypad prompt the telephony side acts on (DTMF 1 = acknowledge). */
  closing: string;
  /** Played after the callee pressed 1. */
  acknowledged: string;
  dot: string;
  percent: (n: string) => string;
  /** Decimal number as spoken, e.g. tr "3 virgül 5"; undefined: the engine reads "3.5" well. */
  decimal?: (whole: string, fraction: string) => string;
  port: string;
  /** Opens a call that speaks several alerts: "3 alarm." */
  bundle: (count: number) => string;
  /** When only the first of many alerts are named: "İlk 10 tanesi:". */
  bundleFirst: (named: number) => string;
  /** Names the i-th alert of a bundle (1-based): "Birinci". */
  ordinal: (i: number) => string;
  /** Said first in an escalation's later calls: "İkinci arama: bu alarmı henüz kimse onaylamadı." */
  escalationStep: (ordinal: number) => string;
  /** After the confirmation: who is recorded as acknowledging (digits spoken one by one). */
  acknowledgedBy: (digits: string) => string;
  /** Last sentence of a message left on a voicemail (docs/telephony.md "Voicemail detection"). */
  voicemail: string;
  /** After it, when voice_desk.number is set: where to call to hear and acknowledge the alert (the number as spoken). */
  voicemailDesk: (spoken: string) => string;
  /** How `+`, `*` and `#` in a number are said, digit by digit (spokenNumber). */
  keypadSigns: Record<'+' | '*' | '#', string>;
  /** A verification call's question (docs/on-call.md "Verification"): who the number is checked for. */
  verifyQuestion: (name: string) => string;
  /** Its keypad prompt (DTMF 1 = the number is confirmed). */
  verifyClosing: string;
  /** Played after 1 was pressed on a verification call. */
  verified: string;
  /**
   * A hand-off call (docs/on-call.md "Hand-off calls"): who calls, the schedule, and until
   * when (`until`: local weekday and time in the schedule's zone; null: no end in sight).
   */
  handoffQuestion: (schedule: string, until: string | null) => string;
  /** Its keypad prompt (DTMF 1 = the hand-off is confirmed). */
  handoffClosing: string;
  /** Played after 1 was pressed on a hand-off call. */
  handoffConfirmed: string;
  /** BCP 47 locale the local time of a hand-off is written in (weekday names). */
  locale: string;
  /** Unit symbol (as written after a number) -> spoken word(s). */
  units: Record<string, string>;
}

const TR_ORDINALS = ['Birinci', 'İkinci', 'Üçüncü', 'Dördüncü', 'Beşinci', 'Altıncı', 'Yedinci', 'Sekizinci', 'Dokuzuncu', 'Onuncu'];
const EN_ORDINALS = ['First', 'Second', 'Third', 'Fourth', 'Fifth', 'Sixth', 'Seventh', 'Eighth', 'Ninth', 'Tenth'];

const tr: LanguageWords = {
  intro: 'Bu otomatik bir alarm çağrısıdır.',
  closing: "Onaylamak için 1'e basın.",
  acknowledged: 'Teşekkürler, alarm onaylandı.',
  dot: 'nokta',
  percent: (n) => `yüzde ${n}`,
  // Turkish writes "3,5"; espeak-ng tr reads "3.5" as a thousands group.
  decimal: (w, f) => `${w} virgül ${f}`,
  port: 'port',
  bundle: (n) => `${n} alarm.`,
  bundleFirst: (k) => `İlk ${k} tanesi:`,
  escalationStep: (n) => `${TR_ORDINALS[n - 1] ?? `${n}.`} arama: bu alarmı henüz kimse onaylamadı.`,
  acknowledgedBy: (d) => `Onaylayan numara kaydedildi: ${d}.`,
  voicemail: 'Bu mesaj sesli mesaj kutusuna bırakıldı; alarm onaylanmadı.',
  voicemailDesk: (n) => `Dinlemek ve onaylamak için sesli masayı arayın: ${n}.`,
  keypadSigns: { '+': 'artı', '*': 'yıldız', '#': 'kare' },
  verifyQuestion: (name) => `Bu, voice-alert'in ${name} için numara doğrulama aramasıdır.`,
  verifyClosing: "Doğrulamak için 1'e basın.",
  verified: 'Teşekkürler, numara doğrulandı.',
  // "…'e kadar" would need the suffix of the spoken hour; "bitişi:" needs none.
  handoffQuestion: (schedule, until) => `Bu, voice-alert'in nöbet devri aramasıdır. ${schedule} çizelgesinde nöbet şimdi sizde.${until ? ` Nöbetin bitişi: ${until}.` : ''}`,
  handoffClosing: "Nöbeti devraldığınızı onaylamak için 1'e basın.",
  handoffConfirmed: 'Teşekkürler, nöbet devri onaylandı.',
  locale: 'tr-TR',
  ordinal: (i) => TR_ORDINALS[i - 1] ?? `${i}. alarm`,
  units: {
    ms: 'milisaniye', msec: 'milisaniye', s: 'saniye', sec: 'saniye', sn: 'saniye', m: 'dakika', min: 'dakika',
    dk: 'dakika', h: 'saat', d: 'gün',
    b: 'bayt', kb: 'kilobayt', mb: 'megabayt', gb: 'gigabayt', tb: 'terabayt', pb: 'petabayt',
    kib: 'kibibayt', mib: 'mebibayt', gib: 'gibibayt', tib: 'tebibayt',
    bps: 'bit bölü saniye', kbps: 'kilobit bölü saniye', mbps: 'megabit bölü saniye', gbps: 'gigabit bölü saniye',
    'kb/s': 'kilobayt bölü saniye', 'mb/s': 'megabayt bölü saniye', 'gb/s': 'gigabayt bölü saniye',
    hz: 'hertz', khz: 'kilohertz', mhz: 'megahertz', ghz: 'gigahertz',
    '°c': 'santigrat derece', '°f': 'fahrenhayt derece', v: 'volt', w: 'vat', kw: 'kilovat',
    dbm: 'desibel miliwat', db: 'desibel', rpm: 'devir bölü dakika', pps: 'paket bölü saniye',
  },
};

const en: LanguageWords = {
  intro: 'This is an automated alert call.',
  closing: 'Press 1 to acknowledge.',
  acknowledged: 'Thank you, the alert is acknowledged.',
  dot: 'dot',
  percent: (n) => `${n} percent`,
  port: 'port',
  bundle: (n) => `${n} alerts.`,
  bundleFirst: (k) => `The first ${k}:`,
  escalationStep: (n) => `${EN_ORDINALS[n - 1] ?? `Call ${n}`}${n <= 10 ? ' call' : ''}: nobody acknowledged this alert yet.`,
  acknowledgedBy: (d) => `The acknowledging number is recorded: ${d}.`,
  voicemail: 'This message was left on a voicemail; the alert is not acknowledged.',
  voicemailDesk: (n) => `To hear it and acknowledge it, call the voice desk on ${n}.`,
  keypadSigns: { '+': 'plus', '*': 'star', '#': 'hash' },
  verifyQuestion: (name) => `This is voice-alert checking the number of ${name}.`,
  verifyClosing: 'Press 1 to confirm.',
  verified: 'Thank you, the number is confirmed.',
  handoffQuestion: (schedule, until) => `This is voice-alert with a hand-off. You are now on call for schedule ${schedule}${until ? ` until ${until}` : ''}.`,
  handoffClosing: 'Press 1 to confirm you have taken over.',
  handoffConfirmed: 'Thank you, the hand-off is confirmed.',
  locale: 'en-GB',
  ordinal: (i) => EN_ORDINALS[i - 1] ?? `Alert ${i}`,
  units: {
    ms: 'milliseconds', msec: 'milliseconds', s: 'seconds', sec: 'seconds', m: 'minutes', min: 'minutes',
    h: 'hours', d: 'days',
    b: 'bytes', kb: 'kilobytes', mb: 'megabytes', gb: 'gigabytes', tb: 'terabytes', pb: 'petabytes',
    kib: 'kibibytes', mib: 'mebibytes', gib: 'gibibytes', tib: 'tebibytes',
    bps: 'bits per second', kbps: 'kilobits per second', mbps: 'megabits per second', gbps: 'gigabits per second',
    'kb/s': 'kilobytes per second', 'mb/s': 'megabytes per second', 'gb/s': 'gigabytes per second',
    hz: 'hertz', khz: 'kilohertz', mhz: 'megahertz', ghz: 'gigahertz',
    '°c': 'degrees Celsius', '°f': 'degrees Fahrenheit', v: 'volts', w: 'watts', kw: 'kilowatts',
    dbm: 'dBm', db: 'decibels', rpm: 'revolutions per minute', pps: 'packets per second',
  },
};

export const LANGUAGES: Record<Language, LanguageWords> = { tr, en };

/** `tts.language`, or from the voice when "auto": Turkish voices (tr, tr-…) → tr, all else → en. */
export function languageOf(voice: string, setting: 'auto' | Language = 'auto'): Language {
  if (setting !== 'auto') return setting;
  return /^tr\b/i.test(voice) ? 'tr' : 'en';
}

/** A number said sign by sign ("4 4 0 0", "plus 9 0 …"): a listener writes it down as said. */
export function spokenNumber(number: string, words: LanguageWords): string {
  return [...number].map((c) => words.keypadSigns[c as '+' | '*' | '#'] ?? c).join(' ');
}

/** A hand-off's end as said in a call: weekday and 24-hour time, local to the schedule's zone. */
export function spokenLocalTime(words: Pick<LanguageWords, 'locale'>, at: number, timeZone: string): string {
  return new Intl.DateTimeFormat(words.locale, { weekday: 'long', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone }).format(at);
}
