/**
 * docs/architecture.md and docs/conventions.md name only things that exist: every file or
 * folder path in backticks is in the repository (a path is matched by its ending, as the docs
 * name `deliverables/pipeline.server.ts` for `app/domain/deliverables/pipeline.server.ts`;
 * a build output or report counts when .gitignore lists it or its folder), and every code name in backticks
 * (`readFlightPlan`, `<StatusBadge>`, `apiRoute({…})`) is written somewhere in the source.
 * Patterns (`*.server.ts`, `app/domain/<concept>/`), URLs and commands are not checked.
 */
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, test } from 'vitest'

const root = process.cwd()
const DOCS = ['docs/architecture.md', 'docs/conventions.md']
/** Its own examples are not the source. */
const THIS_FILE = 'tests/integration/docs-names.test.ts'
const SKIPPED_DIRS = new Set([
  'node_modules',
  '.git',
  'build',
  'server-build',
  'test-results',
  'reports',
  'data',
])
const SOURCE = /\.(ts|tsx|js|mjs|cjs|json|sql|sh|yml|yaml|toml|css)$/

function walk(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED_DIRS.has(entry.name) || (entry.name.startsWith('.') && entry.name !== '.ci')) return []
    const file = path.join(dir, entry.name)
    const relative = path.relative(root, file).split(path.sep).join('/')
    return entry.isDirectory() ? [`${relative}/`, ...walk(file)] : [relative]
  })
}

const tree = walk(root).filter((name) => !name.startsWith('tests/.tmp'))
const gitignored = fs
  .readFileSync(path.join(root, '.gitignore'), 'utf8')
  .split('\n')
  .map((line) => line.trim().replace(/^\//, ''))
  .filter(Boolean)

/** The backticked text of a document. */
function quoted(text: string) {
  return [...text.matchAll(/`([^`\n]+)`/g)].map(([, inner]) => inner!.trim())
}

/** A backticked file or folder path (not a pattern, URL, route or command), or null. */
function pathIn(token: string): string | null {
  if (/[\s<>*…{}()#$:]/.test(token) || /^https?:/.test(token) || token.startsWith('.')) return null
  const hasExtension = /\.(ts|tsx|js|mjs|json|md|sh|sql|css|yml)$/.test(token)
  // A URL path (`/flight-planner`) is a route; a file path starting at / is outside the repository.
  if (token.startsWith('/') && !hasExtension) return null
  return token.includes('/') || hasExtension ? token : null
}

/** A backticked code name (`readFlightPlan`, `TextField`, `<StatusBadge>`, `apiRoute({…})`), or null. */
function codeNameIn(token: string): string | null {
  const name = /^<?([A-Za-z_$][\w$]*)(?:\(.*\))?>?$/.exec(token)?.[1]
  // camelCase with a capital inside, PascalCase with one, or a CONSTANT: a name, not a word.
  return name && /[a-z][A-Z]|^[A-Z][a-z]+[A-Z]|^[A-Z][A-Z_\d]{2,}$/.test(name) ? name : null
}

/** Whether a file or folder ends with this path; a module may be named without its `.server.ts`. */
function exists(file: string) {
  const wanted = file.replace(/\/$/, '')
  return (
    tree.some((name) => {
      const plain = name.replace(/\/$/, '')
      return [plain, plain.replace(/(\.server|\.client)?\.tsx?$/, '')].some(
        (form) => form === wanted || form.endsWith(`/${wanted}`),
      )
    }) || gitignored.some((ignored) => wanted === ignored || wanted.startsWith(`${ignored}/`))
  )
}

let sourceWords: Set<string> | undefined
function isInSource(name: string) {
  sourceWords ??= new Set(
    tree
      .filter((file) => SOURCE.test(file) && !file.startsWith('docs/') && file !== THIS_FILE)
      .flatMap((file) => fs.readFileSync(path.join(root, file), 'utf8').match(/[A-Za-z_$][\w$]*/g) ?? []),
  )
  return sourceWords.has(name)
}

describe.each(DOCS)('%s', (doc) => {
  const tokens = quoted(fs.readFileSync(path.join(root, doc), 'utf8'))

  test('every path it names exists', () => {
    const paths = tokens.map(pathIn).filter((token) => token !== null)
    expect(paths.length).toBeGreaterThan(10)
    expect(paths.filter((file) => !exists(file))).toEqual([])
  })

  test('every code name it names is in the source', () => {
    const names = tokens.map(codeNameIn).filter((token) => token !== null)
    expect(names.length).toBeGreaterThan(10)
    expect(names.filter((name) => !isInSource(name))).toEqual([])
  })
})

test('paths and code names are told from patterns, routes and words', () => {
  expect(pathIn('deliverables/pipeline.server.ts')).toBe('deliverables/pipeline.server.ts')
  expect(pathIn('app/lib/')).toBe('app/lib/')
  expect(pathIn('db/enums.ts')).toBe('db/enums.ts')
  expect(pathIn('/work/wt/layers-codemod.sh')).toBe('/work/wt/layers-codemod.sh')
  for (const other of [
    '*.server.ts',
    'app/domain/<concept>/',
    '/flight-planner',
    '#app/*',
    'npx vitest run a.ts',
  ])
    expect(pathIn(other)).toBeNull()
  expect(codeNameIn('readFlightPlan')).toBe('readFlightPlan')
  expect(codeNameIn('<StatusBadge>')).toBe('StatusBadge')
  expect(codeNameIn('apiRoute({ roles?, GET? })')).toBe('apiRoute')
  expect(codeNameIn('DELIVERABLE_KINDS')).toBe('DELIVERABLE_KINDS')
  for (const other of ['intent', 'pending', 'R 4 104,73']) expect(codeNameIn(other)).toBeNull()
  expect(exists('/work/wt/layers-codemod.sh')).toBe(false)
  expect(exists('projects/flight-plan.ts')).toBe(false)
  expect(exists('flight-plan/flight-plan.ts')).toBe(true)
  expect(exists('sharing/share-panel')).toBe(true)
  expect(isInSource('TextField')).toBe(false)
})
