import { dateTimeExample } from '../date-input';
import type { Messages } from '../i18n';
import { dateTimeHint } from '../typed-dates';

/**
 * A local date-time typed as the panel shows one (`25.11.2026 22:00`) or in ISO
 * (`2026-11-25T22:00`): a text field, since a `datetime-local` field shows the browser's own
 * order, not the panel's (docs/panel.md "Typing dates"). `value` is shown exactly as given:
 * after a refusal, what was typed.
 */
export function DateTimeField({ t, id, name, label, value, required = false }: { t: Messages; id: string; name: string; label: string; value: string; required?: boolean }) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input id={id} name={name} type="text" autocomplete="off" spellcheck="false" maxlength="40" required={required} placeholder={dateTimeExample(t.locale)} value={value} aria-describedby={`${id}-hint`} data-date-time="" />
      <p class="hint" id={`${id}-hint`} safe>
        {dateTimeHint(t)}
      </p>
    </div>
  );
}
