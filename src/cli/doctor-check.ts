/** One line of `voice-alert doctor`: what was checked, what was found, and how to fix it. */
export interface DoctorCheck {
  name: string;
  status: 'ok' | 'fail' | 'skip';
  detail: string;
  /** The fix for a failure: the Debian package to install, the key to set. */
  remedy?: string;
  /** With several trunks ([[sip.trunks]]): the trunk a trunk.* line is about. */
  trunk?: string;
}
