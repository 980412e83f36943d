/**
 * One name for notes: the UI, messages and e-mails say "note"; `annotation` is the table's and
 * the /api path's name (`annotations`, `annotationId`) and never reaches a sentence a person reads.
 */
import fs from 'node:fs'
import path from 'node:path'
import { expect, test } from 'vitest'

const root = path.join(process.cwd(), 'app')

/** A string literal or JSX text with a space in it (a sentence) that says annotation. */
const SENTENCE_SAYING_ANNOTATION = [
  /(['"`])(?:(?!\1)[^\n])*\s(?:(?!\1)[^\n])*\bannotations?\b(?:(?!\1)[^\n])*\1/i,
  /(['"`])(?:(?!\1)[^\n])*\bannotations?\b(?:(?!\1)[^\n])*\s(?:(?!\1)[^\n])*\1/i,
  />[^<{}\n]*\bannotations?\b[^<{}\n]*</i,
]

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(file)
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : []
  })
}

/** The code lines of a file, without comments or imports (they may name the table). */
function codeLines(text: string) {
  return (
    text
      .replace(/\/\*[\s\S]*?\*\//g, '')
      // A template's expressions are code (a column in SQL), not words.
      .replace(/\$\{[^}\n]*\}/g, '${}')
      .split('\n')
      .filter((line) => !/^\s*(\/\/|import\b|\} from\b)/.test(line))
  )
}

function sentencesSayingAnnotation(text: string) {
  return codeLines(text).filter((line) => SENTENCE_SAYING_ANNOTATION.some((re) => re.test(line)))
}

test('no sentence a person reads says "annotation": the UI calls them notes', () => {
  const found = sourceFiles(root).flatMap((file) =>
    sentencesSayingAnnotation(fs.readFileSync(file, 'utf8')).map(
      (line) => `${path.relative(process.cwd(), file)}: ${line.trim()}`,
    ),
  )
  expect(found).toEqual([])
})

test('the check finds a sentence or JSX text that says annotation, and passes names and paths', () => {
  expect(sentencesSayingAnnotation(`toast({ title: 'Annotation saved' })`)).toHaveLength(1)
  expect(sentencesSayingAnnotation(`<h2>Your annotations</h2>`)).toHaveLength(1)
  expect(sentencesSayingAnnotation(`const url = \`/api/projects/\${id}/annotations\``)).toEqual([])
  expect(sentencesSayingAnnotation(`<input name="annotationId" value={note.id} />`)).toEqual([])
  expect(sentencesSayingAnnotation('sql`coalesce(max(${annotations.id}), 0)`')).toEqual([])
})
