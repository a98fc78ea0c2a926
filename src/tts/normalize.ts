import { LANGUAGES, type Language, type LanguageWords } from './language';

/**
 * Rewrites an alert line into what a listener should hear, before the engine sees it.
 * Monitoring text is written for screens: addresses, units, host names, URLs, shouting,
 * emoji. Each step below handles one of those; the order matters and is commented.
 * The result may be empty (an alert of only emoji): callers treat that as an error.
 */
export function normalizeText(input: string, language: Language): string {
  const w = LANGUAGES[language];
  let t = input.normalize('NFC');
  t = dropUnspeakable(t);
  t = t.replace(URL, (_m, host: string) => ` ${host} `); // the path and query mean nothing on the phone
  t = t.replace(DATE_YMD, '$1 $2 $3').replace(DATE_DMY, '$1 $2 $3'); // before numbers: not decimals
  t = t.replace(IPV4, (m, a, b, c, d, port) => readIpv4(m, [a, b, c, d], port, w));
  t = readPercentages(t, w);
  t = readUnits(t, w);
  if (w.decimal) t = t.replace(DECIMAL, (_m, whole: string, frac: string) => w.decimal!(whole, frac));
  t = t.replace(LONG_DIGITS, (m) => m.split('').join(' ')); // ids and serials: digit by digit, not "billions"
  t = t.replace(HOST, (m) => (/\p{L}/u.test(m) ? readHost(m, w) : m)); // digits only: a number, leave it
  t = t.replace(/(?<=[\p{L}\p{N}])\/(?=[\p{L}\p{N}])|(?<=[\p{L}\p{N}])=/gu, ' '); // db01/Disk, level=alert
  t = t.replace(/(?<=^|\s)\/(?=\p{L})/gmu, ''); // /var/log: the names, not "slash"
  t = t.replace(/(?<=\d):(?=\d\d\b)/g, ' '); // 03:12:45 -> 03 12 45
  t = collapsePunctuation(t);
  t = unshout(t, language);
  return joinLines(t);
}

const URL = /\b(?:https?|ftp):\/\/(?:[^\s/@]*@)?([^\s/?#:]+)[^\s]*/gi;
const DATE_YMD = /(?<![\d.])(\d{4})[-./](\d{1,2})[-./](\d{1,2})(?![\d.]\d)/g;
const DATE_DMY = /(?<![\d.])(\d{1,2})[./](\d{1,2})[./](\d{4})(?![\d.]\d)/g;
const IPV4 = /(?<![\d.])(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?::(\d{1,5}))?(?![\d.]\d)/g;
const DECIMAL = /(?<![\d.])(\d+)\.(\d+)(?![\d.]\d)/g;
const LONG_DIGITS = /(?<![\d.,])\d{7,}(?![\d.,]\d)/g;
/** Two or more letter/digit runs joined by . - _ : host names, service names, dates. */
const HOST = /(?<![\p{L}\p{N}._-])[\p{L}\p{N}]+(?:[._-][\p{L}\p{N}]+)+(?![\p{L}\p{N}]|[._-][\p{L}\p{N}])/gu;

function dropUnspeakable(t: string): string {
  return t
    .replace(/\r\n?/g, '\n')
    .replace(/\t/g, ' ')
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '') // control characters
    .replace(/\p{Extended_Pictographic}|[\u{1f1e6}-\u{1f1ff}\u{1f3fb}-\u{1f3ff}\u200d\ufe0e\ufe0f\u20e3]/gu, '')
    .replace(/[\u200b\u200c\u2060\ufeff]/g, '');
}

function readIpv4(match: string, groups: string[], port: string | undefined, w: LanguageWords): string {
  if (groups.some((g) => Number(g) > 255)) return match;
  const spoken = groups.map(String).join(` ${w.dot} `);
  return ` ${spoken}${port ? ` ${w.port} ${port}` : ''} `;
}

function readPercentages(t: string, w: LanguageWords): string {
  // "%95" (Turkish order) and "95%" / "95 %" (English order) both become the language's own.
  return t
    .replace(/%\s?(\d+(?:[.,]\d+)?)/g, (_m, n: string) => ` ${w.percent(n)} `)
    .replace(/(\d+(?:[.,]\d+)?)\s?%/g, (_m, n: string) => ` ${w.percent(n)} `);
}

function readUnits(t: string, w: LanguageWords): string {
  const symbols = Object.keys(w.units).sort((a, b) => b.length - a.length);
  const multi = symbols.filter((s) => s.length > 1).map(escape).join('|');
  const single = symbols.filter((s) => s.length === 1).map(escape).join('|');
  // Single letters (5m, 30s) only when attached to the number: "5 s" may be anything.
  const re = new RegExp(`(\\d)(?:\\s?[º°]\\s?([cf])|\\s?(${multi})|(${single}))(?![\\p{L}\\p{N}])`, 'giu');
  return t.replace(re, (_m, digit: string, deg?: string, m?: string, s?: string) => {
    const key = deg ? `°${deg.toLowerCase()}` : (m ?? s)!.toLowerCase();
    return `${digit} ${w.units[key]} `;
  });
}

function readHost(host: string, w: LanguageWords): string {
  return host
    .split('.')
    .map((label) => label.replace(/[-_]+/g, ' '))
    .join(` ${w.dot} `);
}

function collapsePunctuation(t: string): string {
  return t
    .replace(/…/g, '.')
    .replace(/[!?]*\?[!?]*/g, (m) => (m.length > 1 ? '?' : m)) // "?!?" -> "?"
    .replace(/([!.,;:])\1+/g, '$1')
    .replace(/([[\](){}<>'"`])\1+/g, '$1') // also keeps espeak-ng from reading [[ ]] as phonemes
    .replace(/[-=_*#~+^|\\]{2,}/g, ' ') // separator lines and ** banners **
    .replace(/(^|\s)[-=_*#~|\\/](?=\s|$)/g, '$1') // a lone dash between words: a pause, not "minus"
    .replace(/([([{]) +/g, '$1')
    .replace(/ +([)\]}])/g, '$1');
}

/** Words of only capitals, 4 letters or more, with a vowel, are shouted words, not acronyms. */
const KEEP_SPELLED = new Set(['ICMP', 'UUID', 'VLAN', 'IPSEC', 'ASCII', 'UEFI', 'BIOS', 'IOPS', 'ACPI']);
function unshout(t: string, language: Language): string {
  return t.replace(/(?<![\p{L}\p{N}])\p{Lu}{4,}(?![\p{L}\p{N}])/gu, (word) =>
    KEEP_SPELLED.has(word) || !/[AEIOUYÖÜİ]/u.test(word)
      ? word
      : word.toLocaleLowerCase(language).replace(/\u0307/g, ''), // en: "İ" -> "i", not "i" + combining dot
  );
}

/** Lines become sentences, so the engine pauses between alert fields. */
function joinLines(t: string): string {
  return t
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => /[\p{L}\p{N}]/u.test(line))
    .map((line, i, all) => (i < all.length - 1 && !/[.!?:;,]$/.test(line) ? `${line}.` : line))
    .join(' ')
    .replace(/\s+([.,;:!?])/g, '$1');
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
