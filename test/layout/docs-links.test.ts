import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/paths';

/**
 * The documentation holds together: README.md and docs/*.md link to files and headings that
 * exist (anchors as GitHub makes them), the code's citations of the docs (`docs/on-call.md
 * "Heartbeats"`) name headings that exist, and every endpoint in docs/http-api.md's index has a
 * curl example somewhere in the docs.
 */
const DOCS = ['README.md', 'BENCHMARKS.md', ...readdirSync(join(ROOT, 'docs')).filter((n) => n.endsWith('.md')).map((n) => `docs/${n}`)];
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** The text outside fenced code blocks (indented fences too: a list item's), line by line. */
function prose(text: string): string[] {
  let fenced = false;
  return text.split('\n').map((line) => {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line;
  });
}

/** GitHub's anchor for a heading: its text without markup, lowercased, punctuation dropped, spaces as '-'. */
export function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}_\- ]/gu, '')
    .replace(/ /g, '-');
}

/** Each heading's text, in order. */
const headingsOf = (file: string) => prose(read(file)).flatMap((l) => /^#{1,6} (.+?)\s*$/.exec(l)?.[1] ?? []);

/** Each heading's anchor, a repeated one numbered (`-1`, `-2`) as GitHub does. */
function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  return new Set(
    headingsOf(file).map((h) => {
      const s = slug(h);
      const n = seen.get(s) ?? 0;
      seen.set(s, n + 1);
      return n === 0 ? s : `${s}-${n}`;
    }),
  );
}

/** Every inline link target `[text](target)` outside code (fenced blocks and `inline code`). */
const linksIn = (text: string) => prose(text).flatMap((l) => [...l.replace(/`[^`]*`/g, '').matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!));
const linksOf = (file: string) => linksIn(read(file));

/** The relative links of `text` (written in `file`) whose file or heading does not exist. */
function brokenLinks(file: string, text: string): string[] {
  return linksIn(text)
    .filter((target) => !/^[a-z]+:/i.test(target)) // https:, mailto:
    .flatMap((target) => {
      const [path, anchor] = target.split('#') as [string, string | undefined];
      const to = path === '' ? join(ROOT, file) : resolve(dirname(join(ROOT, file)), path);
      if (!existsSync(to)) return [`${file}: ${target} (no such file)`];
      if (anchor !== undefined && !(to.endsWith('.md') && anchorsOf(relative(ROOT, to)).has(anchor))) return [`${file}: ${target} (no such heading)`];
      return [];
    });
}

describe('links in README.md, BENCHMARKS.md and docs/', () => {
  it('the slug follows GitHub: code and punctuation dropped, dashes kept', () => {
    expect(slug("GET /api/calls/{id} — a call's state")).toBe('get-apicallsid--a-calls-state');
    expect(slug('Heartbeats: a call when a ping does not come')).toBe('heartbeats-a-call-when-a-ping-does-not-come');
    expect(slug('`oncall.changed` in [Callbacks](#callbacks)')).toBe('oncallchanged-in-callbacks');
    expect(slug('Çağrı ve sınır')).toBe('çağrı-ve-sınır');
  });

  it('every relative link names a file that exists, and every #anchor a heading of it', () => {
    const checked = DOCS.flatMap((f) => linksOf(f).filter((t) => !/^[a-z]+:/i.test(t)));
    expect(checked.length).toBeGreaterThan(80); // the walk really found the links
    expect(DOCS.flatMap((f) => brokenLinks(f, read(f)))).toEqual([]);
  });

  it('a missing file or heading is found, in prose only', () => {
    const text = ['[a](on-call.md#callbacks) [b](on-call.md#no-such-heading) [c](nope.md) [d](#numbers) [e](#nope)', '`[f](nope.md)`', '```', '[g](nope.md)', '```'].join('\n');
    expect(brokenLinks('docs/http-api.md', text)).toEqual([
      'docs/http-api.md: on-call.md#no-such-heading (no such heading)',
      'docs/http-api.md: nope.md (no such file)',
      'docs/http-api.md: #nope (no such heading)',
    ]);
  });

  it('every repository path the docs name in `code` exists', () => {
    const missing: string[] = [];
    for (const file of DOCS) {
      for (const m of read(file).matchAll(/`((?:src|test|scripts|assets|docs)\/[\w./-]+)`/g)) {
        if (!existsSync(join(ROOT, m[1]!))) missing.push(`${file}: ${m[1]}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('the README stays a front page: short, with a link to every file of docs/', () => {
    const readme = read('README.md');
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
    const linked = new Set(linksOf('README.md').map((t) => t.split('#')[0]));
    expect(DOCS.filter((f) => f.startsWith('docs/') && !linked.has(f))).toEqual([]);
  });
});

/** Files of the repository the code's comments live in (what source-layout.test.ts walks, plus assets/). */
function codeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : codeFiles(path);
    return /\.(wav|raw|pcap|db|png|pem|deb)$/.test(name) ? [] : [path];
  });
}

