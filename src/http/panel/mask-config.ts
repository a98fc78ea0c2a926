/** Key names whose values are never shown, whatever section they are in. */
const SECRET_KEY = /pass|secret|token|(^|_)key$|_key_|credential/i;

export const MASK = '••••••••';

/**
 * The configuration as `section.key = value` lines for the settings page. Values of
 * secret-looking keys are masked, also inside arrays and nested tables; an empty secret
 * shows as empty so "not set" stays visible.
 */
export function flattenConfig(config: unknown, prefix = ''): [string, string][] {
  const out: [string, string][] = [];
  if (config === null || typeof config !== 'object' || Array.isArray(config)) return out;
  for (const [k, v] of Object.entries(config as Record<string, unknown>)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      out.push(...flattenConfig(v, key));
    } else if (Array.isArray(v) && v.some((item) => item && typeof item === 'object')) {
      v.forEach((item, i) => out.push(...(item && typeof item === 'object' ? flattenConfig(item, `${key}[${i}]`) : [[`${key}[${i}]`, JSON.stringify(item)] as [string, string]])));
    } else if (SECRET_KEY.test(k)) {
      out.push([key, v === '' || v === null || v === undefined ? '' : MASK]);
    } else {
      out.push([key, JSON.stringify(v)]);
    }
  }
  return out;
}
