import { commandBaseUrl, type PublicUrlConfig } from '../config';

/**
 * Where a schedule's calendar feed is read (docs/on-call.md "On-call schedules"), as the CLI
 * prints it: the appliance's base URL by the one rule (docs/operations.md "Addresses the
 * appliance prints", config/public-url.ts), with the address `serve` recorded. The panel
 * passes the base it derives from the request instead.
 */
export function icsPath(token: string): string {
  return `/schedules/${token}.ics`;
}

export function icsUrl(config: PublicUrlConfig & { store: { path: string } }, token: string): string {
  return commandBaseUrl(config) + icsPath(token);
}
