import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * `npm run lint:tables`: each table is written and read by the module that owns it (docs/architecture.md, "Who owns
 * each table"). The owner is the folder whose drizzle schema declares the table (`pgTable('name', ...)`): a module's
 * folder (a kind's own schema belongs to vtu), or the platform's folder (ledger/, jobs/, http/ or platform/, the
 * sandbox). The SQL text of every src/ file (the `sql` templates and `sql.raw(...)`) is scanned for the tables it
 * writes (INSERT INTO, UPDATE, DELETE FROM) and reads (FROM, JOIN, USING); a file outside the owner's folder that
 * does either is a stranger. Fails on any stranger's use the allow-list (ALLOW_FILE: today's known debts, `reads` and
 * `writes`, each `{"<file>": ["<table>", ...]}`) does not name, on any stranger's write of a table in ONE_WRITER or
 * read of one in ONE_READER whatever the list says, and on an entry no longer needed, so the list only shrinks.
 */

export const ALLOW_FILE = 'scripts/table-owners.allow.json';

/** Tables whose owner publishes every change others need (identity's setTier, setPhone, scrub, ...; the ledger's post). */
export const ONE_WRITER: ReadonlySet<string> = new Set(['users', 'vtu_transactions', 'accounts', 'ledger_transactions', 'ledger_entries']);
/** Tables whose owner publishes every read others need: no stranger reads them, allow-list or not. */
export const ONE_READER: ReadonlySet<string> = new Set(['vtu_transactions']);

/** Known debts: stranger uses of tables that are still to move behind their owners' api.ts. */
export interface AllowList {
  reads: Record<string, string[]>;
  writes: Record<string, string[]>;
}

export interface Use {
  file: string;
  table: string;
  owner: string;
  write: boolean;
}

export interface Report {
  owners: Map<string, string>;
  strangers: Use[];
  failures: string[];
}

/** The folder that owns a schema file's tables. */
export function ownerOf(schemaFile: string): string {
  const kind = /^(src\/modules\/vtu)\/kinds\//.exec(schemaFile);
  if (kind) return kind[1];
  const mod = /^(src\/modules\/[^/]+)\//.exec(schemaFile);
  return mod ? mod[1] : path.posix.dirname(schemaFile);
}

function parse(file: string, text: string): ts.SourceFile {
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
}

function walk(node: ts.Node, visit: (n: ts.Node) => void): void {
  visit(node);
  node.forEachChild((c) => walk(c, visit));
}

/**
 * Table name -> owner folder, from every `pgTable('name', ...)` in the files given, and the views owners publish
 * (`pgView('name', ...)`): a published view is a read model anyone may read and nobody else writes.
 */
export function tableOwners(files: Record<string, string>, views = new Set<string>()): Map<string, string> {
  const owners = new Map<string, string>();
  for (const [file, text] of Object.entries(files)) {
    if (!text.includes('pgTable(') && !text.includes('pgView(')) continue;
    walk(parse(file, text), (n) => {
      if (!ts.isCallExpression(n) || !ts.isIdentifier(n.expression) || !['pgTable', 'pgView'].includes(n.expression.text)) return;
      if (n.expression.text === 'pgView' && n.arguments[0] && ts.isStringLiteralLike(n.arguments[0])) views.add(n.arguments[0].text);
      const name = n.arguments[0];
      if (!name || !ts.isStringLiteralLike(name)) return;
      const earlier = owners.get(name.text);
      if (earlier && earlier !== ownerOf(file)) throw new Error(`table ${name.text} is declared in ${earlier} and in ${file}`);
      owners.set(name.text, ownerOf(file));
    });
  }
  return owners;
}

/**
 * A template's text. In a `sql` template an interpolation is a value or a fragment scanned on its own: it names no
 * table here. In `sql.raw(...)` it is SQL text: a string constant of the file (`constants`) stands for its text.
 */
function templateText(t: ts.TemplateLiteral, constants?: ReadonlyMap<string, string>): string {
  if (ts.isNoSubstitutionTemplateLiteral(t)) return t.text;
  const part = (e: ts.Expression) => (constants && ts.isIdentifier(e) && constants.get(e.text)) || '__sql__';
  return t.head.text + t.templateSpans.map((s) => ` ${part(s.expression)} ${s.literal.text}`).join('');
}

function isSqlTag(tag: ts.Expression): boolean {
  return ts.isIdentifier(tag) && tag.text === 'sql';
}

function isSqlRaw(call: ts.CallExpression): boolean {
  const e = call.expression;
  return ts.isPropertyAccessExpression(e) && e.name.text === 'raw' && ts.isIdentifier(e.expression) && e.expression.text === 'sql';
}

/** The SQL texts of a file: each `sql` template and each `sql.raw(...)` of a literal or a literal constant. */
export function sqlTexts(file: string, text: string): string[] {
  if (!text.includes('sql')) return [];
  const source = parse(file, text);
  const constants = new Map<string, string>();
  const texts: string[] = [];
  const raws: ts.Expression[] = [];
  walk(source, (n) => {
    if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.initializer && ts.isStringLiteralLike(n.initializer))
      constants.set(n.name.text, n.initializer.text);
    if (ts.isTaggedTemplateExpression(n) && isSqlTag(n.tag)) texts.push(templateText(n.template));
    if (ts.isCallExpression(n) && isSqlRaw(n) && n.arguments[0]) raws.push(n.arguments[0]);
  });
  for (const arg of raws) {
    if (ts.isStringLiteralLike(arg)) texts.push(arg.text);
    else if (ts.isTemplateExpression(arg)) texts.push(templateText(arg, constants));
    else if (ts.isIdentifier(arg) && constants.has(arg.text)) texts.push(constants.get(arg.text)!);
  }
  return texts;
}