describe('citations of the docs in src/, test/, scripts/ and assets/', () => {
  /**
   * `docs/x.md "Heading"`, `docs/x.md "A", "B"` or `docs/x.md "A" and "B"` (README and
   * BENCHMARKS with or without `.md`, so a stale `README "Heartbeats"` is caught), a name
   * possibly broken over a comment's lines and shortened with "…": each names the start of a
   * heading (or a bold paragraph title) of that file. A bare `docs/x.md` names a file that exists.
   */
  const citation = /\b(docs\/[\w-]+\.md|README(?:\.md)?|BENCHMARKS(?:\.md)?)((?:,?\s+(?:(?:\*|\/\/|#|--|;)\s+)?(?:and\s+)?"[^"]{1,100}")*)/g;
  const self = join(ROOT, 'test', 'layout', 'docs-links.test.ts');
  const files = ['src', 'test', 'scripts', 'assets'].flatMap((d) => codeFiles(join(ROOT, d))).filter((f) => f !== self);

  it('each names a file of the docs and, quoted, the start of one of its headings', () => {
    const wrong: string[] = [];
    let quoted = 0;
    for (const path of files) {
      for (const m of readFileSync(path, 'utf8').matchAll(citation)) {
        const [, cited, names] = m as unknown as [string, string, string];
        const doc = cited.endsWith('.md') ? cited : `${cited}.md`; // README "Try it" is README.md's
        if (!existsSync(join(ROOT, doc))) {
          wrong.push(`${relative(ROOT, path)}: ${doc} (no such file)`);
          continue;
        }
        // A heading, or a paragraph's bold title (`**A key never seen before.**`).
        const titles = [...headingsOf(doc).map((h) => h.replace(/`/g, '')), ...[...read(doc).matchAll(/\*\*([^*]+)\*\*/g)].map((b) => b[1]!)];
        for (const q of names.matchAll(/"([^"]+)"/g)) {
          quoted++;
          const name = q[1]!.replace(/\s*\n\s*(?:\*|\/\/|#|--|;)?\s*/g, ' ').replace(/\s*…$/, '').replace(/^#+ /, '').trim();
          if (!titles.some((t) => t.startsWith(name))) wrong.push(`${relative(ROOT, path)}: ${doc} "${name}"`);
        }
      }
    }
    expect(quoted).toBeGreaterThan(200); // the walk really found the citations
    expect(wrong).toEqual([]);
  });

  it('the citation pattern reads a name over a comment line break, and several names', () => {
    const text = ' * (docs/telephony.md "SIP trunks: several,\n * in order", "Voice desk") and docs/on-call.md "Heartbeats" and "Callbacks"; README "Try it"';
    const found = [...text.matchAll(citation)].map((m) => [m[1], [...m[2]!.matchAll(/"([^"]+)"/g)].length]);
    expect(found).toEqual([
      ['docs/telephony.md', 2],
      ['docs/on-call.md', 2],
      ['README', 1],
    ]);
  });
});

describe('docs/http-api.md: every endpoint in its index has a curl example in the docs', () => {
  /** Every curl command of the docs' code blocks, continuation lines joined. */
  const curls = DOCS.flatMap((f) => [...read(f).matchAll(/```[a-z]*\n([\s\S]*?)```/g)])
    .flatMap((m) => m[1]!.replace(/\\\n\s*/g, ' ').split('\n'))
    .filter((l) => /\bcurl\b/.test(l));

  /** The method a curl line uses: -X, -I for HEAD, a body for POST, else GET. */
  const methodOf = (line: string) => /-X\s+([A-Z]+)/.exec(line)?.[1] ?? (/\s-I\b|\s-\w*I\s/.test(line) ? 'HEAD' : /\s(-d|--data[\w-]*)\s/.test(line) ? 'POST' : 'GET');

  /** `METHOD /path` entries of the index table (the first column's `code`). */
  const index = read('docs/http-api.md')
    .split('\n')
    .filter((l) => /^\| `[A-Z]+ \//.test(l))
    .flatMap((l) => [...l.split('|')[1]!.matchAll(/`([A-Z]+) (\/[^`]*)`/g)].map((m) => ({ method: m[1]!, path: m[2]! })));

  it('the index lists the endpoints', () => {
    expect(index.length).toBeGreaterThan(20);
  });

  it.each([['GET /panel', 'pages for a browser, not an API']])('exempt: %s (%s)', (entry) => {
    expect(index.map((e) => `${e.method} ${e.path}`)).toContain(entry);
  });

  it('each other entry: a curl with that method on that path ({id} and <token> stand for any value)', () => {
    const exempt = new Set(['GET /panel']);
    const without = index
      .filter((e) => !exempt.has(`${e.method} ${e.path}`))
      .filter((e) => {
        const path = new RegExp(`https?://[^/\\s'"]+${e.path.replace(/[.?+]/g, '\\$&').replace(/\{[^}]+\}|<[^>]+>/g, `[^/?\\s'"]+`)}(?:[?\\s'"]|$)`);
        return !curls.some((c) => path.test(c) && methodOf(c) === e.method);
      })
      .map((e) => `${e.method} ${e.path}`);
    expect(curls.length).toBeGreaterThan(30);
    expect(without).toEqual([]);
  });
});
