import type { Messages } from '.';

/** The delete confirmation page's words (docs/on-call.md "Nothing silently calls nobody"). */
const en = {
  deletePolicy: 'Delete the policy {name}?',
  deleteSchedule: 'Delete the schedule {name}?',
  deletePerson: 'Delete {name}?',
  deletes: 'This deletes:',
  inUse: 'It cannot be deleted while these use it: change or delete them first.',
  inUseTitle: 'In use',
  kinds: { policy: 'policy', heartbeat: 'heartbeat', key: 'API key (default policy)', voice_desk: 'voice desk', schedule: 'schedule', fallback: "account's fallback" },
  deleteButton: 'Delete',
  back: 'Back',
  deleted: 'Deleted.',
  usedBy: 'Used by:',
  unused: 'Nothing uses it yet (no heartbeat, API key default or voice desk).',
};

const tr: typeof en = {
  deletePolicy: '{name} politikası silinsin mi?',
  deleteSchedule: '{name} çizelgesi silinsin mi?',
  deletePerson: '{name} silinsin mi?',
  deletes: 'Silinecek olan:',
  inUse: 'Bunlar kullandığı sürece silinemez: önce onları değiştirin ya da silin.',
  inUseTitle: 'Kullanımda',
  kinds: { policy: 'politika', heartbeat: 'heartbeat', key: 'API anahtarı (varsayılan politika)', voice_desk: 'sesli masa', schedule: 'çizelge', fallback: 'hesabın yedeği' },
  deleteButton: 'Sil',
  back: 'Geri',
  deleted: 'Silindi.',
  usedBy: 'Kullananlar:',
  unused: 'Henüz onu kullanan yok (heartbeat, API anahtarı varsayılanı ya da sesli masa).',
};

export type InUseWords = typeof en;

/** By the page's language (its `locale`), as scheduleWords. */
export function inUseWords(t: Messages): InUseWords {
  return t.locale.startsWith('tr') ? tr : en;
}
