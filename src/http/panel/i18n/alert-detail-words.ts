import type { AlertTextType } from '../../../store';
import type { Messages } from '.';

/**
 * The alert page's call events, player and second path (docs/panel.md "An alert's page";
 * docs/second-path.md "On the alert": each text and e-mail sent or received for the alert).
 */
const en = {
  events: 'Events',
  noEvents: 'Not dialled yet.',
  texts: 'Texts and e-mails',
  noTexts: 'No text or e-mail was sent or received for this alert.',
  shortCode: 'Short code',
  when: 'When',
  kind: 'What',
  address: 'To / from',
  person: 'Person',
  detail: 'Detail',
  types: {
    'sms.sent': 'text sent',
    'sms.failed': 'text failed',
    'email.sent': 'e-mail sent',
    'email.failed': 'e-mail failed',
    'sms.received': 'text received',
  } satisfies Record<AlertTextType, string>,
};

const tr: typeof en = {
  events: 'Olaylar',
  noEvents: 'Henüz aranmadı.',
  texts: 'Kısa mesajlar ve e-postalar',
  noTexts: 'Bu uyarı için kısa mesaj ya da e-posta gönderilmedi, alınmadı.',
  shortCode: 'Kısa kod',
  when: 'Zaman',
  kind: 'Ne',
  address: 'Kime / kimden',
  person: 'Kişi',
  detail: 'Ayrıntı',
  types: {
    'sms.sent': 'kısa mesaj gönderildi',
    'sms.failed': 'kısa mesaj gönderilemedi',
    'email.sent': 'e-posta gönderildi',
    'email.failed': 'e-posta gönderilemedi',
    'sms.received': 'kısa mesaj alındı',
  },
};

export type AlertDetailWords = typeof en;

/** By the page's language (its `locale`), as answeredByWords. */
export function alertDetailWords(t: Messages): AlertDetailWords {
  return t.locale.startsWith('tr') ? tr : en;
}
