import type { Messages } from '.';

/** The Trunks page's second-path card (docs/second-path.md "Operations"). */
const en = {
  title: 'Second path: texts and e-mail',
  intro: 'When no call gets out, people are texted through the modems below (or SIP MESSAGE through the trunks) and e-mailed through the relay.',
  viaModem: 'Texts go through the GSM modems ([[sms.modems]]).',
  viaSip: 'Texts go as SIP MESSAGE through the trunks above ([sms] via = "sip").',
  noModem: 'No modem is configured: texts cannot be sent ([[sms.modems]]).',
  notRunning: 'The second path does not run in this process: states are unknown.',
  modem: 'Modem',
  device: 'Device',
  state: 'State',
  sim: 'SIM',
  registration: 'Network',
  signal: 'Signal',
  lastError: 'Last error',
  emailConfigured: 'E-mail: the relay is set ([email] smtp_url).',
  emailNone: 'E-mail: no relay is set ([email] smtp_url); people are not e-mailed.',
};

const tr: typeof en = {
  title: 'İkinci yol: kısa mesaj ve e-posta',
  intro: 'Hiçbir arama çıkamadığında kişilere aşağıdaki modemlerle (ya da hatlar üzerinden SIP MESSAGE ile) kısa mesaj, aktarıcı üzerinden e-posta gider.',
  viaModem: 'Kısa mesajlar GSM modemlerinden gider ([[sms.modems]]).',
  viaSip: 'Kısa mesajlar yukarıdaki hatlardan SIP MESSAGE olarak gider ([sms] via = "sip").',
  noModem: 'Hiç modem ayarlanmamış: kısa mesaj gönderilemez ([[sms.modems]]).',
  notRunning: 'İkinci yol bu süreçte çalışmıyor: durumlar bilinmiyor.',
  modem: 'Modem',
  device: 'Aygıt',
  state: 'Durum',
  sim: 'SIM',
  registration: 'Şebeke',
  signal: 'Sinyal',
  lastError: 'Son hata',
  emailConfigured: 'E-posta: aktarıcı ayarlı ([email] smtp_url).',
  emailNone: 'E-posta: aktarıcı ayarlı değil ([email] smtp_url); kişilere e-posta gitmez.',
};

export type SecondPathWords = typeof en;

/** By the page's language (its `locale`), as selfTestWords. */
export function secondPathWords(t: Messages): SecondPathWords {
  return t.locale.startsWith('tr') ? tr : en;
}
