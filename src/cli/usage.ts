import type { Command } from 'commander';

/** `voice-alert policy list`: the command as typed, for the hint after a usage error. */
function fullName(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/**
 * Commander's own refusals (unknown command or option, missing or extra argument, missing
 * value) become usage errors in the CLI's one wording: a single line
 * `voice-alert: <what>; see voice-alert <command> --help` on stderr, exit 2 (runCli maps
 * every CommanderError but help and version to 2). Applied to every command of the tree:
 * commander copies these settings only to commands made with .command(), not addCommand().
 */
export function applyUsageRules(root: Command): void {
  const visit = (cmd: Command) => {
    cmd.exitOverride();
    cmd.showHelpAfterError(false);
    cmd.configureOutput({
      outputError: (str, write) => {
        const what = str.replace(/^error: /, '').trim().replace(/\s*\n\s*/g, ' ');
        write(`voice-alert: ${what}; see ${fullName(cmd)} --help\n`);
      },
    });
    for (const sub of cmd.commands) visit(sub);
  };
  visit(root);
}
