import type { Messages } from '.';

/** Typing dates and times (docs/panel.md "Typing dates"): the hint under each field and the refusal. */
const en = {
  hint: 'As the panel shows it, e.g. {example} (or {iso}).',
  dateHint: 'As the panel shows it, e.g. {example} (or {iso}).',
  notDateTime: '{field}: "{value}" is not a date and time. Type it like {example} (or {iso}).',
  missing: '{field}: a date and time is needed, like {example}.',
  notDate: '{field}: "{value}" is not a date. Type it like {example} (or {iso}).',
};

const tr: typeof en = {
  hint: 'Panelin gösterdiği gibi, örneğin {example} (ya da {iso}).',
  dateHint: 'Panelin gösterdiği gibi, örneğin {example} (ya da {iso}).',
  notDateTime: '{field}: "{value}" bir tarih ve saat değil. {example} gibi yazın (ya da {iso}).',
  missing: '{field}: bir tarih ve saat gerekli, örneğin {example}.',
  notDate: '{field}: "{value}" bir tarih değil. {example} gibi yazın (ya da {iso}).',
};

export type DateWords = typeof en;

/** By the page's language (its `locale`), as answeredByWords. */
export function dateWords(t: Messages): DateWords {
  return t.locale.startsWith('tr') ? tr : en;
}
