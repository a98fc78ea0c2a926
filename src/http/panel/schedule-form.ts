import type { ScheduleInput } from '../../schedules';
import type { Person, StoredLayer } from '../../store';
import { namesPerson } from '../../people';

/**
 * A schedule as the panel edits it (docs/on-call.md "On-call schedules"), with no script (the
 * panel's CSP allows none): the layers are numbered field groups `l0_…`, `l1_…`, one empty group
 * more than there are layers to add one. Per layer:
 * - `participants`: one per line, `Name, number` or a number alone;
 * - `shift`: `7d` or `12h`; `start`: a local date-time (`<input type=datetime-local>`);
 * - `restrictions`: one per line, `sat,sun 10:00-16:00`.
 * The service validates the rest (src/schedules/layers.ts), with the CLI's words.
 */
export const MAX_LAYERS = 10;

/** The form as typed (shown again with an error or a preview: nothing typed is lost). */
export interface ScheduleDraft {
  name: string;
  timeZone: string;
  layers: LayerDraft[];
  /** The "hand-off calls" checkbox (docs/on-call.md "Hand-off calls"). */
  handoffCall: boolean;
}

export interface LayerDraft {
  participants: string;
  shift: string;
  start: string;
  restrictions: string;
}

const emptyLayer = (): LayerDraft => ({ participants: '', shift: '', start: '', restrictions: '' });
const isEmpty = (l: LayerDraft) => !l.participants.trim() && !l.shift.trim() && !l.start.trim() && !l.restrictions.trim();

export function draftFromForm(form: Record<string, string | undefined>): ScheduleDraft {
  const layers: LayerDraft[] = [];
  for (let i = 0; i < MAX_LAYERS; i++) {
    const l = {
      participants: form[`l${i}_participants`] ?? '',
      shift: form[`l${i}_shift`] ?? '',
      start: form[`l${i}_start`] ?? '',
      restrictions: form[`l${i}_restrictions`] ?? '',
    };
    if (!isEmpty(l)) layers.push(l);
  }
  // An unticked checkbox sends nothing: off.
  return { name: (form.name ?? '').trim(), timeZone: (form.time_zone ?? '').trim(), layers, handoffCall: form.handoff_call !== undefined && form.handoff_call !== '' };
}

/** The stored layers as the form shows them. */
export function draftFromSchedule(s: { name: string; timeZone: string; layers: readonly StoredLayer[]; handoffCall: boolean }, people: ReadonlyMap<string, Person>): ScheduleDraft {
  return {
    name: s.name,
    timeZone: s.timeZone,
    handoffCall: s.handoffCall,
    layers: s.layers.map((l) => ({
      // A person as `+Name`, as in a policy's step line (docs/on-call.md "People").
      participants: l.participants
        .map((p) => ('person' in p ? `+${people.get(p.person)?.name ?? p.person}` : p.name === p.number ? p.number : `${p.name}, ${p.number}`))
        .join('\n'),
      shift: l.shift,
      // `2026-11-02T09:00:00` as the field shows it; seconds that are not :00 are kept, not dropped.
      start: /:00$/.test(l.start) && l.start.length > 16 ? l.start.slice(0, 16) : l.start,
      restrictions: (l.restrictions ?? []).map((r) => `${r.days.join(',')} ${r.from}-${r.to}`).join('\n'),
    })),
  };
}

/** The fields shown: the layers typed, then one empty group to add a layer (while under the limit). */
export function layerSlots(d: ScheduleDraft): LayerDraft[] {
  return d.layers.length < MAX_LAYERS ? [...d.layers, emptyLayer()] : d.layers;
}

const lines = (s: string) => s.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
const RESTRICTION = /^([A-Za-z]{3}(?:\s*,\s*[A-Za-z]{3})*)\s+(\d{1,2}:\d{2})\s*[-–]\s*(\d{1,2}:\d{2})$/;
const pad = (hhmm: string) => hhmm.padStart(5, '0');

/** The service's input, or the first line that is not in the form's shape (its layer and line, 1-based). */
export function inputFromDraft(d: ScheduleDraft): { ok: true; input: ScheduleInput } | { ok: false; problem: string } {
  const layers: unknown[] = [];
  for (const [i, l] of d.layers.entries()) {
    const participants = lines(l.participants).map((line) => {
      // `+Name` names a person (`+` and digits stay a number, as in step lines); otherwise the
      // number is after the last comma, and a number alone is its own name.
      if (namesPerson(line)) return { person: line.slice(1).trim() };
      const at = line.lastIndexOf(',');
      const number = (at < 0 ? line : line.slice(at + 1)).trim();
      const name = at < 0 ? number : line.slice(0, at).trim();
      return { name, number };
    });
    const restrictions = [];
    for (const [j, line] of lines(l.restrictions).entries()) {
      const m = RESTRICTION.exec(line);
      if (!m) return { ok: false, problem: `layers.${i}.restrictions.${j}: "${line}" is not like "sat,sun 10:00-16:00"` };
      restrictions.push({ days: m[1]!.split(',').map((x) => x.trim().toLowerCase()), from: pad(m[2]!), to: pad(m[3]!) });
    }
    layers.push({ participants, shift: l.shift.trim(), start: l.start.trim(), ...(restrictions.length ? { restrictions } : {}) });
  }
  return { ok: true, input: { name: d.name, timeZone: d.timeZone, layers, handoffCall: d.handoffCall } };
}
