/**
 * One line of `voice-alert doctor`: what was checked, what was found, and how to fix it.
 * Its fields are the JSON's too: they may be added, never renamed.
 */
export interface DoctorCheck {
  name: string;
  status: 'ok' | 'fail' | 'skip';
  detail: string;
  /** The fix for a failure: the Debian package to install, the key to set. */
  remedy?: string;
  /** With several trunks ([[sip.trunks]]): the trunk a trunk.* line is about. */
  trunk?: string;
}

/** `doctor --json`: `ok` when none of the checks failed (`failed` counts those that did), and every check. Fields may be added, never renamed. */
export function doctorJson(checks: DoctorCheck[], failed: number) {
  return { ok: failed === 0, checks };
}
