import { en, type Messages } from './en';
import { tr } from './tr';

export type { Messages } from './en';
export type Language = 'tr' | 'en';

const ALL: Record<Language, Messages> = { tr, en };

export function messagesFor(language: Language): Messages {
  return ALL[language];
}

/** Fills `{name}` placeholders. */
export function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? String(values[k]) : m));
}
