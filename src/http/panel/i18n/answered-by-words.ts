import type { AmdReason, AnsweredBy } from '../../../call-model';
import type { Messages } from '.';

/** Who answered a call and why the analysis thought so (docs/telephony.md "Voicemail detection"). */
const en = {
  answeredBy: 'Answered by',
  by: { human: 'a person', machine: 'a voicemail', unknown: 'unknown' } satisfies Record<AnsweredBy, string>,
  reasons: {
    short_greeting: 'short greeting',
    long_greeting: 'long greeting',
    beep: 'beep',
    initial_silence: 'silence',
    max_words: 'many words',
    timeout: 'undecided in time',
    keypress: 'key pressed',
  } satisfies Record<AmdReason, string>,
};

const tr: typeof en = {
  answeredBy: 'Cevaplayan',
  by: { human: 'bir kişi', machine: 'sesli mesaj', unknown: 'bilinmiyor' },
  reasons: {
    short_greeting: 'kısa karşılama',
    long_greeting: 'uzun karşılama',
    beep: 'bip sesi',
    initial_silence: 'sessizlik',
    max_words: 'çok kelime',
    timeout: 'zamanında karar verilemedi',
    keypress: 'tuşa basıldı',
  },
};

export type AnsweredByWords = typeof en;

/** By the page's language (its `locale`), as unroutableWords. */
export function answeredByWords(t: Messages): AnsweredByWords {
  return t.locale.startsWith('tr') ? tr : en;
}

/** "a voicemail (beep)", or null before an answer. */
export function answeredByText(t: Messages, by: AnsweredBy | null, reason: AmdReason | null): string | null {
  if (by === null) return null;
  const w = answeredByWords(t);
  return reason ? `${w.by[by]} (${w.reasons[reason]})` : w.by[by];
}