const IDENT = String.raw`(?:"?[a-z_][a-z0-9_]*"?\.)?"?([a-z_][a-z0-9_]*)"?`;
const NOT_ALIAS = new Set(
  (
    'where join left right inner full cross natural on using group order limit offset for union except intersect ' +
    'returning set having window lateral values select as and or when then else end from tablesample'
  ).split(' '),
);

function clean(sqlText: string): string {
  return sqlText
    .replace(/--[^\n]*/g, ' ')
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/'(?:[^']|'')*'/g, "''")
    .toLowerCase();
}

function previousWord(text: string, index: number): string {
  return /([a-z_]+)\s*$/.exec(text.slice(0, index))?.[1] ?? '';
}

/** The known tables one SQL text writes and reads (a write is not also listed as a read). */
export function tableUses(sqlText: string, tables: ReadonlySet<string>): { table: string; write: boolean }[] {
  const text = clean(sqlText);
  const ctes = new Set([...text.matchAll(/\b([a-z_][a-z0-9_]*)\s+as\s+(?:not\s+)?(?:materialized\s+)?\(/g)].map((m) => m[1]));
  const known = (t: string) => tables.has(t) && !ctes.has(t);
  const writes = new Set<string>();
  const reads = new Set<string>();
  for (const m of text.matchAll(
    new RegExp(String.raw`\b(?:insert\s+into|delete\s+from|truncate(?:\s+table)?|merge\s+into)\s+(?:only\s+)?${IDENT}`, 'g'),
  ))
    if (known(m[1])) writes.add(m[1]);
  for (const m of text.matchAll(new RegExp(String.raw`\bupdate\s+(?:only\s+)?${IDENT}`, 'g'))) {
    // FOR UPDATE, FOR NO KEY UPDATE and ON CONFLICT DO UPDATE lock or upsert: not an UPDATE of a named table.
    if (['for', 'key', 'do'].includes(previousWord(text, m.index))) continue;
    if (known(m[1])) writes.add(m[1]);
  }
  const item = new RegExp(String.raw`^\s*(?:only\s+)?${IDENT}(?:\s+(?:as\s+)?([a-z_][a-z0-9_]*))?`);
  for (const m of text.matchAll(/\b(from|join|using)\b/g)) {
    if (m[1] === 'from' && previousWord(text, m.index) === 'delete') continue;
    let rest = text.slice(m.index + m[0].length);
    // FROM a x, b y: every item of the list, until a keyword ends it.
    for (;;) {
      const it = item.exec(rest);
      if (!it) break;
      if (known(it[1])) reads.add(it[1]);
      let end = it[0].length;
      if (it[2] && NOT_ALIAS.has(it[2])) end -= it[0].length - it[0].lastIndexOf(it[2]);
      rest = rest.slice(end);
      const comma = /^\s*,/.exec(rest);
      if (!comma || m[1] !== 'from') break;
      rest = rest.slice(comma[0].length);
    }
  }
  return [
    ...[...writes].map((table) => ({ table, write: true })),
    ...[...reads].filter((t) => !writes.has(t)).map((table) => ({ table, write: false })),
  ];
}

/** Every use of a table by a file outside its owner's folder, and what of it fails the check. */
export function checkOwnership(files: Record<string, string>, allow: AllowList): Report {
  const views = new Set<string>();
  const owners = tableOwners(files, views);
  const tables = new Set(owners.keys());
  const strangers: Use[] = [];
  for (const [file, text] of Object.entries(files)) {
    const seen = new Map<string, boolean>();
    for (const s of sqlTexts(file, text)) for (const u of tableUses(s, tables)) seen.set(u.table, seen.get(u.table) || u.write);
    for (const [table, write] of seen) {
      const owner = owners.get(table)!;
      if (!file.startsWith(owner + '/') && (write || !views.has(table))) strangers.push({ file, table, owner, write });
    }
  }
  strangers.sort((a, b) => a.file.localeCompare(b.file) || a.table.localeCompare(b.table));
  const failures: string[] = [];
  const verb = (write: boolean) => (write ? 'writes' : 'reads');
  const strict = (table: string, write: boolean) => (write ? ONE_WRITER : ONE_READER).has(table);
  for (const u of strangers) {
    const what = `${u.file} ${verb(u.write)} ${u.table}, owned by ${u.owner}`;
    if (strict(u.table, u.write)) failures.push(`${what}: only its owner ${verb(u.write)} it; call its owner's api.ts`);
    else if (!allow[verb(u.write)][u.file]?.includes(u.table)) failures.push(`${what}: a new use by a stranger; call its owner's api.ts`);
  }
  for (const write of [false, true])
    for (const [file, list] of Object.entries(allow[verb(write)]))
      for (const table of list)
        if (strict(table, write) || !strangers.some((u) => u.file === file && u.table === table && u.write === write))
          failures.push(`${ALLOW_FILE}: ${file} no longer ${verb(write)} ${table} as a stranger; remove the entry`);
  return { owners, strangers, failures };
}

/** The repository's src/ files as `checkOwnership` takes them. */
export function repositoryFiles(root: string): Record<string, string> {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'src'], { cwd: root, encoding: 'utf8' });
  const files: Record<string, string> = {};
  for (const f of listed.split('\n'))
    if (/\.(ts|mts)$/.test(f) && !f.endsWith('.d.ts') && fs.existsSync(path.join(root, f)))
      files[f] = fs.readFileSync(path.join(root, f), 'utf8');
  return files;
}

export function checkRepository(root: string): Report {
  const allow = JSON.parse(fs.readFileSync(path.join(root, ALLOW_FILE), 'utf8')) as AllowList;
  return checkOwnership(repositoryFiles(root), allow);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const report = checkRepository(process.cwd());
  const byFile = new Map<string, Use[]>();
  for (const u of report.strangers) byFile.set(u.file, [...(byFile.get(u.file) ?? []), u]);
  if (process.argv.includes('--list'))
    for (const [file, uses] of byFile) console.log(`${file}: ${uses.map((u) => `${u.write ? 'writes' : 'reads'} ${u.table}`).join(', ')}`);
  for (const f of report.failures) console.error(f);
  if (report.failures.length) process.exit(1);
  const writes = report.strangers.filter((u) => u.write).length;
  console.log(
    `${report.owners.size} tables; ${report.strangers.length - writes} reads and ${writes} writes by strangers, each a known debt in ${ALLOW_FILE}`,
  );
}
